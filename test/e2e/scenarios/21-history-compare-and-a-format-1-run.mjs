// Scenario 21: History lists a run of an older Spanproof (ranking.json format 1, an array of weighted-
// score entries) beside the run of scenario 2 (format 2, with the verdict); ticking both compares them
// config by config; opening the old run shows its old-rule recommendation without Holm / non-inferiority
// columns, and the new run shows the verdict with its status.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import * as H from '../harness.mjs';
const { join, readFileSync, runsOf, sleep } = H;

const OLD_ID = '20200101T000000Z-format1';

/** The ranking.json an older Spanproof wrote for the same configs: format 1, in the reverse order. */
function formatOne(v2) {
  return [...v2.configs].reverse().map((c, i) => ({
    id: c.id,
    rank: i + 1,
    score: Number((0.9 - i / 100).toFixed(3)),
    pareto: c.pareto,
    explanation: `#${i + 1} of ${v2.configs.length} (format-1 run).`,
    latencyMs: 1 + i,
    contextChars: 1000 + i,
    recommended: i === 0,
    tiedWithTop: i < 3,
  }));
}

export default {
  name: 'history-compare-and-a-format-1-run',
  async run({ page, server }) {
    const runs = runsOf(H.sharedWorkspace('runs')).filter((r) => r.run.status === 'succeeded');
    if (!runs.length) throw new Error('needs the run of scenario 2');
    const src = runs[runs.length - 1];
    const v2 = JSON.parse(readFileSync(join(src.dir, 'ranking.json'), 'utf8'));
    if (v2.spanproof !== 2) throw new Error(`scenario 2's run should have ranking.json format 2, has ${JSON.stringify(v2).slice(0, 80)}`);
    const ws = H.copyWorkspace('history');
    const root = join(ws, '.spanproof', 'runs');
    mkdirSync(root, { recursive: true });
    cpSync(src.dir, join(root, src.id), { recursive: true });
    const old = join(root, OLD_ID);
    cpSync(src.dir, old, { recursive: true });
    writeFileSync(join(old, 'ranking.json'), JSON.stringify(formatOne(v2)));
    writeFileSync(join(old, 'run.json'), JSON.stringify({ ...src.run, id: OLD_ID, runDir: old }));

    await H.openWorkbench(page, server, ws);
    await sleep(1500);
    await H.runCommand(page, 'Spanproof: Show Results');
    const frame = await H.webviewFrame(page);
    // The latest succeeded run opens first: the verdict with its status.
    await frame.locator(`[data-testid=run-status][data-run="${src.id}"]`).waitFor({ timeout: 30000 });
    await frame.locator('[data-tab="ranking"]').click();
    const card = frame.locator('[data-testid=verdict-card]');
    await card.waitFor();
    if ((await card.getAttribute('data-format')) !== '2') throw new Error('the new run does not show the format-2 verdict');
    const status = (await frame.locator('[data-testid=verdict-status]').textContent())?.trim();
    if (status !== { decisive: 'decisive', provisional: 'provisional', 'no-signal': 'no signal' }[v2.verdict.status]) throw new Error(`status shown ${status}, ranking.json says ${v2.verdict.status}`);
    if ((await frame.locator('[data-testid=verdict-recommended]').textContent())?.trim() !== v2.verdict.recommended) throw new Error('recommended config differs from ranking.json');
    if ((await frame.locator('button[data-sort="pHolm"]').count()) !== 1) throw new Error('no Holm p column for a format-2 run');

    // History: both runs, tick both, compare.
    await frame.locator('[data-tab="history"]').click();
    for (const id of [src.id, OLD_ID]) await frame.locator(`[data-testid=history] tr[data-run="${id}"]`).waitFor({ timeout: 10000 });
    await frame.locator(`[data-testid=history] tr[data-run="${src.id}"] input[type=checkbox]`).check();
    await frame.locator(`[data-testid=history] tr[data-run="${OLD_ID}"] input[type=checkbox]`).check();
    const compare = frame.locator('[data-testid=compare] table tbody tr');
    await H.waitFor(async () => (await compare.count()) === v2.configs.length, `the comparison of ${v2.configs.length} configs`, 20000);
    const heading = (await frame.locator('[data-testid=compare] h2').textContent()) ?? '';
    if (!heading.includes(`on ${v2.verdict.primaryMetric}`)) throw new Error(`compare heading: ${heading}`);
    // Same results.json in both: every B − A is +0.000, and each run's own rank is shown.
    const cells = await compare.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())));
    const rankOld = new Map(formatOne(v2).map((e) => [e.id, String(e.rank)]));
    const rankNew = new Map(v2.configs.map((c) => [c.id, String(c.rank)]));
    for (const [id, a, b, d, ra, rb] of cells) {
      if (a === '—' || b === '—' || d !== '+0.000') throw new Error(`compare row ${id}: A ${a}, B ${b}, B − A ${d}`);
      const [first, second] = heading.indexOf(OLD_ID) < heading.indexOf(src.id) ? [rankOld, rankNew] : [rankNew, rankOld];
      if (ra !== first.get(id) || rb !== second.get(id)) throw new Error(`compare row ${id}: ranks ${ra}/${rb}, expected ${first.get(id)}/${second.get(id)}`);
    }
    await sleep(300);
    await H.shot(page, '21-history-compare');

    // Open the format-1 run: its old-rule recommendation, its own order, no Holm / non-inferiority columns.
    await frame.locator(`[data-testid=history] tr[data-run="${OLD_ID}"] vscode-button`).click();
    await frame.locator(`[data-testid=run-status][data-run="${OLD_ID}"]`).waitFor({ timeout: 15000 });
    await frame.locator('[data-tab="ranking"]').click();
    await H.waitFor(async () => (await frame.locator('[data-testid=verdict-card]').getAttribute('data-format')) === '1', 'the format-1 card');
    const rec = formatOne(v2).find((e) => e.recommended).id;
    if ((await frame.locator('[data-testid=verdict-recommended]').textContent())?.trim() !== rec) throw new Error(`format-1 recommendation should be ${rec}`);
    const order = await frame.locator('[data-testid=ranking-table] tbody tr[data-config]').evaluateAll((trs) => trs.map((t) => t.dataset.config));
    if (order.join() !== formatOne(v2).map((e) => e.id).join()) throw new Error(`format-1 run not in its own rank order: ${order.slice(0, 3).join(', ')}…`);
    if ((await frame.locator('button[data-sort="pHolm"], button[data-sort="nonInferior"]').count()) !== 0) throw new Error('Holm / non-inferiority columns shown for a format-1 run');
    const caption = (await frame.locator('[data-testid=ranking-sort]').textContent()) ?? '';
    if (!caption.includes('format-1')) throw new Error(`caption does not say how a format-1 run is ordered: ${caption}`);
    await H.shot(page, '21-format-1-run');
  },
};
