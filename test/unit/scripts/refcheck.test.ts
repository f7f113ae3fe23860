// The reference-case checker on the shipped copies of the reference files (byte-for-byte copies of
// ../shared/reference/metrics, test/fixtures/metrics/SOURCE.md — so the check runs without ../shared).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_FIXTURES, runRefcheck, summaryLine } from '../../../scripts/refcheck';
import { tempDir } from '../../helpers/tmp';

test('refcheck: every shipped reference case passes, none unsupported', () => {
  const s = runRefcheck(DEFAULT_FIXTURES);
  const bad = s.results.filter((r) => r.status !== 'passed').map((r) => `${r.id}: ${r.messages.join('; ')}`);
  assert.deepEqual(bad, []);
  assert.ok(s.passed >= 92, summaryLine(s));
  assert.equal(s.results.filter((r) => r.kind === 'retrieval').length >= 15, true);
});

test('refcheck: a wrong expected value fails, an unknown metric is unsupported, file cases resolve relative paths', () => {
  const dir = tempDir('refcheck-');
  writeFileSync(join(dir, 'q.txt'), 'q1 0 a 1\nq1 0 b 0\n');
  writeFileSync(join(dir, 'r.txt'), 'q1 Q0 b 1 2.0 t\nq1 Q0 a 2 1.0 t\n');
  const f = join(dir, 'cases.json');
  writeFileSync(f, JSON.stringify({ cases: [
    { id: 'file_ok', qrels_file: 'q.txt', run_file: 'r.txt', expected: { q1: { 'precision@1': 0, mrr: 0.5 }, mean: { num_q: 1 } } },
    { id: 'file_wrong', qrels_file: 'q.txt', run_file: 'r.txt', expected: { q1: { mrr: 1 } } },
    { id: 'dup_error', qrels: { q1: { a: 1 } }, run: { q1: [['a', 1], ['a', 2]] }, expected_error: 'duplicate docno' },
    { id: 'bertscore', metric: 'bertscore', level: 'sentence', params: {}, hypothesis: 'x', references: ['y'], expected: 0.5, tolerance: 0.1 },
  ] }));
  const s = runRefcheck([f]);
  const by = Object.fromEntries(s.results.map((r) => [r.id, r.status]));
  assert.deepEqual(by, { file_ok: 'passed', file_wrong: 'failed', dup_error: 'passed', bertscore: 'unsupported' });
  assert.equal(summaryLine(s), 'reference cases: 2 passed, 1 failed, 1 unsupported');
});

// #16 item 21: the case's scale and a mean of sentence scores are read from the case itself.
// Inputs: NLTK's bleu_score.corpus_bleu and gleu_score.corpus_gleu docstring examples (the
// nltk_corpus_bleu4 / gleu_corpus cases of generation_cases.json). Expected values are the doctests'
// (ELLIPSIS, 4 decimals): corpus_bleu 0.5920…, the mean of sentence_bleu 0.6223…; corpus_gleu 0.5673…,
// the mean of sentence_gleu with only ref1a for hyp1 0.6144….
function docCase(id: string) {
  const cases = JSON.parse(readFileSync(DEFAULT_FIXTURES[1], 'utf8')) as Array<Record<string, unknown>>;
  const c = cases.find((x) => x.id === id);
  if (!c) throw new Error(`no case ${id} in ${DEFAULT_FIXTURES[1]}`);
  return structuredClone(c);
}

test('refcheck: mean of sentence BLEU/GLEU (level, params.aggregate, or expected keys) is not corpus BLEU/GLEU', () => {
  const bleu = docCase('nltk_corpus_bleu4');
  const gleu = docCase('gleu_corpus');
  const refs = gleu.references as string[][][];
  const dir = tempDir('refcheck-mean-');
  const f = join(dir, 'cases.json');
  writeFileSync(f, JSON.stringify({ cases: [
    { ...bleu, id: 'bleu_mean_level', level: 'mean_of_sentences', expected: 0.6223, tolerance: 1e-4 },
    { ...bleu, id: 'bleu_mean_param', level: 'corpus', params: { ...(bleu.params as object), aggregate: 'mean' }, expected: 0.6223, tolerance: 1e-4 },
    { ...bleu, id: 'bleu_both_keys', level: 'corpus', expected: { corpus_bleu: 0.5920, avg_sent_bleu: 0.6223 }, tolerance: 1e-4 },
    { ...bleu, id: 'bleu_mean_is_not_corpus', level: 'mean_of_sentences', expected: 0.5920, tolerance: 1e-4 },
    { ...gleu, id: 'gleu_mean', level: 'sentence_mean', references: [[refs[0][0]], refs[1]], expected: 0.6144, tolerance: 1e-4 },
    { ...gleu, id: 'gleu_corpus_again', expected: 0.5673, tolerance: 1e-4 },
  ] }));
  const by = Object.fromEntries(runRefcheck([f]).results.map((r) => [r.id, `${r.status}${r.status === 'passed' ? '' : `: ${r.messages.join('; ')}`}`]));
  assert.equal(by.bleu_mean_level, 'passed');
  assert.equal(by.bleu_mean_param, 'passed');
  assert.equal(by.bleu_both_keys, 'passed');
  assert.match(by.bleu_mean_is_not_corpus, /^failed/);
  assert.equal(by.gleu_mean, 'passed');
  assert.equal(by.gleu_corpus_again, 'passed');
});

test('refcheck: a case on 0–100 (params.scale or "(x100)" in impl) is compared ×100 for any implementation; an unreadable scale is unsupported', () => {
  const rouge = docCase('rouge2_basic'); // rouge2 of the basic case: P 1, R 0.5, F 0.6666… (0–1)
  const bleu = docCase('nltk_corpus_bleu4');
  const sacre = docCase('sacrebleu_corpus_tok_none'); // 49.1919566 on 0–100
  const dir = tempDir('refcheck-scale-');
  const f = join(dir, 'cases.json');
  writeFileSync(f, JSON.stringify({ cases: [
    { ...rouge, id: 'rouge_x100_impl', params: { ...(rouge.params as object), impl: 'rouge_score.RougeScorer (x100)' }, expected: { rouge2: { precision: 100, recall: 50, fmeasure: 66.66666666666666 } }, tolerance: 1e-5 },
    { ...rouge, id: 'rouge_0_100_param', params: { ...(rouge.params as object), scale: '0-100' }, expected: { rouge2: { fmeasure: 66.66666666666666 } }, tolerance: 1e-5 },
    { ...bleu, id: 'nltk_bleu_0_100', params: { ...(bleu.params as object), scale: '0-100' }, expected: 59.20, tolerance: 1e-2 },
    { ...bleu, id: 'nltk_bleu_0_1_stays', params: { ...(bleu.params as object), scale: '0-1' }, expected: 0.5920, tolerance: 1e-4 },
    { ...sacre, id: 'sacre_on_0_1', params: { ...(sacre.params as object), scale: '0-1' }, expected: 0.491919566, tolerance: 1e-8 },
    { ...rouge, id: 'rouge_bad_scale', params: { ...(rouge.params as object), scale: 'logits' } },
  ] }));
  const by = Object.fromEntries(runRefcheck([f]).results.map((r) => [r.id, `${r.status}${r.status === 'passed' ? '' : `: ${r.messages.join('; ')}`}`]));
  assert.equal(by.rouge_x100_impl, 'passed');
  assert.equal(by.rouge_0_100_param, 'passed');
  assert.equal(by.nltk_bleu_0_100, 'passed');
  assert.equal(by.nltk_bleu_0_1_stays, 'passed');
  assert.equal(by.sacre_on_0_1, 'passed');
  assert.match(by.rouge_bad_scale, /^unsupported: scale "logits" not understood/);
});
