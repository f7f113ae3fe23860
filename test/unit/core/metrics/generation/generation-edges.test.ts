// Generation metrics at the edges StrykerJS found untested (#16 item 25). Expected values are hand
// calculations from the reference implementations' own code, cited in each test: NLTK
// `nltk/translate/gleu_score.py` (corpus_gleu), Python `str.split()` / `str.rstrip()`, the SQuAD
// `evaluate-v1.1.py` `normalize_answer`, memory-eval's `re.findall(r"\b\w+\b", text.lower())`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keywordSet, nltkCorpusGleu, nltkSentenceGleu, normalizeAnswer, squadCorpusScore } from '../../../../../src/core/metrics/generation';
import { pyRstrip, pySplit } from '../../../../../src/core/metrics/generation/ngrams';
import { thrown } from '../../../../helpers/thrown';

const toks = (s: string): string[] => s.split(' ');

test('GLEU: one reference list per hypothesis, or a bad-input error naming both counts', () => {
  const e = thrown(() => nltkCorpusGleu([[toks('a b')]], []));
  assert.equal(e.code, 'bad-input');
  assert.equal(e.field, 'references');
  assert.ok(e.message.includes('corpus GLEU needs one reference list per hypothesis (1 vs 0).'), e.message);
  assert.equal(e.fix, 'Give the same number of reference lists and hypotheses.');
});

test('GLEU: the best-scoring reference is used, the first one on a tie (NLTK max(key=tp/n_all))', () => {
  // hyp "a b": 1..4-grams a, b, "a b" → tpfp = 3. ref "a b": tp 3, n_all 3 → 1; ref "a x": tp 1 (a),
  // n_all max(3, 3) = 3 → 1/3. The best is 1 whichever comes first.
  assert.equal(nltkSentenceGleu([toks('a b'), toks('a x')], toks('a b')), 1);
  assert.equal(nltkSentenceGleu([toks('a x'), toks('a b')], toks('a b')), 1);
  // A tie: ref "a x" gives (1, 3); ref "a z b" has 3 + 2 + 1 = 6 n-grams, matches a and b → (2, 6).
  // Both are 1/3; NLTK's max keeps the first, (1, 3). With a second sentence "c" vs "c" (1, 1) the
  // corpus score shows which one was kept: (1 + 1) / (3 + 1) = 1/2, not (2 + 1) / (6 + 1) = 3/7.
  assert.equal(nltkCorpusGleu([[toks('a x'), toks('a z b')], [['c']]], [toks('a b'), ['c']]), 1 / 2);
});

test('GLEU: nothing to count is 0, not 0/0, and a reference with no n-grams is skipped', () => {
  // empty hypothesis and reference: n_all = 0 for the only reference, no hyp_counts → corpus_n_all = 0 → 0.0
  assert.equal(nltkSentenceGleu([[]], []), 0);
  assert.equal(nltkCorpusGleu([[]], [toks('a b')]), 0); // no reference at all for the sentence
  // sentence 1: empty hypothesis; ref [] has n_all 0 (skipped), ref "a" n_all max(0, 1) = 1, tp 0 → (0, 1);
  // sentence 2: "c" vs "c" → (1, 1). Corpus (0 + 1) / (1 + 1) = 1/2.
  assert.equal(nltkCorpusGleu([[[], ['a']], [['c']]], [[], ['c']]), 1 / 2);
});

test('n-grams are token tuples: "ab c" and "a bc" share no bigram', () => {
  // NLTK compares tuples ('ab', 'c') ≠ ('a', 'bc'); unigrams differ too → 0 matches of 3 n-grams each.
  assert.equal(nltkSentenceGleu([['a', 'bc']], ['ab', 'c']), 0);
});

test('Python str.split() and str.rstrip() whitespace: \\v is whitespace, V is not', () => {
  assert.deepEqual(pySplit('aVb\vc'), ['aVb', 'c']); // 'aVb\x0bc'.split() == ['aVb', 'c']
  assert.deepEqual(pySplit(' a\u3000\u3000b\x1c'), ['a', 'b']);
  assert.equal(pyRstrip('a b \t\n'), 'a b'); // every trailing whitespace character, not only the last
  assert.equal(pyRstrip('a\v'), 'a');
  assert.equal(pyRstrip('aV'), 'aV');
  assert.equal(pyRstrip(' a'), ' a');
});

test('keyword sets: lowercased word segments longer than one character, or one CJK character', () => {
  // ICU segments each of 水 (Han), ね (Hiragana), カ (Katakana), 한 (Hangul) as a one-character word;
  // the one-letter Latin words x and y are dropped; the two-space run and "!!" are not word-like.
  assert.deepEqual([...keywordSet('x 水 ね カ 한 y')], ['水', 'ね', 'カ', '한']);
  assert.deepEqual([...keywordSet('Hello  World!!')], ['hello', 'world']);
  // memory-eval: re.findall(r"\b\w+\b", "hello, world x 42") → hello, world, x, 42; len > 1 drops x.
  assert.deepEqual([...keywordSet('Hello, World x 42', 'memory-eval')], ['hello', 'world', '42']);
  assert.deepEqual([...keywordSet('!!! ?', 'memory-eval')], []);
});

test('SQuAD: an article between non-ASCII punctuation becomes a space (re.sub(..., " ", text))', () => {
  // ’ is not in string.punctuation, so it stays; \b(the)\b matches between the two ’ → "x’ ’y".
  assert.equal(normalizeAnswer('x’the’y'), 'x’ ’y');
});

test('SQuAD corpus score: a prediction without gold answers scores 0, 0 and counts in the mean', () => {
  const s = squadCorpusScore(['x', 'stryker was here'], [['x']]);
  assert.deepEqual(s.perItem, [{ f1: 1, em: 1 }, { f1: 0, em: 0 }]);
  assert.equal(s.f1, 1 / 2);
  assert.equal(s.em, 1 / 2);
});
