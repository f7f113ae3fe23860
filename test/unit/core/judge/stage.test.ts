/**
 * The generation stage on a hand-built run directory (./runFixture) against the fake server:
 * answers.jsonl / ledger.json / results.json "answers" contents computed by hand, a repeated run costs
 * zero requests, same-model refusal, repeats, cancellation mid-generation, fatal endpoint errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChatClient, JUDGE_METRICS, ReplyCache, readAnswers as readAnswersData, answersMarkdown, aggregateAnswers, combineRepeats, defaultGenerateConfigs, runGenerationStage, type AnswerRecord, type AnswersSummary, type LedgerFile } from '../../../../src/core/judge';
import { isSpanproofError } from '../../../../src/core/errors';
import { ANSWERS, CONFIGS, makeRunDir } from '../../../helpers/runFixture';
import { reply, startHostileServer } from '../../../helpers/hostileServer';
import { startFakeServer } from '../../../helpers/fakeServer';
import { tempDir } from '../../../helpers/tmp';

const readAnswers = (runDir: string): AnswerRecord[] => readFileSync(join(runDir, 'answers.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const readLedger = (runDir: string): LedgerFile => JSON.parse(readFileSync(join(runDir, 'ledger.json'), 'utf8'));
const readSummary = (runDir: string): AnswersSummary => JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8')).answers;
const judge = (endpoint: string) => ({ endpoint, generatorModel: 'gen-model', judgeModel: 'judge-model' });
const score = (r: AnswerRecord, m: (typeof JUDGE_METRICS)[number]) => (r.judges[m] as { score?: number }).score;

test('generation stage writes answers, judges with reasons, unmeasured items, ledger = server log; a repeated run sends no request', async () => {
  const srv = await startFakeServer({ answers: ANSWERS });
  try {
    const { runDir, workspace } = makeRunDir();
    const r1 = await runGenerationStage(runDir, { judge: judge(srv.url), prices: { 'gen-model': { input: 1, output: 2 }, 'judge-model': { input: 0.5, output: 1 } } });
    assert.equal(r1.status, 'succeeded');
    const answers = readAnswers(runDir);
    assert.deepEqual(answers.map((a) => `${a.question} ${a.config}`), ['q1 fixed/bm25/none', 'q1 fixed/dense/none', 'q2 fixed/bm25/none', 'q2 fixed/dense/none', 'q3 fixed/bm25/none', 'q3 fixed/dense/none']);
    const [q1a, q1b, q2a, , q3a, q3b] = answers;
    assert.equal(q1a.answer, ANSWERS['What is the default port?']);
    assert.deepEqual(q1a.contexts, [{ source: 'docs/server.md', start: 0, end: 25 }], 'k = 1: the first result only');
    assert.equal(q1a['coverage@5'], 1);
    for (const a of answers) for (const m of JUDGE_METRICS) assert.ok(a.judges[m], `${a.question} ${a.config} has ${m}`);
    // Hand calculation: q1 answer has 2 claims, 1 in config A's context, 0 in config B's ("Paris…").
    assert.equal(score(q1a, 'faithfulness'), 0.5);
    assert.equal(score(q1b, 'faithfulness'), 0);
    assert.equal(score(q2a, 'faithfulness'), 1);
    assert.ok(Math.abs(score(q1a, 'answerCorrectness')! - 1.625 / 2.125) < 1e-12);
    assert.equal(score(q2a, 'answerCorrectness'), 1);
    assert.equal(score(q1a, 'booleanCorrectness'), 1);
    assert.equal(score(q1a, 'groundedness'), 4);
    assert.equal((q1a.judges.groundedness as { reason: string }).reason, 'canned grade');
    // q3 has no reference answer: the three reference metrics are unmeasured, with the reason; faithfulness is measured.
    assert.deepEqual(q3a.judges.similarity, { unmeasured: true, reason: 'no reference answer for this question in the ground truth' });
    assert.equal(score(q3a, 'faithfulness'), 1);
    assert.equal(score(q3b, 'faithfulness'), 0);

    // Ledger equals the server's own log; every call was a request or a cache hit:
    // per config: q1 13 calls (gen, 6 scale, 2 extractions, 3 verifications, boolean), q2 12 (answer = reference: 1 extraction), q3 8.
    const l1 = readLedger(runDir);
    assert.equal(l1.requests, srv.requests.length);
    assert.equal(l1.requests + l1.cachedResponses, 2 * (13 + 12 + 8));
    assert.equal(l1.byModel['gen-model'].requests + l1.byModel['gen-model'].cachedResponses, 6);
    assert.equal(l1.byModel['gen-model'].requests, srv.requests.filter((r) => r.model === 'gen-model').length);
    assert.equal(l1.promptTokens, 10 * l1.requests, 'the fake reports 10 prompt tokens per reply');
    assert.equal(l1.completionTokens, 5 * l1.requests);
    const gen = l1.byModel['gen-model'];
    const jm = l1.byModel['judge-model'];
    assert.ok(Math.abs(l1.cost! - ((gen.promptTokens * 1 + gen.completionTokens * 2) / 1e6 + (jm.promptTokens * 0.5 + jm.completionTokens * 1) / 1e6)) < 1e-15);
    assert.deepEqual([l1.status, l1.items, l1.sameModel], ['succeeded', { done: 6, total: 6 }, false]);

    // Aggregates: mean over measured only, measured/total.
    const s1 = readSummary(runDir);
    const a = s1.configs.find((c) => c.id === CONFIGS[0])!;
    assert.equal(a.metrics.faithfulness.measured, 3);
    assert.ok(Math.abs(a.metrics.faithfulness.mean! - (0.5 + 1 + 1) / 3) < 1e-6);
    assert.deepEqual([a.metrics.answerCorrectness.measured, a.metrics.answerCorrectness.total], [2, 3]);
    assert.ok(Math.abs(a.metrics.answerCorrectness.mean! - (1.625 / 2.125 + 1) / 2) < 1e-6);
    assert.equal(s1.configs.find((c) => c.id === CONFIGS[1])!.metrics.faithfulness.mean, 0);
    assert.equal(s1.correlation.y, 'answerCorrectness');
    assert.equal(a.correlation.r, null, 'coverage is 1 everywhere in config A: r undefined, written as null');
    // Pooled: pairs (1, .7647) (1, 1) (.5, .7647) (.5, 1) → r = 0.
    assert.equal(s1.correlation.pooled.n, 4);
    assert.equal(s1.correlation.pooled.r, 0);
    assert.equal(s1.generatorModel, 'gen-model');
    assert.match(s1.prompts.generate, /^generate@1#/);
    const resultsBefore = readFileSync(join(runDir, 'results.json'), 'utf8');
    // What the panel's Answers tab loads.
    const panel = readAnswersData(runDir)!;
    assert.deepEqual(panel.records, answers);
    assert.deepEqual(panel.summary, s1);
    assert.deepEqual(panel.ledger, l1);
    assert.equal(panel.questions.q2, 'Where do logs go?');
    assert.equal(readAnswersData(join(runDir, 'nope')), null);
    const md = answersMarkdown(panel).join('\n');
    assert.match(md, /\| faithfulness \| 0\.83 \[[0-9.]+, [0-9.]+\] \(3\/3\) \| 0\.00 \[0\.00, 0\.00\] \(3\/3\) \|/);
    assert.match(md, /\| similarity \| 4\.00 \[4\.00, 4\.00\] \(2\/3\)/);
    assert.doesNotMatch(md, /same model/);
    assert.equal(md.split('\n').slice(0, 2).join('|'), '|## Answers (LLM judges)', 'a blank line before the heading');
    // The unmeasured reasons the CLI prints are in the report too: q3 has no reference (3 metrics × 2 configs).
    assert.match(md, /- fixed\/bm25\/none · similarity: 1× no reference answer for this question in the ground truth/);
    // Single flight: every request the server saw is a distinct cache key (identical concurrent requests share one call).
    assert.equal(new Set(srv.requests.map((q) => JSON.stringify(q.body))).size, srv.requests.length);
    assert.ok(existsSync(join(workspace, '.spanproof', 'cache', 'judge')), 'default cache under the workspace');

    // Second run: zero requests, the same answers and the same results.json.
    const before = srv.requests.length;
    const r2 = await runGenerationStage(runDir, { judge: judge(srv.url) });
    assert.equal(srv.requests.length, before);
    const l2 = readLedger(runDir);
    assert.equal(l2.requests, 0);
    assert.equal(l2.cachedResponses, 2 * (13 + 12 + 8));
    assert.deepEqual(readAnswers(runDir), answers);
    assert.equal(readFileSync(join(runDir, 'results.json'), 'utf8'), resultsBefore, 'results.json byte-identical on a cached re-run');
    assert.equal(r2.records.length, 6);
  } finally {
    await srv.close();
  }
});

test('same model as generator and judge: refused before any request; allowed → flagged in every report', async () => {
  const srv = await startFakeServer({ answers: ANSWERS });
  try {
    const { runDir } = makeRunDir();
    await assert.rejects(runGenerationStage(runDir, { judge: { endpoint: srv.url, generatorModel: 'm', judgeModel: 'm' } }), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && e.field === 'judge.judgeModel');
    assert.equal(srv.requests.length, 0);
    assert.equal(existsSync(join(runDir, 'answers.jsonl')), false);
    await runGenerationStage(runDir, { judge: { endpoint: srv.url, generatorModel: 'm', judgeModel: 'm', allowSameModel: true }, metrics: ['relevance'], noCache: true });
    const answers = readAnswers(runDir);
    assert.equal(answers.length, 6);
    assert.ok(answers.every((a) => a.sameModel === true));
    assert.equal(readLedger(runDir).sameModel, true);
    assert.equal(readSummary(runDir).sameModel, true);
    assert.match(answersMarkdown(readAnswersData(runDir)).join('\n'), /Warning: the same model generated and judged/);
  } finally {
    await srv.close();
  }
});

test('unknown --generate-configs id is bad input naming the flag; default configs are recommended, next two, worst', () => {
  const { runDir } = makeRunDir();
  return assert.rejects(runGenerationStage(runDir, { judge: judge('http://127.0.0.1:9/v1'), configs: ['nope/x/none'] }), (e: unknown) => isSpanproofError(e) && e.field === '--generate-configs').then(() => {
    const ranking = ['a', 'b', 'c', 'd', 'e', 'f'].map((id, i) => ({ id, rank: i + 1, score: 0, pareto: false, explanation: '', latencyMs: 0, contextChars: 0, recommended: id === 'b' }));
    assert.deepEqual(defaultGenerateConfigs(ranking, null), ['b', 'a', 'c', 'f']);
    assert.deepEqual(defaultGenerateConfigs(ranking.slice(0, 2), null), ['b', 'a']);
  });
});

test('judge repeats: cache bypassed, per-item spread and agreement reported', async () => {
  // Each item's k-th repeat gets cycle[k]: the counter is per distinct request (items run concurrently).
  const seen = new Map<string, number>();
  const cycle = [3, 4, 4];
  const srv = await startFakeServer({
    answers: ANSWERS,
    scaleScore: (r) => {
      const key = JSON.stringify(r.messages);
      const k = seen.get(key) ?? 0;
      seen.set(key, k + 1);
      return cycle[k % 3];
    },
  });
  try {
    const { runDir } = makeRunDir();
    const cacheDir = tempDir('spanproof-judge-rep-');
    await runGenerationStage(runDir, { judge: judge(srv.url), metrics: ['relevance'], repeats: 3, configs: [CONFIGS[0]], cacheDir });
    const n1 = srv.requests.length;
    assert.equal(n1, 3 + 3 * 3, '3 answers + 3 repeats × 3 items');
    const a = readAnswers(runDir)[0].judges.relevance as { score: number; repeats: number[]; spread: number; agreement: number };
    assert.deepEqual(a.repeats, [3, 4, 4]);
    assert.ok(Math.abs(a.score - 11 / 3) < 1e-12);
    assert.equal(a.spread, 1);
    assert.equal(a.agreement, 0.667);
    const agg = readSummary(runDir).configs[0].metrics.relevance;
    assert.equal(agg.flaky, 3);
    assert.equal(agg.spread, 1);
    await runGenerationStage(runDir, { judge: judge(srv.url), metrics: ['relevance'], repeats: 3, configs: [CONFIGS[0]], cacheDir });
    assert.equal(srv.requests.length - n1, 9, 'answers from the cache, judges asked again');
  } finally {
    await srv.close();
  }
});

test('combineRepeats: all unmeasured stays unmeasured; a partly measured item averages the measured repeats', () => {
  assert.deepEqual(combineRepeats([{ unmeasured: true, reason: 'x' }, { unmeasured: true, reason: 'y' }]), { unmeasured: true, reason: 'x', repeats: [null, null] });
  const c = combineRepeats([{ score: 2, reason: 'a' }, { unmeasured: true, reason: 'y' }, { score: 4, reason: 'b' }]) as { score: number; spread: number; agreement: number; repeats: unknown[] };
  assert.deepEqual([c.score, c.spread, c.agreement, c.repeats], [3, 2, 0.5, [2, null, 4]]);
});

test('aggregateAnswers: Pearson r of coverage@5 vs answer correctness (hand value 0.8), unmeasured dropped', () => {
  const rec = (q: string, cov: number, sc: number | null): AnswerRecord => ({ question: q, config: 'c', answer: 'x', judges: { answerCorrectness: sc === null ? { unmeasured: true, reason: 'timeout' } : { score: sc, reason: '' } }, contexts: [], 'coverage@5': cov, generatorModel: 'g', judgeModel: 'j' });
  // x = 1,2,3,4 and y = 1,3,2,4 (scaled by 1/4): r = 0.8 (Σdxdy = 4, Σdx² = Σdy² = 5).
  const recs = [rec('a', 0.25, 0.25), rec('b', 0.5, 0.75), rec('c', 0.75, 0.5), rec('d', 1, 1), rec('e', 0.1, null)];
  const s = aggregateAnswers(recs, { questionIds: ['a', 'b', 'c', 'd', 'e'], configs: ['c'], metrics: ['answerCorrectness'], resamples: 200, seed: 1 });
  const c = s.configs[0];
  assert.ok(Math.abs(c.correlation.r! - 0.8) < 1e-12);
  assert.equal(c.correlation.n, 4);
  assert.ok(c.correlation.lo! <= 0.8 && c.correlation.hi! >= c.correlation.lo!);
  assert.deepEqual([c.metrics.answerCorrectness.measured, c.metrics.answerCorrectness.total], [4, 5]);
  assert.equal(c.metrics.answerCorrectness.mean, 0.625, 'mean of the 4 measured, the unmeasured one is not a 0');
  assert.ok(Math.abs(s.correlation.pooled.r! - 0.8) < 1e-12);
});

test('aggregateAnswers (#16): with only groundedness judged, r is against groundedness (it was r(coverage@5, faithfulness) = —, n = 0); the retrieval judge is never the answer-quality side', () => {
  const rec = (q: string, cov: number, g: number): AnswerRecord => ({ question: q, config: 'c', answer: 'x', judges: { groundedness: { score: g, reason: '' }, retrieval: { score: 6 - g, reason: '' } }, contexts: [], 'coverage@5': cov, generatorModel: 'g', judgeModel: 'j' });
  // x = 0.25, 0.5, 0.75, 1 and y = 1, 3, 2, 4 (groundedness 1–5): the same shape as the case above, r = 0.8.
  const recs = [rec('a', 0.25, 1), rec('b', 0.5, 3), rec('c', 0.75, 2), rec('d', 1, 4)];
  const only = aggregateAnswers(recs, { questionIds: ['a', 'b', 'c', 'd'], configs: ['c'], metrics: ['groundedness'], resamples: 200, seed: 1 });
  assert.equal(only.correlation.y, 'groundedness');
  assert.ok(Math.abs(only.configs[0].correlation.r! - 0.8) < 1e-12);
  assert.equal(only.correlation.pooled.n, 4);
  // retrieval judged first in the list does not take the answer side; groundedness does
  const both = aggregateAnswers(recs, { questionIds: ['a', 'b', 'c', 'd'], configs: ['c'], metrics: ['retrieval', 'groundedness'], resamples: 200, seed: 1 });
  assert.equal(both.correlation.y, 'groundedness');
  // only the retrieval judge: no answer-quality metric; y keeps its default name, r null, n 0
  const none = aggregateAnswers(recs, { questionIds: ['a', 'b', 'c', 'd'], configs: ['c'], metrics: ['retrieval'], resamples: 200, seed: 1 });
  assert.deepEqual([none.correlation.pooled.r, none.correlation.pooled.n], [null, 0]);
});

test('cancellation mid-generation leaves a consistent run: complete answers.jsonl lines, ledger = server count', async () => {
  const ac = new AbortController();
  let held = 0;
  // After 20 requests the server stops answering; once both slots hang, the user cancels.
  const srv = await startFakeServer({ answers: ANSWERS, script: (r) => (r.n > 20 ? { hang: true } : undefined) });
  try {
    const { runDir } = makeRunDir();
    const client = new ChatClient({ endpoint: srv.url, concurrency: 2, cache: new ReplyCache(tempDir('spanproof-judge-cancel-')) });
    const start = 0;
    srv.onRequest = (r) => {
      if (r.n > 20 && ++held === 2) setImmediate(() => ac.abort());
    };
    const res = await runGenerationStage(runDir, { judge: judge(srv.url), client, signal: ac.signal });
    assert.equal(res.status, 'cancelled');
    const text = readFileSync(join(runDir, 'answers.jsonl'), 'utf8');
    const lines = text.split('\n').filter(Boolean);
    assert.ok(lines.length < 6, 'stopped before the end');
    for (const l of lines) {
      const a = JSON.parse(l) as AnswerRecord;
      for (const m of JUDGE_METRICS) assert.ok(a.judges[m], 'every written line is complete');
    }
    const ledger = readLedger(runDir);
    assert.equal(ledger.status, 'cancelled');
    assert.deepEqual(ledger.items, { done: lines.length, total: 6 });
    assert.equal(ledger.requests, srv.requests.length - start, 'every request the client counted reached the server, and vice versa');
    assert.equal(readSummary(runDir).status, 'cancelled');
  } finally {
    await srv.close();
  }
});

test('fatal endpoint error (401): the loop stops, files written with status failed, bad-input thrown', async () => {
  const srv = await startFakeServer({ script: () => ({ status: 401 }) });
  try {
    const { runDir } = makeRunDir();
    await assert.rejects(runGenerationStage(runDir, { judge: judge(srv.url), noCache: true }), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && /API key/.test(e.message));
    const l = readLedger(runDir);
    assert.equal(l.status, 'failed');
    assert.equal(l.requests, srv.requests.length);
    assert.ok(srv.requests.length <= 4, 'no retries of a 401, no new items after it');
    // results.json and the report say failed with the reason, like ledger.json (not "cancelled").
    const s = readSummary(runDir);
    assert.equal(s.status, 'failed');
    assert.match(s.error!, /HTTP 401/);
    const md = answersMarkdown(readAnswersData(runDir)).join('\n');
    assert.match(md, /\*\*failed\*\*: .*HTTP 401/);
    assert.doesNotMatch(md, /cancel/);
  } finally {
    await srv.close();
  }
});

test('unreachable endpoint (closed port on 127.0.0.1): stops after the first requests\' retries, status failed, bad input naming the URL', async () => {
  const srv = await startFakeServer();
  const url = srv.url;
  await srv.close(); // the port is now closed
  const { runDir } = makeRunDir();
  await assert.rejects(runGenerationStage(runDir, { judge: { ...judge(url), retries: 1 }, noCache: true }), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && e.message.includes(`cannot reach the endpoint ${url}`) && /--endpoint/.test(e.message));
  const l = readLedger(runDir);
  assert.equal(l.status, 'failed');
  // 4 workers × (1 try + 1 retry) at most; the 6 items × 33 calls are never attempted.
  assert.ok(l.requests >= 2 && l.requests <= 8, `requests ${l.requests}`);
  assert.equal(readSummary(runDir).status, 'failed');
  assert.match(readSummary(runDir).error!, /cannot reach the endpoint/);
  assert.equal(readAnswers(runDir).length, 0);
});

test('same-model check is case-insensitive and trimmed; the fix names --allow-same-model and judge.allowSameModel', async () => {
  const { runDir } = makeRunDir();
  await assert.rejects(runGenerationStage(runDir, { judge: { endpoint: 'http://127.0.0.1:9/v1', generatorModel: 'Same-M', judgeModel: ' same-m ' } }), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && /--allow-same-model/.test(e.message) && /judge\.allowSameModel/.test(e.message));
});

test('single flight: identical requests in flight at once share one HTTP call', async () => {
  const srv = await startFakeServer({ delayMs: 50 });
  try {
    const c = new ChatClient({ endpoint: srv.url, cache: new ReplyCache(tempDir('spanproof-judge-sf-')) });
    const req = { model: 'm', messages: [{ role: 'user' as const, content: 'hello' }], promptVersion: 'p' };
    const replies = await Promise.all([c.chat(req), c.chat(req), c.chat(req), c.chat({ ...req, model: 'n' })]);
    assert.equal(srv.requests.length, 2, 'three identical requests → one call; a different model → its own');
    assert.deepEqual(replies.map((r) => r.cached), [false, true, true, false]);
    assert.equal(replies[1].content, replies[0].content);
    const l = c.ledger.snapshot({ status: 'succeeded', items: { done: 0, total: 0 }, sameModel: false });
    assert.deepEqual([l.requests, l.cachedResponses], [srv.requests.length, 2]);
  } finally {
    await srv.close();
  }
});

test('every reply too large: the "every request failed" message ends its quoted reason with one full stop, not "not read further.."', { timeout: 20000 }, async () => {
  const srv = await startHostileServer(reply('x'.repeat(5000)));
  try {
    const { runDir } = makeRunDir();
    const client = new ChatClient({ endpoint: `${srv.origin}/v1`, retries: 0, maxResponseBytes: 2000 });
    const e = await runGenerationStage(runDir, { judge: judge(`${srv.origin}/v1`), client, noCache: true }).then(() => assert.fail('resolved'), (x: unknown) => x as Error);
    assert.match(e.message, /every request to the endpoint failed .*not read further\. Fix: /);
    assert.doesNotMatch(e.message, /\.\./);
  } finally {
    await srv.close();
  }
});
