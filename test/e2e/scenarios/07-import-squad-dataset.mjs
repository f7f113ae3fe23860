// Scenario 7: Import Dataset… (SQuAD 2.0) writes the ground truth the notification counts.
import { writeFileSync } from 'node:fs';
import * as H from '../harness.mjs';
const { gtOf, join, readFileSync, repo, sleep } = H;

export default {
  name: 'import-squad-dataset',
  async run({ page, server }) {
    const ws = H.tempDir('spanproof-e2e-import-');
    writeFileSync(join(ws, 'README.md'), '# empty corpus\n');
    const input = join(H.tempDir('spanproof-e2e-squad-'), 'squad2_tiny.json');
    writeFileSync(input, readFileSync(join(repo, 'test', 'fixtures', 'e2e', 'squad2_tiny.json')));
    await H.openWorkbench(page, server, ws);
    await H.runCommand(page, 'Spanproof: Import Dataset…');
    const qi = page.locator('.quick-input-widget input');
    await qi.fill('squad');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'squad' }).first().waitFor();
    await page.keyboard.press('Enter');
    // code-server's simple open dialog: type the path.
    await sleep(800);
    await qi.fill(input);
    await sleep(800);
    await page.keyboard.press('Enter');
    const button = page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Import' }).first();
    await button.waitFor({ timeout: 30000 });
    await H.shot(page, '7-import-confirm');
    await H.shot(page, '7-walkthrough-import.jpg', { clip: { x: 300, y: 0, width: 1000, height: 620 } });
    await button.click();
    const note = await H.waitForNotification(page, /imported \d+ questions/, 30000);
    const gt = gtOf(ws);
    const n = Number(/imported (\d+) questions/.exec(note)[1]);
    if (gt.questions.length !== n || n < 1) throw new Error(`ground truth has ${gt.questions.length} questions, notification said ${n}`);
  },
};
