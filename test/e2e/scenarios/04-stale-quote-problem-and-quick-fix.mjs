// Scenario 4: A stale quote shows in Problems; the preferred quick fix re-anchors it.
import * as H from '../harness.mjs';
const { gtOf } = H;

export default {
  name: 'stale-quote-problem-and-quick-fix',
  async run({ page, server }) {
    const ws = H.copyWorkspace('stale');
    await H.openWorkbench(page, server, ws);
    await H.openFile(page, 'tutorial/body.md');
    await H.gotoLine(page, '15:44');
    await page.keyboard.press('Control+Shift+ArrowRight');
    await page.keyboard.type('unspecified');
    // Problems entry.
    await H.runCommand(page, 'View: Focus Problems');
    const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'Stale evidence' }).first();
    await row.waitFor({ timeout: 20000 });
    await H.shot(page, '4-problem');
    // Quick fix from the editor: cursor inside the diagnostic, Ctrl+.
    await page.locator('.monaco-editor .view-lines').first().click();
    await H.gotoLine(page, '15:50');
    await page.keyboard.press('Control+.');
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'Re-anchor evidence to the nearest match' }).first();
    await fix.waitFor({ timeout: 10000 });
    // The preferred fix is the focused first row (a pointer block covers the widget for clicks).
    const focused = await page.locator('.action-widget .monaco-list-row.focused').first().textContent();
    if (!focused?.includes('Re-anchor evidence to the nearest match')) throw new Error(`focused quick fix: ${focused}`);
    await page.keyboard.press('Enter');
    const gt = await H.waitFor(() => {
      const g = gtOf(ws);
      return g.questions.find((q) => q.id === 'fa-d-008')?.evidence[0].exact.includes('unspecified behavior') && g;
    }, 'ground truth re-anchored', 20000);
    const e = gt.questions.find((q) => q.id === 'fa-d-008').evidence[0];
    if (!e.exact.startsWith('Sending a body with a `GET` request has an unspecified behavior')) throw new Error(`re-anchored to ${e.exact}`);
    await H.waitFor(async () => (await page.locator('.markers-panel .monaco-list-row', { hasText: 'Stale evidence' }).count()) === 0, 'problem cleared');
    await H.shot(page, '4-fixed');
  },
};
