/**
 * The answers section of the Markdown and HTML reports (SPEC §14: a same-model run is flagged in every
 * report). A hand-built run directory (test/helpers/runFixture: 3 questions × 2 configs) gets answers
 * from the generation stage against the fake OpenAI-compatible server, then the report is rendered
 * through `renderRunReport` — the function `spanproof report` and Export Report… call.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderRunReport } from '../../../../src/core/report';
import { runGenerationStage } from '../../../../src/core/judge';
import { ANSWERS, CONFIGS, makeRunDir } from '../../../helpers/runFixture';
import { startFakeServer } from '../../../helpers/fakeServer';

/** The judge fixture's run directory, with the results.json fields the retrieval report reads (causes, skipped, errors). */
function reportableRunDir(): { runDir: string; workspace: string } {
  const d = makeRunDir();
  const file = join(d.runDir, 'results.json');
  const r = JSON.parse(readFileSync(file, 'utf8'));
  r.configs = r.configs.map((c: object, i: number) => ({ ...c, causes: i ? { 'ranked-too-low': 3 } : {}, contextChars: 25, scored: 3, failed: [], metrics: { 'hit@5': { mean: 1 - i, lo: 1 - i, hi: 1 - i } } }));
  Object.assign(r, { primaryMetric: 'hit@5', resamples: 200, seed: 7, skipped: [], errors: [] });
  writeFileSync(file, JSON.stringify(r));
  return d;
}

test('a same-model run is flagged in the Markdown and the HTML report, with the ledger and per-config means', async () => {
  const srv = await startFakeServer({ answers: ANSWERS });
  try {
    const { runDir, workspace } = reportableRunDir();
    const r = await runGenerationStage(runDir, { judge: { endpoint: srv.url, generatorModel: 'same-model', judgeModel: 'same-model', allowSameModel: true }, cacheDir: `${workspace}/cache` });
    assert.equal(r.summary.sameModel, true);
    const md = renderRunReport(runDir, 'md');
    const html = renderRunReport(runDir, 'html');
    assert.match(md, /## Answers \(LLM judges\)/);
    assert.match(md, /\*\*Warning: the same model generated and judged these answers\*\*/);
    assert.match(html, /<h2 id="answers">Answers \(LLM judges\)<\/h2>/);
    assert.match(html, /<b>Warning: the same model generated and judged these answers<\/b>/);
    // The section comes after the retrieval report, before the end of the HTML document.
    assert.ok(md.indexOf('## Ranking') < md.indexOf('## Answers'));
    assert.ok(html.indexOf('id="answers"') < html.indexOf('</body>'));
    // Ledger line = the server's own count (a fresh cache: every call was a request, or shared an
    // identical request in flight — single flight — counted as served from the cache).
    const n = srv.requests.length;
    const shared = r.ledger.cachedResponses;
    assert.ok(n > 0);
    assert.ok(md.includes(`- ledger: ${n} request(s), ${shared} from the cache, ${10 * n} prompt + ${5 * n} completion tokens`), md);
    assert.ok(html.includes(`<li>ledger: ${n} request(s), ${shared} from the cache, ${10 * n} prompt + ${5 * n} completion tokens</li>`));
    // booleanCorrectness, hand-checked from the fixture: q1 and q2 answers contain their reference in both
    // configs (1, 1); q3 has no reference answer → unmeasured, counted in the total: mean 1 over 2 of 3.
    assert.match(md, new RegExp(`\\| booleanCorrectness \\| 1\\.00 \\[1\\.00, 1\\.00\\] \\(2/3\\) \\| 1\\.00 \\[1\\.00, 1\\.00\\] \\(2/3\\) \\|`));
    assert.ok(html.includes('<tr><td class="l">booleanCorrectness</td><td>1.00 [1.00, 1.00] (2/3)</td><td>1.00 [1.00, 1.00] (2/3)</td></tr>'));
    for (const c of CONFIGS) assert.ok(html.includes(`<th>${c}</th>`), c);
    // CSV stays one row per config: no answers section.
    assert.doesNotMatch(renderRunReport(runDir, 'csv'), /LLM judges|same model/);
  } finally {
    await srv.close();
  }
});

test('two different models: the section is there without the same-model warning; a run without answers has no section', async () => {
  const srv = await startFakeServer({ answers: ANSWERS });
  try {
    const { runDir, workspace } = reportableRunDir();
    const plain = reportableRunDir().runDir;
    await runGenerationStage(runDir, { judge: { endpoint: srv.url, generatorModel: 'gen-model', judgeModel: 'judge-model' }, cacheDir: `${workspace}/cache` });
    const md = renderRunReport(runDir, 'md');
    const html = renderRunReport(runDir, 'html');
    assert.match(md, /generator \*\*gen-model\*\*, judge \*\*judge-model\*\*/);
    assert.match(html, /generator <b>gen-model<\/b>, judge <b>judge-model<\/b>/);
    assert.doesNotMatch(md, /same model generated/);
    assert.doesNotMatch(html, /same model generated/);
    for (const f of ['md', 'html'] as const) assert.doesNotMatch(renderRunReport(plain, f), /LLM judges/);
  } finally {
    await srv.close();
  }
});
