// Scenario 3: From a miss in the matrix to the question detail (cause) to the editor at the chunk.
import { basename } from 'node:path';
import * as H from '../harness.mjs';
const { join, readFileSync, runsOf, sleep } = H;

export default {
  name: 'matrix-miss-to-detail-to-editor',
  async run({ page, server }) {
    const run = runsOf(H.sharedWorkspace('runs')).filter((r) => r.run.status === 'succeeded').pop();
    if (!run) throw new Error('needs the run of scenario 2');
    const miss = readFileSync(join(run.dir, 'questions.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((r) => r['hit@5'] === 0 && r.cause);
    if (!miss) throw new Error('the run has no miss');
    await H.openWorkbench(page, server, H.sharedWorkspace('runs'));
    await sleep(1500);
    await H.runCommand(page, 'Spanproof: Show Results');
    const frame = await H.webviewFrame(page);
    await frame.locator('[data-tab="ranking"]').click({ timeout: 30000 }); // the panel may restore another tab
    await frame.locator('[data-testid=ranking-table]').waitFor({ timeout: 30000 });
    await frame.locator('[data-tab="matrix"]').click();
    const canvas = frame.locator('[data-testid=matrix]');
    await canvas.waitFor();
    await sleep(500);
    const pt = await frame.evaluate(([q, c]) => window.spanproofMatrixCell(q, c), [miss.question, miss.config]);
    if (!pt) throw new Error('matrix cell not found');
    await H.shot(page, '3-matrix');
    await canvas.click({ position: { x: pt.x, y: pt.y } });
    const detail = frame.locator(`[data-testid=question-detail][data-question="${miss.question}"][data-config="${miss.config}"]`);
    await detail.waitFor({ timeout: 10000 });
    const cause = (await frame.locator('[data-testid=cause]').textContent())?.trim();
    if (!cause?.includes(miss.cause)) throw new Error(`detail shows cause ${cause}, expected ${miss.cause}`);
    await sleep(800);
    await H.shot(page, '3-question-detail');
    const chunk = frame.locator('[data-testid=result-list] button.chunk').first();
    const source = await chunk.getAttribute('data-source');
    await chunk.click();
    await page.locator('.tabs-container .tab.active', { hasText: basename(source) }).first().waitFor({ timeout: 15000 });
    await H.shot(page, '3-editor-revealed');
  },
};
