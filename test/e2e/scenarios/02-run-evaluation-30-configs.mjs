// Scenario 2: A whole run of the 30 configs from the palette: progress, the ranking table (sortable, aria-sort), the bias
// study, the Answers tab. Its workspace (H.sharedWorkspace('runs')) is reused by later scenarios.
import * as H from '../harness.mjs';
const { sleep } = H;

export default {
  name: 'run-evaluation-30-configs',
  async run({ page, server }) {
    await H.openWorkbench(page, server, H.sharedWorkspace('runs'));
    await sleep(1500);
    await H.runCommand(page, 'Spanproof: Run Evaluation');
    await H.waitFor(async () => /Spanproof/.test(await H.notificationText(page)) || (await page.locator('.statusbar-item', { hasText: 'Spanproof' }).filter({ hasText: '%' }).count()) > 0, 'progress');
    // The walkthrough's image: once the status bar shows a percentage past the start.
    await H.waitFor(async () => (await page.locator('.statusbar-item', { hasText: /Spanproof [1-9]\d*%/ }).count()) > 0, 'a percentage', 60000).catch(() => undefined);
    await H.shot(page, '2-progress');
    await H.shot(page, '2-walkthrough-run-evaluation.jpg', { clip: { x: 0, y: 640, width: 1600, height: 360 } });
    const frame = await H.webviewFrame(page, 180000);
    await frame.locator('[data-testid=ranking-table] tbody tr[data-config]').first().waitFor({ timeout: 180000 });
    const n = await frame.locator('[data-testid=ranking-table] tbody tr[data-config]').count();
    if (n !== 30) throw new Error(`expected 30 ranked configs, saw ${n}`);
    const status = await frame.locator('[data-testid=run-status]').textContent();
    if (status?.trim() !== 'succeeded') throw new Error(`run status ${status}`);
    // Sorting by a column sets aria-sort.
    await frame.locator('button[data-sort="latency"]').click();
    await H.waitFor(async () => (await frame.locator('th[aria-sort="ascending"] button[data-sort="latency"]').count()) === 1, 'aria-sort');
    await frame.locator('button[data-sort="rank"]').click();
    await sleep(300);
    await H.shot(page, '2-results-panel');
    await H.shot(page, '2-walkthrough-read-verdict.jpg', { clip: { x: 340, y: 30, width: 1260, height: 760 } });
    // Bias study of the run (chunks kept by the extension's runs).
    await frame.locator('[data-tab="bias"]').click();
    await frame.locator('[data-testid=bias] table').first().waitFor({ timeout: 60000 });
    const authors = await frame.locator('[data-testid=bias] table').first().locator('tbody tr').count();
    if (authors !== 5) throw new Error(`bias study shows ${authors} author chunkers, expected 5`);
    await sleep(500);
    await H.shot(page, '2-bias-study');
    // Answers tab (SPEC §14): this run generated no answers, and the tab says so.
    await frame.locator('[data-tab="answers"]').click();
    await H.waitFor(async () => {
      const t = (await frame.locator('[data-testid=answers]').textContent()) ?? '';
      return t.length > 0 && !t.includes('Loading answers');
    }, 'answers tab rendered');
    await frame.locator('[data-tab="ranking"]').click();
    await sleep(500);
  },
};
