/* global getComputedStyle */
// Scenario 1: Author a question from a selection: the file is created, the span decorated, the tree lists it and
// clicking its evidence selects the span.
import { rmSync } from 'node:fs';
import * as H from '../harness.mjs';
const { existsSync, gtOf, join, readFileSync } = H;

export default {
  name: 'new-question-from-selection',
  async run({ page, server }) {
    const ws = H.copyWorkspace('author');
    rmSync(join(ws, '.spanproof'), { recursive: true, force: true }); // the command must create the file
    await H.openWorkbench(page, server, ws);
    await H.openFile(page, 'tutorial/cors.md');
    await H.shot(page, '1-walkthrough-open-folder.jpg', { clip: { x: 0, y: 0, width: 1000, height: 620 } });
    await H.gotoLine(page, 15);
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    await H.shot(page, '1-walkthrough-select-quote.jpg', { clip: { x: 340, y: 0, width: 1000, height: 620 } });
    await H.runCommand(page, 'Spanproof: New Question from Selection');
    const input = page.locator('.quick-input-widget input');
    await H.inputBox(page, 'New Question from Selection');
    await input.fill('Are http://localhost and http://localhost:8080 the same origin?');
    await H.shot(page, '1-walkthrough-new-question.jpg', { clip: { x: 340, y: 0, width: 1000, height: 620 } });
    await page.keyboard.press('Enter');
    await H.inputBox(page, 'reference answer');
    await input.fill('No: different ports make different origins.');
    await page.keyboard.press('Enter');
    await H.waitForNotification(page, /added question q-[0-9a-f]{4}/);
    // Ground-truth file written, with the selection as a selector.
    const gt = await H.waitFor(() => existsSync(join(ws, '.spanproof', 'groundtruth.json')) && gtOf(ws), 'groundtruth.json');
    const q = gt.questions[0];
    const text = readFileSync(join(ws, 'tutorial', 'cors.md'), 'utf8');
    const line = text.split('\n')[14];
    if (gt.questions.length !== 1 || q.evidence[0].exact !== line || text.slice(q.evidence[0].start, q.evidence[0].end) !== line) {
      throw new Error(`unexpected ground truth: ${JSON.stringify(gt).slice(0, 400)}`);
    }
    if (q.answer !== 'No: different ports make different origins.') throw new Error(`answer not saved: ${q.answer}`);
    // Decoration: a dashed-border overlay in the editor.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Home');
    await H.waitFor(
      () => page.evaluate(() => [...document.querySelectorAll('.view-overlays .cdr, .view-overlays div')].some((e) => getComputedStyle(e).borderStyle.includes('dashed'))),
      'evidence decoration',
    );
    // Tree entry in the Questions view.
    await page.locator('.activitybar .action-item a[aria-label^="Spanproof"]').first().click();
    const qrow = page.locator('.pane-body .monaco-list-row', { hasText: 'Are http://localhost' }).first();
    await qrow.waitFor({ timeout: 15000 });
    // Expand the question and click its evidence: the editor selects the span.
    await page.locator('.monaco-editor .view-lines').first().click(); // move the editor cursor away from the span first
    await page.keyboard.press('Control+Home');
    await H.waitFor(async () => (await page.locator('.statusbar-item', { hasText: /Ln 1, Col 1$/ }).count()) > 0, 'cursor at 1:1');
    await qrow.click();
    const erow = page.locator('.pane-body .monaco-list-row', { hasText: 'Even if they are all in' }).first();
    await erow.waitFor({ timeout: 10000 });
    await erow.click();
    await H.waitFor(async () => /Ln 15, Col 110 \(109 selected\)/.test((await page.locator('.statusbar-item', { hasText: 'selected' }).allTextContents()).join(' ')), 'span selected from the tree');
  },
};
