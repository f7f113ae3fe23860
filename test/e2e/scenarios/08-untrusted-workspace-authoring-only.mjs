// Scenario 8: Workspace Trust: in Restricted Mode running is disabled (palette and panel) and authoring works.
import * as H from '../harness.mjs';
const { gtOf, sleep } = H;

export default {
  name: 'untrusted-workspace-authoring-only',
  /** A second code-server with Workspace Trust on: the folder is opened in Restricted Mode. */
  server: { workspaceTrust: true },
  async run({ page, server }) {
    const ws = H.copyWorkspace('untrusted');
    await page.goto(`${server.url}/?folder=${encodeURIComponent(ws)}`);
    await page.waitForSelector('.monaco-workbench', { timeout: 60000 });
    const no = page.locator('.monaco-dialog-box .monaco-button', { hasText: /No, I don.t trust/ }).first();
    await no.waitFor({ timeout: 30000 });
    await no.click();
    await page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 60000 });
    await sleep(2000);
    // Running is disabled: the palette does not offer Run Evaluation.
    await H.runCommand(page, 'Spanproof: Show Results'); // available: viewing results is allowed
    const rframe = await H.webviewFrame(page, 30000);
    // The panel's Run Evaluation button is disabled, and its tooltip says why.
    await rframe.locator('[data-testid=run-button][disabled]').waitFor({ timeout: 15000 });
    const tip = await rframe.locator('[data-testid=run-button-wrap]').getAttribute('title');
    if (!/trusted workspace/.test(tip ?? '')) throw new Error(`disabled Run Evaluation has no trust tooltip: ${tip}`);
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill('>Spanproof: ');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Spanproof: Validate Ground Truth' }).first().waitFor();
    await sleep(1000);
    const labels = (await page.locator('.quick-input-list .monaco-list-row').allTextContents()).map((t) => t.trim());
    if (!labels.some((l) => l.includes('Spanproof: Open Ground Truth File'))) throw new Error(`palette rows not read: ${labels.join(' | ')}`);
    if (labels.some((l) => /Spanproof: Run Evaluation(?! for)/.test(l))) throw new Error(`Run Evaluation offered in Restricted Mode: ${labels.join(' | ')}`);
    await page.keyboard.press('Escape');
    // Authoring ground truth works.
    await H.openFile(page, 'tutorial/cors.md');
    await H.gotoLine(page, 15);
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    await H.runCommand(page, 'Spanproof: New Question from Selection');
    await H.inputBox(page, 'New Question from Selection');
    await input.fill('Do different ports make different origins?');
    await page.keyboard.press('Enter');
    await H.inputBox(page, 'reference answer');
    await page.keyboard.press('Enter');
    await H.waitForNotification(page, /added question q-[0-9a-f]{4}/);
    if (gtOf(ws).questions.length !== 21) throw new Error('question not written in Restricted Mode');
  },
};
