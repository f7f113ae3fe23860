// Scenario 12: the ground-truth JSON Schema (contributes.jsonValidation) in VS Code's JSON editor — the
// file as written has no schema problem; a broken edit ("spanproof": 2, a format that does not exist) gets a
// squiggle and a Problems entry naming the value allowed; undoing it clears both.
import * as H from '../harness.mjs';
const { join, readFileSync, sleep } = H;

export default {
  name: 'schema-squiggle',
  async run({ page, server }) {
    const ws = H.copyWorkspace('schema');
    const text = readFileSync(join(ws, '.spanproof', 'groundtruth.json'), 'utf8');
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.includes('"spanproof": 1'));
    if (at < 0) throw new Error('fixture has no "spanproof": 1 line');
    await H.openWorkbench(page, server, ws);
    await H.openFile(page, '.spanproof/groundtruth.json');
    await H.runCommand(page, 'View: Focus Problems');
    const jsonProblems = page.locator('.markers-panel .monaco-list-row', { hasText: /Value must be|Value is not accepted|Incorrect type|Missing property/ });
    await sleep(3000); // the JSON language server validates after opening
    if (await jsonProblems.count()) throw new Error('the valid ground truth has schema problems');
    // Break it: format version 1 → 2.
    await page.locator('.monaco-editor .view-lines').first().click();
    const col = lines[at].indexOf(': 1') + 3;
    await H.gotoLine(page, `${at + 1}:${col}`);
    await page.keyboard.press('Shift+ArrowRight'); // select the digit
    await page.keyboard.type('2');
    const row = page.locator('.markers-panel .monaco-list-row', { hasText: /Value must be 1/ }).first();
    await row.waitFor({ timeout: 30000 });
    await H.waitFor(async () => (await page.locator('.monaco-editor .squiggly-error, .monaco-editor .squiggly-warning').count()) > 0, 'a squiggle in the editor');
    await sleep(500);
    await H.shot(page, '12-schema-squiggle');
    await page.keyboard.press('Control+z');
    await H.waitFor(async () => (await page.locator('.markers-panel .monaco-list-row', { hasText: 'Value must be 1' }).count()) === 0, 'the problem cleared after undo');
  },
};
