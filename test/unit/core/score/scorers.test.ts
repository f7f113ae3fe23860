/**
 * `score` back ends: memory-eval (keyword accuracy from confusion counts, CJK segmented — the
 * original scores 0 on its own Chinese data, SEED-SYSTEMS.md §C L1), Azure single-turn /
 * conversation JSONL and RAGAS answers with generation metrics and bootstrap CIs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { readAzureJsonl, readMemoryEval, readRagasAnswers, scoreAnswers, scoreMemoryEval } from '../../../../src/core/score';
import { isSpanproofError } from '../../../../src/core/errors';
import { tempDir } from '../../../helpers/tmp';
import { REPO } from '../../../helpers/paths';

const FIX = path.join(REPO, 'test', 'fixtures', 'interop', 'luochuan');

for (const [where, dir] of [['fixture', FIX]] as const) {
  test(`memory-eval on LuochuanAD's own data (${where}): original tokeniser reproduces L1 (all 0); segmented keywords do not`, () => {
    const trueItems = readMemoryEval(path.join(dir, 'evaluation_samples_true.json'));
    const falseItems = readMemoryEval(path.join(dir, 'evaluation_samples_false.json'));
    assert.equal(trueItems.length, 8);
    // the original: hit rate 0 for 7 of 8 and 0.25 for one; coverage 0 everywhere; true file accuracy 0; false file accuracy 1
    const origT = scoreMemoryEval('true', trueItems, { tokenizer: 'memory-eval', label: 1 });
    assert.deepEqual(origT.perItem.map((p) => p.hitRate).sort(), [0, 0, 0, 0, 0, 0, 0, 0.25]);
    assert.equal(origT.coverage.mean, 0);
    assert.equal(origT.accuracy.value, 0);
    const origF = scoreMemoryEval('false', falseItems, { tokenizer: 'memory-eval', label: 0 });
    assert.equal(origF.accuracy.value, 1, 'an evaluator that never says "correct" is perfect on the false file (L2)');
    assert.equal(origF.coverage.mean, 0);
    // ours: Chinese segmented — every true-file item shares keywords with its reference and its context
    const ours = scoreMemoryEval('true', trueItems, { label: 1 });
    assert.ok(ours.perItem.every((p) => p.hitRate > 0.25), `hit rates ${ours.perItem.map((p) => p.hitRate.toFixed(2))}`);
    assert.ok(ours.perItem.every((p) => p.coverage > 0));
    assert.ok(ours.hitRate.mean > 0.45 && ours.hitRate.mean < 0.55, `mean hit rate ${ours.hitRate.mean}`);
    assert.ok(ours.coverage.mean > 0.6);
    // the paraphrases share about half of the reference keywords: at the original threshold 0.7 none counts as correct
    assert.deepEqual(ours.confusion, { tp: 0, tn: 0, fp: 0, fn: 8 });
    assert.equal(ours.precision.value, null, 'TP+FP = 0 → undefined, not 0');
    // the false file: its references are wrong statements; segmented keywords give TN 7, FP 1
    const oursF = scoreMemoryEval('false', falseItems, { label: 0 });
    assert.deepEqual(oursF.confusion, { tp: 0, tn: 7, fp: 1, fn: 0 });
    assert.equal(oursF.accuracy.value, 7 / 8);
    assert.equal(oursF.recall.value, null);
  });
}

test('memory-eval: per-item labels give real precision/recall/F1; latency fields averaged; bad items name index and field', () => {
  const dir = tempDir('spanproof-mem-');
  const f = path.join(dir, 'm.json');
  writeFileSync(f, JSON.stringify([
    { query: 'q', context: ['alpha beta gamma'], generated_answer: 'alpha beta gamma delta', reference_answer: 'alpha beta gamma', label: true, latency_ms: 100 },
    { query: 'q', context: [], generated_answer: 'alpha beta gamma', reference_answer: 'alpha beta gamma', label: false, latency_ms: 300 },
    { query: 'q', context: [], generated_answer: 'zeta', reference_answer: 'alpha beta gamma', label: true },
    { query: 'q', context: [], generated_answer: 'zeta', reference_answer: 'alpha beta gamma', label: false },
  ]));
  const r = scoreMemoryEval(f, readMemoryEval(f));
  assert.deepEqual(r.confusion, { tp: 1, tn: 1, fp: 1, fn: 1 });
  assert.equal(r.accuracy.value, 0.5);
  assert.equal(r.precision.value, 0.5);
  assert.equal(r.recall.value, 0.5);
  assert.equal(r.f1.value, 0.5);
  assert.equal(r.perItem[0].coverage, 1);
  assert.equal(r.latency.latencyMs, 200);
  assert.equal(r.latency.measured, 2);
  writeFileSync(f, JSON.stringify([{ query: 'q', context: [], generated_answer: 'a' }]));
  assert.throws(() => readMemoryEval(f), (e: unknown) => isSpanproofError(e) && /\[0\]\.reference_answer/.test(e.message) && /Fix:/.test(e.message));
  rmSync(dir, { recursive: true, force: true });
});

test('azure JSONL: single-turn and conversation lines scored; bad lines rejected with line numbers; no reference → unmeasured', async () => {
  const dir = tempDir('spanproof-azure-');
  const f = path.join(dir, 'a.jsonl');
  writeFileSync(f, [
    JSON.stringify({ query: 'Capital of France?', context: 'Paris is the capital.', response: 'Paris', ground_truth: 'Paris' }),
    JSON.stringify({ query: 'Largest planet?', response: 'Saturn', ground_truth: 'Jupiter' }),
    '{"query": "broken"',
    JSON.stringify({ messages: [{ role: 'user', content: 'Hi, who wrote Hamlet?' }, { role: 'assistant', content: 'William Shakespeare', context: 'Hamlet is by Shakespeare.', ground_truth: 'Shakespeare' }, { role: 'user', content: 'And Faust?' }, { role: 'assistant', content: 'Goethe' }] }),
    JSON.stringify({ query: 'no response here' }),
  ].join('\n'));
  const read = readAzureJsonl(f);
  assert.equal(read.rowsRead, 5);
  assert.deepEqual(read.rejected.map((r) => r.row), [3, 5]);
  assert.deepEqual(read.items.map((i) => i.id), ['line 1', 'line 2', 'line 4, turn 1', 'line 4, turn 2']);
  const r = await scoreAnswers('azure', f, read, { metrics: ['em', 'f1'], resamples: 200 });
  assert.deepEqual(r.perItem.map((p) => p.scores.em), [1, 0, 0, { unmeasured: true, reason: 'no reference answer' }]);
  assert.equal(r.perItem[2].scores.f1, 2 / 3, '"william shakespeare" vs "shakespeare": P 1/2, R 1 → F1 2/3');
  assert.equal(r.aggregate.em.measured, 3);
  assert.equal(r.aggregate.em.total, 4);
  assert.equal(r.aggregate.em.mean, 1 / 3);
  assert.ok(r.aggregate.f1.lo <= r.aggregate.f1.mean && r.aggregate.f1.mean <= r.aggregate.f1.hi);
  await assert.rejects(scoreAnswers('azure', f, read, { metrics: ['nope' as 'em'] }), (e: unknown) => isSpanproofError(e) && /--metrics/.test(e.message));
  rmSync(dir, { recursive: true, force: true });
});

test('ragas answers: rows without "response" are rejected with the reason; others scored', async () => {
  const dir = tempDir('spanproof-ragas-');
  const f = path.join(dir, 'r.jsonl');
  writeFileSync(f, [
    JSON.stringify({ user_input: 'q1', reference: 'the cat sat on the mat', response: 'the cat sat on the mat', reference_contexts: [] }),
    JSON.stringify({ user_input: 'q2', reference: 'x', reference_contexts: ['c'] }),
  ].join('\n'));
  const read = readRagasAnswers(f);
  assert.equal(read.items.length, 1);
  assert.match(read.rejected[0].reason, /no "response"/);
  const r = await scoreAnswers('ragas', f, read, { metrics: ['bleu4', 'rougeL'], resamples: 100 });
  assert.equal(r.aggregate.bleu4.mean, 1);
  assert.equal(r.aggregate.rougeL.mean, 1);
  rmSync(dir, { recursive: true, force: true });
});

test('score --compat weknora: WeKnora\'s generation numbers beside ours (W5 disjoint texts, W7 case)', async () => {
  const dir = tempDir('spanproof-compat-');
  const f = path.join(dir, 'a.jsonl');
  writeFileSync(f, [
    JSON.stringify({ query: 'q', response: 'alpha beta gamma delta epsilon zeta eta theta iota kappa', ground_truth: 'one two three four five six seven eight nine ten' }),
    JSON.stringify({ query: 'q', response: 'Hello World', ground_truth: 'hello world' }),
  ].join('\n'));
  const r = await scoreAnswers('azure', f, readAzureJsonl(f), { metrics: ['bleu1', 'rouge1'], compat: 'weknora', resamples: 100 });
  assert.deepEqual(r.perItem.map((p) => p.scores.bleu1), [0, 1]);
  assert.deepEqual(r.perItem.map((p) => p.scores.rouge1), [0, 1]);
  assert.ok(Math.abs((r.perItem[0].scores['weknora.bleu1'] as number) - 1 / 11) < 1e-12, 'add-one smoothed unigram precision 1/11');
  assert.equal(r.perItem[1].scores['weknora.bleu1'], 1);
  assert.equal(r.perItem[1].scores['weknora.rouge1'], 0);
  assert.equal(r.aggregate['weknora.bleu4'].measured, 2);
  rmSync(dir, { recursive: true, force: true });
});
