/**
 * External retrievers scored beside the grid (issue #18): a fake retriever with known answers — a
 * python3 command speaking JSON Lines, and the same answers from a 127.0.0.1 HTTP server — gives
 * metrics computed here by hand from the ranks at which each answer puts the evidence.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runGrid } from '../../../../src/core/grid/run';
import type { QuestionRecord } from '../../../../src/core/runs';
import { FIXTURES } from '../../../helpers/paths';
import { MINI, MINI_GT, smallSettings, tmp } from '../../../helpers/grid';
import { startJsonServer } from '../../../helpers/jsonServer';

type Ev = { source: string; start: number; end: number };
const gt = JSON.parse(readFileSync(MINI_GT, 'utf8')) as { questions: Array<{ id: string; evidence: Array<Ev & { exact: string }> }> };
const ev = (id: string): Ev & { exact: string } => gt.questions.find((q) => q.id === id)!.evidence[0];
const text = (e: Ev) => readFileSync(join(MINI, e.source), 'utf8').slice(e.start, e.end);
/** A passage that touches no evidence: the first 50 code units of another document (all evidence starts at ≥ 505). */
const wrong = (n: number) => ({ source: n % 2 ? 'tutorial/body.md' : 'advanced/background-tasks.md', start: 0, end: 50 + n });
const off = (e: Ev) => ({ source: e.source, start: e.start, end: e.end });

/** The answers, and by hand: the rank of the evidence (null: never whole) and the expected cause. */
function answers(): Record<string, unknown[]> {
  const e6 = ev('mini-06');
  const garbled = [...text(ev('mini-08'))].map((c, i) => (i % 6 === 0 ? 'q' : c)).join('');
  return {
    'mini-01': [off(ev('mini-01'))], // rank 1
    'mini-02': [{ source: ev('mini-02').source, text: text(ev('mini-02')) }], // rank 1, aligned exactly
    'mini-03': [wrong(1), wrong(2), off(ev('mini-03'))], // rank 3
    'mini-04': [wrong(3), { source: ev('mini-04').source, text: text(ev('mini-04')) }], // rank 2
    'mini-05': [1, 2, 3, 4, 5, 6].map(wrong).concat([off(ev('mini-05'))]), // rank 7: ranked-too-low
    'mini-06': [{ source: e6.source, start: e6.start, end: e6.start + 31 }], // 31/63 of it: passage-split
    'mini-07': [wrong(7)], // retriever-missed
    'mini-08': [{ source: ev('mini-08').source, text: garbled }], // similarity < 0.9: not retrieved → retriever-missed
    'mini-09': [{ source: 'no/such-file.md', start: 0, end: 10 }, off(ev('mini-09'))], // unknown source holds rank 1; rank 2
    'mini-10': [{ source: ev('mini-10').source, start: 0, end: 10 ** 9 }, off(ev('mini-10'))], // bad offsets hold rank 1; rank 2
  };
}

/** By hand from the ranks above (10 questions). */
const EXPECTED = {
  'hit@1': 2 / 10, // mini-01, mini-02
  'hit@3': 6 / 10, // + mini-03 (3), mini-04 (2), mini-09 (2), mini-10 (2)
  'hit@5': 6 / 10,
  'hit@10': 7 / 10, // + mini-05 (7)
  mrr: (1 + 1 + 1 / 3 + 1 / 2 + 1 / 7 + 0 + 0 + 0 + 1 / 2 + 1 / 2) / 10,
  'coverage@5': (6 + 31 / 63) / 10, // six whole spans; mini-06 has 31 of 63 code units
};
const CAUSES = { 'ranked-too-low': 1, 'passage-split': 1, 'retriever-missed': 2 };

function checkRun(results: { configs: Array<{ id: string; metrics: Record<string, { mean: number }>; causes: Record<string, number>; external?: Record<string, unknown>; scored: number }> }, id: string): void {
  const c = results.configs.find((x) => x.id === id);
  assert.ok(c, `${id} is a config of the run`);
  assert.equal(c.scored, 10, JSON.stringify((results as { errors?: unknown }).errors));
  for (const [k, v] of Object.entries(EXPECTED)) assert.ok(Math.abs(c.metrics[k].mean - v) < 1e-12, `${k}: ${c.metrics[k].mean} ≠ ${v}`);
  for (const [cause, n] of Object.entries(CAUSES)) assert.equal(c.causes[cause], n, cause);
  assert.equal(c.causes['chunker-destroyed'] + c.causes['chunker-degraded'] + c.causes['reranker-demoted'], 0);
  const x = c.external as { returned: number; used: number; dropped: Record<string, number>; unknownSources: string[]; aligned: { count: number; minSimilarity: number }; vsBuiltIn: Array<{ config: string }> };
  assert.equal(x.returned, 1 + 1 + 3 + 2 + 7 + 1 + 1 + 1 + 2 + 2);
  assert.deepEqual(x.dropped, { 'low-similarity': 1, 'unknown-source': 1, 'bad-offsets': 1 });
  assert.equal(x.used, x.returned - 3);
  assert.deepEqual(x.unknownSources, ['no/such-file.md']);
  assert.deepEqual(x.aligned, { count: 2, minSimilarity: 1 });
  assert.deepEqual(x.vsBuiltIn.map((v) => v.config), ['heading/bm25/none'], 'paired against every built-in config');
}

test('a command retriever with known answers gives the hand-computed metrics, causes and drop report', async () => {
  const root = tmp('ext-cmd');
  const file = join(root, 'answers.json');
  writeFileSync(file, JSON.stringify(answers()));
  const script = join(FIXTURES, 'external', 'answers_retriever.py');
  const settings = smallSettings({ chunkers: ['heading'], retrievers: ['bm25'], rerank: [false], externalRetrievers: [{ name: 'mine', command: `python3 ${JSON.stringify(script)} ${JSON.stringify(file)}` }] });
  const r = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings, runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache') });
  checkRun(r.results as never, 'external/mine/none');
  assert.equal(r.verdict.questions, 10);
  assert.ok(r.ranking.some((e) => e.id === 'external/mine/none'), 'the external config is ranked with the built-in one');
  const recs = readFileSync(join(r.runDir!, 'questions.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as QuestionRecord).filter((q) => q.config === 'external/mine/none');
  const r8 = recs.find((q) => q.question === 'mini-08')!;
  const d8 = (r8.external as { dropped: Array<{ reason: string; similarity: number }> }).dropped[0];
  assert.equal(d8.reason, 'low-similarity');
  assert.ok(d8.similarity < 0.9 && d8.similarity > 0, `similarity reported: ${d8.similarity}`);
  const r5 = recs.find((q) => q.question === 'mini-05')!;
  assert.equal(r5.cause, 'ranked-too-low');
  assert.deepEqual(r5.results[6], { ...off(ev('mini-05')), score: 7 - 6 }, 'results keep the retriever order; score = N − rank when none is given');
});

test('the same answers from a 127.0.0.1 URL give the same metrics; a 503 is retried; concurrency is bounded', async () => {
  const a = answers();
  const seen = new Set<string>();
  const server = await startJsonServer((req) => {
    const id = String(req.body.id);
    if (id === 'mini-03' && !seen.has(id)) { seen.add(id); return { status: 503, headers: { 'retry-after': '0' } }; }
    return { json: { results: a[id] ?? [] }, delayMs: 20 };
  });
  try {
    const root = tmp('ext-url');
    const settings = smallSettings({ chunkers: ['heading'], retrievers: ['bm25'], rerank: [false], externalRetrievers: [{ name: 'svc', url: `${server.origin}/retrieve` }], external: { timeoutMs: 5000, totalTimeoutMs: 60000, concurrency: 2, retries: 2 } });
    const r = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings, runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache') });
    checkRun(r.results as never, 'external/svc/none');
    assert.equal(server.requests.length, 11, '10 questions + 1 retry');
    assert.ok(server.maxInFlight <= 2, `at most 2 in flight (saw ${server.maxInFlight})`);
    assert.deepEqual(server.requests[0].body.k, settings.poolSize);
  } finally {
    await server.close();
  }
});

test('a command that fails shows its stderr; one that stops answering fails the rest of its items, never scored as zero', async () => {
  const root = tmp('ext-fail');
  const base = smallSettings({ chunkers: ['heading'], retrievers: ['bm25'], rerank: [false] });
  await assert.rejects(
    runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings: { ...base, externalRetrievers: [{ name: 'boom', command: `python3 -c "import sys; sys.stderr.write('index not built\\n'); sys.exit(3)"` }] }, runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache') }),
    (e: Error) => /answered no question/.test(e.message) && /status 3/.test(e.message) && /index not built/.test(e.message),
  );
  const one = `python3 -c "import sys,json,time; r=[json.loads(l) for l in sys.stdin]; print(json.dumps({'id': r[0]['id'], 'results': []}), flush=True); time.sleep(60)"`;
  const r = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings: { ...base, externalRetrievers: [{ name: 'slow', command: one }], external: { ...base.external, timeoutMs: 8000 } }, runsRoot: join(root, 'runs2'), cacheDir: join(root, 'cache') });
  const c = r.results.configs.find((x) => x.id === 'external/slow/none')!;
  assert.equal(c.scored, 1);
  assert.equal(c.failed.length, 9);
  assert.ok(r.warnings.some((w) => /no answer within 8000 ms/.test(w)), r.warnings.join('\n'));
});
