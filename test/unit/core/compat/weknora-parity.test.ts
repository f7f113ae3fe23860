/**
 * WeKnora parity (SEED-SYSTEMS.md §A.8, W1–W8): WeKnora's value, reproduced by
 * src/core/compat/weknora-compat.ts, beside the standard value computed by our own metrics
 * (trec_eval-equal src/core/metrics/trec.ts; NLTK/rouge-score src/core/metrics/generation). The
 * expected WeKnora values are the "Observed" column of §A.8 / §A.5–A.6; the standard ones its
 * "Correct" column or a hand calculation written here. The same table is docs/weknora-parity.md.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { weknoraBleu, weknoraMap, weknoraMapRetrieved, weknoraMetrics, weknoraMrr, weknoraNdcg, weknoraPrecision, weknoraRecall, weknoraRougeL, weknoraRougeN, weknoraTokens, weknoraParityMarkdown, weknoraParityTable } from '../../../../src/core/compat';
import { evaluateQuery, rankTrec } from '../../../../src/core/metrics/trec';
import { scoreGeneration } from '../../../../src/core/metrics/generation';
import { REPO } from '../../../helpers/paths';

const close = (a: number, b: number, eps = 5e-4): void => assert.ok(Math.abs(a - b) <= eps, `${a} ≉ ${b}`);

/** Standard ID metrics of one ranked list (rank order = list order) against a binary qrels set. */
function standard(ranked: string[], relevant: string[], measures: string[]): Record<string, number> {
  const judged = new Map(relevant.map((d) => [d, 1]));
  const entries = rankTrec(ranked.map((docno, i) => ({ docno, score: ranked.length - i })));
  return evaluateQuery(judged, entries, measures);
}

test('W1: an unmatched chunk before the relevant one — WeKnora drops it (P = MRR = MAP = nDCG = 1); standard P = MRR = 0.5', () => {
  const passages = [{ pid: 3, text: 'Passage three is the relevant one.' }];
  const chunks = ['An irrelevant chunk about something else.', 'Passage three is the relevant one.'];
  const ids = weknoraMapRetrieved(chunks, passages);
  assert.deepEqual(ids, [3]);
  const w = weknoraMetrics({ gts: [[3]], ids, generated: '', reference: '' });
  assert.equal(w.precision, 1);
  assert.equal(w.mrr, 1);
  assert.equal(w.map, 1);
  assert.equal(w.ndcg3, 1);
  const s = standard(['chunk:unmatched', '3'], ['3'], ['precision@2', 'mrr', 'ap', 'ndcg@3']);
  assert.equal(s['precision@2'], 0.5);
  assert.equal(s.mrr, 0.5);
  assert.equal(s.ap, 0.5);
  close(s['ndcg@3'], 1 / Math.log2(3)); // 0.631
});

test('W2: 1 relevant retrieved of 5 relevant, k = 3 — WeKnora nDCG@3 1.0, standard 0.469', () => {
  assert.equal(weknoraNdcg([[1, 2, 3, 4, 5]], [1], 3), 1);
  const s = standard(['1', 'x', 'y'], ['1', '2', '3', '4', '5'], ['ndcg@3']);
  close(s['ndcg@3'], 1 / (1 + 1 / Math.log2(3) + 0.5)); // 0.4693
  close(s['ndcg@3'], 0.469);
});

test('W3: duplicate ids [1,1,1] vs {1} — WeKnora recall 3.0 and nDCG@3 2.13; standard (duplicates counted once) 1 and 1', () => {
  assert.equal(weknoraRecall([[1]], [1, 1, 1]), 3);
  close(weknoraNdcg([[1]], [1, 1, 1], 3), 1 + 1 / Math.log2(3) + 0.5); // 2.1309
  const s = standard(['1'], ['1'], ['recall@3', 'ndcg@3']);
  assert.equal(s['recall@3'], 1);
  assert.equal(s['ndcg@3'], 1);
});

test('W4: [1,4,2] vs {1,2,3} — WeKnora MAP 0.8333 (÷ hits), standard AP 0.5556 (÷ |rel|); unit-test case 0.8056 agrees on both', () => {
  close(weknoraMap([[1, 2, 3]], [1, 4, 2]), 0.8333);
  close(standard(['1', '4', '2'], ['1', '2', '3'], ['ap']).ap, 0.5556);
  // WeKnora's own unit test ([2,5,1,3] vs {1,2,3} → 0.8056) has hits = |G|, so both agree
  close(weknoraMap([[1, 2, 3]], [2, 5, 1, 3]), 0.8056);
  close(standard(['2', '5', '1', '3'], ['1', '2', '3'], ['ap']).ap, 0.8056);
  // precision unit test: {1,2},{3,4} and [1,3,5] → 0.3333
  close(weknoraPrecision([[1, 2], [3, 4]], [1, 3, 5]), 0.3333);
  close(weknoraMrr([[1, 2], [3, 4]], [1, 3, 5]), (1 + 0.5) / 2);
});

test('W5: 10 tokens vs 10 unrelated tokens — WeKnora BLEU-1/2/4 0.0909/0.0953/0.1060 (BLEU-4 > BLEU-1); NLTK BLEU 0', () => {
  const cand = 'alpha beta gamma delta epsilon zeta eta theta iota kappa';
  const ref = 'one two three four five six seven eight nine ten';
  close(weknoraBleu(cand, ref, [1]), 1 / 11);
  close(weknoraBleu(cand, ref, [0.5, 0.5]), 0.0953);
  close(weknoraBleu(cand, ref, [0.25, 0.25, 0.25, 0.25]), 0.1060);
  assert.ok(weknoraBleu(cand, ref, [0.25, 0.25, 0.25, 0.25]) > weknoraBleu(cand, ref, [1]));
  const ours = Object.fromEntries(scoreGeneration(cand, [ref], { metrics: ['bleu1', 'bleu2', 'bleu4', 'rouge1', 'rouge2', 'rougeL'] }).map((s) => [s.metric, s.value]));
  assert.deepEqual(ours, { bleu1: 0, bleu2: 0, bleu4: 0, rouge1: 0, rouge2: 0, rougeL: 0 });
  assert.equal(weknoraRougeN(cand, ref, 1), 0);
});

test('W6: "the cat" vs "the cat sat on the mat" — WeKnora BLEU-4 0.1353 (only BP), NLTK BLEU-4 ≈ 0', () => {
  close(weknoraBleu('the cat', 'the cat sat on the mat', [0.25, 0.25, 0.25, 0.25]), Math.exp(-2));
  const b4 = scoreGeneration('the cat', ['the cat sat on the mat'], { metrics: ['bleu4', 'bleu1'] });
  // NLTK method0 replaces the empty 3-/4-gram precisions by sys.float_info.min: BP·(min)^(1/2) = e^-2·1.49e-154 ≈ 2.0e-155
  close(b4[0].value / (Math.exp(-2) * Math.sqrt(2.2250738585072014e-308)), 1, 1e-9);
  close(b4[1].value, Math.exp(1 - 6 / 2)); // BLEU-1: p1 = 1, BP = e^-2
});

test('W7: "Hello World" vs "hello world" — WeKnora BLEU 1 but ROUGE 0 (case); ours consistent (1 and 1)', () => {
  assert.equal(weknoraBleu('Hello World', 'hello world', [1]), 1);
  assert.equal(weknoraBleu('Hello World', 'hello world', [0.25, 0.25, 0.25, 0.25]), 1);
  assert.equal(weknoraRougeN('Hello World', 'hello world', 1), 0);
  assert.equal(weknoraRougeL('Hello World', 'hello world'), 0);
  const ours = Object.fromEntries(scoreGeneration('Hello World', ['hello world'], { metrics: ['bleu1', 'rouge1', 'rougeL'] }).map((s) => [s.metric, s.value]));
  assert.deepEqual(ours, { bleu1: 1, rouge1: 1, rougeL: 1 });
  close(weknoraRougeN('hello world', 'hello world', 1), 2 / (2 + 1e-8), 1e-15); // the 1e-8 epsilon: never exactly 1
});

test('W8: WeKnora tokeniser — "café, 3.14" → caf, / 3 / 14; Cyrillic, kana and Hangul vanish; ours keeps them', () => {
  assert.deepEqual(weknoraTokens('café, 3.14'), ['caf,', '3', '14']);
  assert.deepEqual(weknoraTokens('world, hello! e.g.'), ['world,', 'hello!', 'e', 'g']);
  assert.deepEqual(weknoraTokens('Привет мир かな 한국어'), []);
  assert.deepEqual(weknoraTokens('你好，世界'), ['你好', '，', '世界']);
  const ours = scoreGeneration('café', ['cafe'], { metrics: ['f1'] });
  assert.equal(ours[0].value, 0, 'café ≠ cafe for us (Unicode-aware, no accent stripping)');
  assert.equal(weknoraBleu('café', 'caf', [1]), 1, 'WeKnora reads café as caf');
});

test('docs/weknora-parity.md holds exactly the table the code computes', () => {
  const doc = readFileSync(path.join(REPO, 'docs', 'weknora-parity.md'), 'utf8');
  const m = /<!-- parity-table:start -->\n([\s\S]*?)<!-- parity-table:end -->/.exec(doc);
  assert.ok(m, 'the page has the table markers');
  const table = weknoraParityMarkdown();
  process.stdout.write(`# WeKnora parity table (WeKnora value vs standard value)\n${table.split('\n').map((l) => `# ${l}`).join('\n')}\n`);
  assert.equal(m![1], table);
  const rows = weknoraParityTable();
  assert.equal(rows.length, 48, '4 retrieval cases × 6 + 4 generation cases × 6');
  assert.equal(new Set(rows.map((r) => r.metric)).size, 12, 'all twelve WeKnora metrics');
});
