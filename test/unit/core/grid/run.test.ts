/**
 * The grid run end to end on the shipped samples/ corpus: determinism of results.json, stale quotes
 * excluded and counted, a failing item reported without aborting, and every questions.jsonl number
 * recomputed from its result list and the ground-truth spans with an independent interval count.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runGrid } from '../../../../src/core/grid/run';
import { ResidentState } from '../../../../src/core/grid/resident';
import { readRun } from '../../../../src/core/runs';
import { buildReportModel, rankingTable, renderHtml } from '../../../../src/core/report';
import type { QuestionRecord } from '../../../../src/core/runs';
import { MINI, MINI_GT, readText, smallSettings, tmp } from '../../../helpers/grid';

test('two runs with identical inputs write byte-identical results.json (second run warm from the cache)', async () => {
  const root = tmp('det');
  const cacheDir = join(root, 'cache');
  const a = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings: smallSettings(), runsRoot: join(root, 'runs'), cacheDir });
  const b = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings: smallSettings(), runsRoot: join(root, 'runs'), cacheDir });
  assert.notEqual(a.runDir, b.runDir);
  assert.equal(a.timings.perChunker.heading.cacheHit, false);
  assert.equal(b.timings.perChunker.heading.cacheHit, true, 'the second run reads chunk boundaries from the cache');
  const ra = readText(join(a.runDir!, 'results.json'));
  const rb = readText(join(b.runDir!, 'results.json'));
  assert.equal(ra, rb);
  assert.equal(readText(join(a.runDir!, 'questions.jsonl')), readText(join(b.runDir!, 'questions.jsonl')));
  // ranking.json v2 reads no clock with default settings (weights.latency = 0): byte-identical too
  assert.equal(readText(join(a.runDir!, 'ranking.json')), readText(join(b.runDir!, 'ranking.json')));
  const res = JSON.parse(ra);
  assert.equal(res.configs.length, 8);
  assert.equal(res.questions, 10);
  assert.deepEqual(Object.keys(res.configs[0].metrics).slice(0, 4), ['coverage@5', 'hit@1', 'hit@10', 'hit@3']);
  for (const f of ['run.json', 'results.json', 'ranking.json', 'questions.jsonl', 'timings.json', 'evidence.json']) {
    assert.ok(readdirSync(a.runDir!).includes(f), f);
  }
  const run = JSON.parse(readText(join(a.runDir!, 'run.json')));
  assert.equal(run.status, 'succeeded');
  assert.match(run.id, /^\d{8}T\d{6}Z-[0-9a-f]{8}$/);
});

test('a run that keeps nothing resident (the CLI) writes the same bytes as a resident worker\'s run, and keeps no stage', async () => {
  const root = tmp('resident');
  const resident = new ResidentState();
  const settings = smallSettings();
  const a = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings, runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache-a') }, { resident });
  const b = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings, runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache-b') });
  assert.ok(resident.stages.size > 0, 'the resident run memoised its chunker stages');
  for (const f of ['results.json', 'questions.jsonl', 'ranking.json', 'evidence.json']) assert.equal(readText(join(b.runDir!, f)), readText(join(a.runDir!, f)), f);
  await resident.release();
});

test('a stale quote is excluded and counted in acceptance, never scored as a miss', async () => {
  const root = tmp('stale');
  const gt = JSON.parse(readFileSync(MINI_GT, 'utf8'));
  gt.questions[2].evidence[0].exact = 'this sentence is not in the document at all';
  delete gt.questions[2].evidence[0].start;
  delete gt.questions[2].evidence[0].end;
  const gtFile = join(root, 'gt.json');
  writeFileSync(gtFile, JSON.stringify(gt));
  const r = await runGrid({ workspace: MINI, groundTruthFile: gtFile, settings: smallSettings({ chunkers: ['heading'] }), runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache') });
  assert.equal(r.results.acceptance.total, 10);
  assert.equal(r.results.acceptance.resolved, 9);
  assert.equal(r.results.acceptance.stale.length, 1);
  assert.equal(r.results.acceptance.stale[0].id, 'mini-03');
  assert.equal(r.results.questions, 9);
  const lines = readRun(r.runDir!).questions;
  assert.equal(lines.length, 9 * 4);
  assert.ok(!lines.some((l) => l.question === 'mini-03'));
  for (const c of r.results.configs) assert.equal(c.scored, 9);
});

test('a failing item is recorded as failed and left out of the means, the run goes on', async () => {
  const root = tmp('fail');
  const r = await runGrid({
    workspace: MINI, groundTruthFile: MINI_GT, settings: smallSettings({ chunkers: ['heading'] }), runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache'),
    faultInjection: { question: 'mini-04', config: 'heading/bm25/none' },
  });
  assert.equal(r.status, 'succeeded');
  const c = r.results.configs.find((x) => x.id === 'heading/bm25/none')!;
  assert.deepEqual(c.failed, ['mini-04']);
  assert.equal(c.scored, 9);
  assert.ok(r.results.errors.some((e) => e.question === 'mini-04' && e.config === 'heading/bm25/none'));
  const lines = readRun(r.runDir!).questions.filter((l) => l.config === 'heading/bm25/none');
  const failed = lines.find((l) => l.question === 'mini-04')!;
  assert.equal(failed.status, 'failed');
  assert.equal(failed['hit@5'], null);
  // The mean is over the 9 scored questions, not 10 with a zero.
  const ok = lines.filter((l) => l.status === 'ok');
  const mean = ok.reduce((s, l) => s + (l['hit@5'] ?? 0), 0) / ok.length;
  assert.equal(c.metrics['hit@5'].mean, mean);
  // Other configs are complete.
  assert.equal(r.results.configs.find((x) => x.id === 'heading/hybrid/none')!.scored, 10);
});

/** Independent recomputation: covered length of [s, e) by a union of intervals, by marking code units. */
function coveredBy(start: number, end: number, chunks: Array<{ start: number; end: number }>): number {
  const mark = new Uint8Array(end - start);
  for (const c of chunks) for (let i = Math.max(start, c.start); i < Math.min(end, c.end); i++) mark[i - start] = 1;
  return mark.reduce((s, x) => s + x, 0);
}

test('questions.jsonl coverage@5, hit@5 and rr recompute from the result lists and the ground truth', async () => {
  const root = tmp('recompute');
  const r = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings: smallSettings(), runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache') });
  const data = readRun(r.runDir!);
  const spans = new Map(data.evidence!.questions.map((q) => [q.id, q.spans]));
  assert.equal(data.questions.length, 80);
  const tau = r.results.tau;
  const hitAt = (rec: QuestionRecord, k: number) =>
    spans.get(rec.question)!.every((e) => coveredBy(e.start, e.end, rec.results.slice(0, k).filter((c) => c.source === e.source)) / (e.end - e.start) >= tau - 1e-9);
  for (const rec of data.questions) {
    assert.equal(rec.status, 'ok');
    assert.equal(rec.results.length, rec.pool.length);
    assert.deepEqual([...rec.results].map((x) => `${x.source}#${x.start}`).sort(), [...rec.pool].map((x) => `${x.source}#${x.start}`).sort(), 'results is a reordering of the pool');
    if (rec.config.endsWith('/none')) assert.deepEqual(rec.results, rec.pool);
    const ev = spans.get(rec.question)!;
    const cov = ev.reduce((s, e) => s + coveredBy(e.start, e.end, rec.results.slice(0, 5).filter((c) => c.source === e.source)) / (e.end - e.start), 0) / ev.length;
    assert.ok(Math.abs(cov - (rec['coverage@5'] as number)) < 1e-6, `${rec.question} ${rec.config} coverage`);
    assert.equal(rec['hit@5'], hitAt(rec, 5) ? 1 : 0);
    let rr = 0;
    for (let k = 1; k <= rec.results.length; k++) if (hitAt(rec, k)) { rr = 1 / k; break; }
    assert.ok(Math.abs(rr - (rec.rr as number)) < 1e-6, `${rec.question} ${rec.config} rr`);
    assert.equal(rec.cause === null, rec['hit@5'] === 1);
  }
  // The results.json aggregate is the mean of the per-question values.
  for (const c of r.results.configs) {
    const mine = data.questions.filter((q) => q.config === c.id);
    const mean = mine.reduce((s, q) => s + (q['hit@5'] as number), 0) / mine.length;
    assert.ok(Math.abs(c.metrics['hit@5'].mean - mean) < 1e-12);
    const causes = Object.values(c.causes).reduce((s, x) => s + x, 0);
    assert.equal(causes, mine.filter((q) => q['hit@5'] === 0).length);
    assert.ok(c.tauSweep['0.3'].mean >= c.tauSweep['1'].mean, 'hit@k can only fall as τ rises');
  }
});

test('a ground truth with no resolvable question runs to the end and renders (nothing scored, nothing averaged)', async () => {
  const root = tmp('allstale');
  const gt = JSON.parse(readFileSync(MINI_GT, 'utf8'));
  for (const q of gt.questions) for (const e of q.evidence) { e.exact = 'no such sentence anywhere in the corpus'; delete e.start; delete e.end; }
  const gtFile = join(root, 'gt.json');
  writeFileSync(gtFile, JSON.stringify(gt));
  const r = await runGrid({ workspace: MINI, groundTruthFile: gtFile, settings: smallSettings({ chunkers: ['heading'] }), runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache') });
  assert.equal(r.results.questions, 0);
  assert.equal(r.results.acceptance.stale.length, 10);
  assert.equal(r.ranking.length, 0);
  for (const c of r.results.configs) assert.equal(c.scored, 0);
  const data = readRun(r.runDir!);
  assert.equal(data.questions.length, 0);
  assert.match(rankingTable(buildReportModel(data)), /heading\/bm25\/none +n\/a/);
  assert.match(renderHtml(data), /stale: mini-01/);
  // The CLI (requireScorable) refuses the same ground truth with the acceptance summary instead.
  await assert.rejects(runGrid({ workspace: MINI, groundTruthFile: gtFile, settings: smallSettings({ chunkers: ['heading'] }), runsRoot: join(root, 'runs2'), cacheDir: join(root, 'cache'), requireScorable: true }), /no question can be scored: 0 of 10 questions resolved \(stale 10, ambiguous 0, rejected 0\)\. Fix: run `spanproof validate`/);
});

test('a run where every item failed ends with run.json status failed; results.json n is the scored-question count, poolSize the pool', async () => {
  const root = tmp('allfail');
  const r = await runGrid({
    workspace: MINI, groundTruthFile: MINI_GT, settings: smallSettings({ chunkers: ['heading'], retrievers: ['bm25'], rerank: [false] }), runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache'),
    questionIds: ['mini-04'], faultInjection: { question: 'mini-04', config: 'heading/bm25/none' },
  });
  assert.equal(r.status, 'failed');
  const run = JSON.parse(readFileSync(join(r.runDir!, 'run.json'), 'utf8'));
  assert.equal(run.status, 'failed');
  assert.match(run.error.message, /every one of the 1 question × config items failed/);
  assert.deepEqual(r.results.configs[0].failed, ['mini-04']);
  // SPEC §11: n with k and tau is the sample size (1 question selected), poolSize the candidate pool.
  assert.equal(r.results.n, 1);
  assert.equal(r.results.questions, 1);
  assert.equal(r.results.poolSize, 20);
  assert.equal(JSON.parse(readFileSync(join(r.runDir!, 'results.json'), 'utf8')).poolSize, 20);
});

test('requireScorable refuses a run with nothing to score before creating a run directory; the message gives the acceptance summary', async () => {
  const root = tmp('noscore');
  const base = { workspace: MINI, groundTruthFile: MINI_GT, settings: smallSettings({ chunkers: ['heading'], retrievers: ['bm25'], rerank: [false] }), runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache'), requireScorable: true };
  await assert.rejects(runGrid({ ...base, questionIds: ['nonexistent'] }), (e: Error & { code?: string }) => e.code === 'bad-input' && /no question can be scored: none of the selected ids \(nonexistent\) is a resolved question; 10 of 10 questions resolved/.test(e.message));
  const gtFile = join(root, 'empty.json');
  writeFileSync(gtFile, JSON.stringify({ ...JSON.parse(readFileSync(MINI_GT, 'utf8')), questions: [] }));
  await assert.rejects(runGrid({ ...base, groundTruthFile: gtFile }), (e: Error & { code?: string }) => e.code === 'bad-input' && /the ground truth has no questions/.test(e.message));
  assert.deepEqual(readdirSync(root).filter((d) => d === 'runs').flatMap(() => readdirSync(join(root, 'runs'))), []);
  // Cross-key settings mistakes are refused before any work too (the extension's path).
  await assert.rejects(runGrid({ ...base, settings: { ...base.settings, chunkers: ['fixed'], chunkerParams: { ...base.settings.chunkerParams, fixed: { size: 100, overlap: 200 } } } }), /settings: chunkerParams\.fixed\.overlap: /);
});
