// Generation metrics at the edges StrykerJS found untested (#16 item 25). Expected values are hand
// calculations from the reference implementations' own code, cited in each test: NLTK
// `nltk/translate/gleu_score.py` (corpus_gleu), Python `str.split()` / `str.rstrip()`, the SQuAD
// `evaluate-v1.1.py` `normalize_answer`, memory-eval's `re.findall(r"\b\w+\b", text.lower())`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  fsum, keywordSet, meteorScore, rougeScore, rougeScoreMulti, rougeTokenize, scoreGeneration, singleMeteorScore, nltkBrevityPenalty, nltkClosestRefLength, nltkCorpusBleu, nltkCorpusGleu, nltkSentenceBleu, nltkSentenceGleu, normalizeAnswer,
  sacreComputeBleu, sacreCorpusBleu, sacreSentenceBleu, sacreTokenize, squadCorpusScore, tokenize13a, tokenizeIntl,
  type GenerationMetric, type GenerationScore, type GenerationScoreOptions, type NltkSmoothingMethod, type SacreSmoothing, type SacreTokenizer,
} from '../../../../../src/core/metrics/generation';
import { pyRstrip, pySplit } from '../../../../../src/core/metrics/generation/ngrams';
import { thrown } from '../../../../helpers/thrown';

const toks = (s: string): string[] => s.split(' ');
const close = (a: number, b: number, tol = 1e-12): void => assert.ok(Math.abs(a - b) <= tol, `${a} != ${b}`);
/** `f` throws a bad-input SpanproofError naming `field`, with `message` in its text and `fix`. */
function badInput(f: () => unknown, field: string, message: string, fix: string): void {
  const e = thrown(f);
  assert.equal(e.code, 'bad-input');
  assert.equal(e.field, field);
  assert.ok(e.message.includes(message), e.message);
  assert.equal(e.fix, fix);
}

test('GLEU: one reference list per hypothesis, or a bad-input error naming both counts', () => {
  badInput(() => nltkCorpusGleu([[toks('a b')]], []), 'references', 'corpus GLEU needs one reference list per hypothesis (1 vs 0).', 'Give the same number of reference lists and hypotheses.');
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

// ---- NLTK BLEU (nltk/translate/bleu_score.py) and sacreBLEU (sacrebleu/metrics/bleu.py, tokenizers/)

test('fsum is correctly rounded: CPython test_math testFsum vectors (each checked with python3 math.fsum)', () => {
  const cases: Array<[number[], number]> = [
    [[], 0],
    [[0], 0],
    [[1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50], 1e-100],
    [[2 ** 53, -0.5, -(2 ** -54)], 2 ** 53 - 1],
    [[2 ** 53, 1.0, 2 ** -100], 2 ** 53 + 2],
    [[2 ** 53 + 10, 1.0, 2 ** -100], 2 ** 53 + 12],
    [[2 ** 53 - 4, 0.5, 2 ** -54], 2 ** 53 - 3],
    [Array.from({ length: 1000 }, (_, i) => 1 / (i + 1)), 7.485470860550345], // float.fromhex('0x1.df11f45f4e61ap+2')
    [Array.from({ length: 1000 }, (_, i) => (-1) ** (i + 1) / (i + 1)), -0.6926474305598203], // '-0x1.62a2af1bd3624p-1'
    [[1e16, 1, 1e-16], 10000000000000002],
    [[1e16 - 2, 1 - 2 ** -53, -(1e16 - 2), -(1 - 2 ** -53)], 0],
    [[...Array.from({ length: 1023 }, (_, j) => { const n = -1074 + 2 * j; return 2 ** n - 2 ** (n + 50) + 2 ** (n + 52); }), -(2 ** 1022)], 1.3305602063564798e292], // '0x1.5555555555555p+970'
    [new Array(10).fill(0.1), 1],
  ];
  for (const [xs, want] of cases) assert.equal(fsum(xs), want, `fsum of ${xs.length} values`);
});

test('NLTK closest_ref_length: min over (|r − c|, r), i.e. the nearest, the shorter on a tie, in any order', () => {
  assert.equal(nltkClosestRefLength([[...'abc'], [...'abcdefghijkl']], 10), 12); // |12 − 10| = 2 < 7
  assert.equal(nltkClosestRefLength([[...'abcdefghijkl'], [...'abc']], 10), 12);
  assert.equal(nltkClosestRefLength([[...'abcdefghi'], [...'abcdefghijk']], 10), 9); // tie 1 = 1 → 9
  assert.equal(nltkClosestRefLength([[...'abcdefghijk'], [...'abcdefghi']], 10), 9);
  assert.equal(nltkClosestRefLength([[...'abcdefghij'], [...'abc']], 10), 10); // exact length, a shorter one is farther
  assert.equal(nltkClosestRefLength([[], ['a', 'b']], 0), 0); // an empty reference is the closest to an empty hypothesis
});

test('NLTK brevity penalty and the no-unigram-match case are exactly 0 (not 0/0 or float_info.min)', () => {
  assert.equal(nltkBrevityPenalty(0, 0), 0); // c == 0 → 0 (checked after c > r)
  // no unigram match: corpus_bleu returns 0 before smoothing (a method0 BLEU would be ≈ 2.2e-308)
  assert.equal(nltkSentenceBleu([toks('a b')], toks('c d')), 0);
});

test('NLTK BLEU input errors name the sentence, the field and the fix', () => {
  badInput(() => nltkCorpusBleu([[toks('a')]], []), 'references', 'corpus BLEU needs one reference list per hypothesis (1 vs 0).', 'Give the same number of reference lists and hypotheses.');
  badInput(() => nltkCorpusBleu([[toks('a')], []], [toks('a'), toks('b')]), 'references[1]', 'Hypothesis 1 has no reference (NLTK raises ValueError).', 'Give at least one reference per hypothesis.');
  badInput(() => nltkSentenceBleu([toks('a b'), 'a b' as unknown as string[]], toks('a b')), 'hypotheses[0]', 'NLTK BLEU expects tokenised input (arrays of tokens) for sentence 0.', 'Split hypotheses and references into tokens first, or use sacreBLEU for detokenised strings.');
  badInput(() => nltkSentenceBleu([toks('a b')], toks('a b'), { smoothing: 8 as NltkSmoothingMethod }), 'smoothing', 'Unknown NLTK smoothing method 8.', 'Use 0–7.');
  // method6 asserts p_n[2]: "a b" has no trigram at all
  badInput(() => nltkSentenceBleu([toks('a b')], toks('a b'), { smoothing: 6 }), 'smoothing', 'NLTK smoothing method6 requires a non-zero trigram precision (NLTK asserts p_n[2]).', 'Use another smoothing method for this hypothesis, or weights of at least 3 orders with a trigram match.');
  assert.equal(thrown(() => nltkSentenceBleu([toks('a b c')], toks('a b c'), { weights: [0.5, 0.5], smoothing: 6 })).field, 'smoothing'); // only 2 orders
  // three orders are enough: p = (1, 1, 1); p3 = (m + α·p2²/p1) / (l + α) = (1 + 5) / (1 + 5) = 1 → BLEU 1
  assert.equal(nltkSentenceBleu([toks('a b c')], toks('a b c'), { weights: [1 / 3, 1 / 3, 1 / 3], smoothing: 6 }), 1);
});

test('NLTK smoothing method5 on an identical 5-token sentence, and method4 leaving a zero when hyp_len = 1', () => {
  // p1..p4 = 1 and the extra p5 = 1/1. method5: m[-1] = p1 + 1 = 2; p_i = (m[i−1] + p_i + p_{i+1}) / 3:
  // 4/3, 10/9, 28/27, 82/81. BP = 1; BLEU = (4/3 · 10/9 · 28/27 · 82/81)^(1/4).
  const s = toks('a b c d e');
  close(nltkSentenceBleu([s], s, { smoothing: 5 }), Math.pow((4 / 3) * (10 / 9) * (28 / 27) * (82 / 81), 0.25));
  // method4 only smooths when hyp_len > 1; "a" vs "a": p1 = 1/1, p2..p4 = 0/1 stay 0 and are left out
  // of the sum (p_i > 0), so BLEU = exp(¼·log 1) = 1.
  assert.equal(nltkSentenceBleu([['a']], ['a'], { smoothing: 4 }), 1);
});

test('NLTK auto_reweigh: uniform 1/c weights when the corpus hypothesis length c < 4 and the weights are the default', () => {
  // sentences ("a b" vs "a b") and ("c" vs "d"); modified_precision's denominator is max(1, count) per
  // sentence: p1 = (2 + 0)/(2 + 1) = 2/3, p2 = (1 + 0)/(1 + 1) = 1/2, p3 = p4 = 0/2 → method1 0.1/2 = 0.05.
  // c = 3 → weights (1/3, 1/3, 1/3); BP = 1 (r = 2 + 1). BLEU = (2/3 · 1/2 · 0.05)^(1/3) = (1/60)^(1/3).
  const refs = [[toks('a b')], [['d']]];
  const hyps = [toks('a b'), ['c']];
  close(nltkCorpusBleu(refs, hyps, { autoReweigh: true, smoothing: 1 }), Math.exp((Math.log(2 / 3) + Math.log(1 / 2) + Math.log(0.05)) / 3));
  // not the default weights → not reweighed
  close(nltkCorpusBleu(refs, hyps, { autoReweigh: true, smoothing: 1, weights: [0.25, 0.25, 0.25, 0.3] }),
    Math.exp(0.25 * (Math.log(2 / 3) + Math.log(1 / 2) + Math.log(0.05)) + 0.3 * Math.log(0.05)));
  // c = 5 is not < 4: "a b c d e" vs "a b c d x" keeps (¼ ×4): p = 4/5, 3/4, 2/3, 1/2 → (1/5)^(1/4)
  close(nltkSentenceBleu([toks('a b c d x')], toks('a b c d e'), { autoReweigh: true }), Math.pow(1 / 5, 0.25));
  // weights of another length are never reweighed: (¼, ¼) on "a b c" vs "a b x": p1 = 2/3, p2 = 1/2
  close(nltkSentenceBleu([toks('a b x')], toks('a b c'), { autoReweigh: true, weights: [0.25, 0.25] }), Math.exp(0.25 * (Math.log(2 / 3) + Math.log(1 / 2))));
  // c = 3 but autoReweigh off: the default weights
  close(nltkCorpusBleu(refs, hyps, { smoothing: 1 }), Math.exp(0.25 * (Math.log(2 / 3) + Math.log(1 / 2) + 2 * Math.log(0.05))));
});

test('sacreBLEU 13a: <skipped>, "-\\n" joins, newlines are blanks, the four entities', () => {
  assert.equal(tokenize13a('a<skipped>b'), 'ab');
  assert.equal(tokenize13a('well-\nknown\nx'), 'wellknown x');
  assert.equal(tokenize13a('&quot;x&quot; &lt;y&gt; &amp;'), '" x " < y > &');
  // intl: punctuation split unless between digits; symbols always
  assert.equal(tokenizeIntl('a,b 3.5 x.'), 'a , b 3.5 x .');
  assert.equal(tokenizeIntl('1,a a,1'), '1 , a a , 1');
});

test('sacreBLEU errors name the field and the fix', () => {
  badInput(() => sacreTokenize('x', 'moses' as SacreTokenizer), 'tokenize', 'Unknown sacreBLEU tokenizer "moses".', 'Use 13a, intl, char or none.');
  badInput(() => sacreComputeBleu([1], [1], 1, 1, { smoothMethod: 'zz' as SacreSmoothing }), 'smooth_method', 'Unknown sacreBLEU smoothing "zz".', 'Use exp, floor, add-k or none.');
  badInput(() => sacreCorpusBleu(['a'], []), 'references', 'sacreBLEU needs one reference list per hypothesis (0 vs 1).', 'Give the same number of reference lists and hypotheses.');
  badInput(() => sacreCorpusBleu(['a', 'b'], [['a'], []]), 'references[1]', 'Hypothesis 1 has no reference.', 'Give at least one reference per hypothesis.');
});

test('sacreBLEU compute_bleu: no match at all is 0 with any smoothing; my_log(0); effective order; none ignores a smooth value', () => {
  const zero = sacreComputeBleu([0, 0, 0, 0], [3, 2, 1, 1], 3, 3, { smoothMethod: 'exp' });
  assert.equal(zero.score, 0); // sacreBLEU #141
  assert.deepEqual(zero.precisions, [0, 0, 0, 0]);
  // 'none' with an unmatched order: precision 0 → my_log(0) = −9999999999 → exp(≈ −7.5e9) = 0
  const none = sacreComputeBleu([1, 0, 0, 0], [2, 1, 1, 1], 2, 2, { smoothMethod: 'none', smoothValue: 0.5 });
  assert.deepEqual(none.precisions, [50, 0, 0, 0]);
  assert.equal(none.score, 0);
  // total_3 = 0 stops the loop: without effective order eff_order stays 4 (two zero precisions → 0);
  // with it eff_order = 2: exp((log 100 + log 100) / 2) = 100.00000000000004 in floating point (as in Python)
  assert.equal(sacreComputeBleu([2, 1, 0, 0], [2, 1, 0, 0], 2, 2).score, 0);
  assert.equal(sacreComputeBleu([2, 1, 0, 0], [2, 1, 0, 0], 2, 2, { effectiveOrder: true }).score, Math.exp((2 * Math.log(100)) / 2));
});

test('sacreBLEU corpus: closest reference length (shorter on a tie), clipped counts over references, defaults and signature', () => {
  const refLen = (hyp: string, refs: string[]): number => sacreCorpusBleu([hyp], [refs], { tokenize: 'none' }).refLen;
  assert.equal(refLen('a b c', ['a b', 'a b c d']), 2); // diffs 1, 1 → the shorter
  assert.equal(refLen('a b c', ['a b c d', 'a b']), 2);
  assert.equal(refLen('a b c', ['a', 'a b c d e', 'a b c d']), 4); // diffs 2, 2, 1
  assert.equal(refLen('a b c', ['a b c', 'a b c d']), 3);
  assert.equal(refLen('a b c', ['a b c', 'a']), 3); // a shorter but farther reference does not win
  // max count of each n-gram over the references: "a" ×2 in ref 1, ×1 in ref 2 → clip at 2
  const c = sacreCorpusBleu(['a a'], [['a a', 'a']], { tokenize: 'none', effectiveOrder: true });
  assert.deepEqual([c.counts, c.totals], [[2, 1, 0, 0], [2, 1, 0, 0]]);
  assert.equal(c.score, Math.exp((2 * Math.log(100)) / 2)); // eff. order 2
  // corpus_bleu defaults: 13a, exp, case-sensitive, order 4, no effective order → "a b" vs itself is 0
  const d = sacreCorpusBleu(['a b', 'A'], [['a b'], ['a', 'x y']]);
  assert.equal(d.signature, 'nrefs:2|tok:13a|smooth:exp|case:mixed|eff:no|order:4');
  assert.deepEqual(d.counts, [2, 1, 0, 0]); // "A" ≠ "a"
  assert.equal(sacreCorpusBleu(['a b'], [['a b']]).score, 0);
  assert.equal(sacreCorpusBleu(['a b'], [['a b']], { smoothMethod: 'floor' }).signature, 'nrefs:1|tok:13a|smooth:floor[0.1]|case:mixed|eff:no|order:4');
  assert.equal(sacreCorpusBleu(['a b'], [['a b']], { smoothMethod: 'add-k', smoothValue: 2, lowercase: true }).signature, 'nrefs:1|tok:13a|smooth:add-k[2]|case:lc|eff:no|order:4');
  assert.equal(sacreSentenceBleu('a b', ['a b'], { smoothMethod: 'none', tokenize: 'char' }).signature, 'nrefs:1|tok:char|smooth:none|case:mixed|eff:yes|order:4');
  // an explicit undefined tokenizer is 13a: "a." → "a ." (2 tokens), eff. order 2 → 100
  assert.equal(sacreSentenceBleu('a.', ['a.'], { tokenize: undefined }).score, Math.exp((2 * Math.log(100)) / 2));
  // lowercase is str.lower(): "ß".lower() = "ß" ≠ "ss" = "SS".lower() (upper-casing would match them)
  assert.equal(sacreSentenceBleu('ß', ['SS'], { lowercase: true, tokenize: 'none' }).score, 0);
  assert.equal(sacreSentenceBleu('A', ['a'], { tokenize: 'none' }).score, 0);
});

// ---- METEOR (nltk/translate/meteor_score.py), ROUGE (google rouge_score), scoreGeneration

const met = (ref: string[], hyp: string[], o = {}): number => meteorScore([ref], hyp, o).score;

test('METEOR: untokenised input names the field; no match is 0, not 0/0', () => {
  badInput(() => singleMeteorScore(toks('a b'), 'a b' as unknown as string[]), 'hypothesis', 'METEOR expects a tokenised hypothesis (an array of tokens), got string.', 'Split the text into tokens first (NLTK raises TypeError for strings).');
  badInput(() => singleMeteorScore('a b' as unknown as string[], toks('a b')), 'reference', 'METEOR expects a tokenised reference (an array of tokens), got string.', 'Split the text into tokens first (NLTK raises TypeError for strings).');
  assert.equal(met(toks('c d'), toks('a b')), 0); // NLTK: ZeroDivisionError → 0.0
});

test('METEOR: chunks need consecutive hypothesis AND reference positions; Fmean with P ≠ R', () => {
  // hyp "a b c", ref "c a b": matches (0,1) (1,2) (2,0) → 2 chunks; P = R = 1 → Fmean = 1;
  // penalty 0.5·(2/3)³ = 4/27 → 23/27
  close(met(toks('c a b'), toks('a b c')), 23 / 27);
  // hyp "a x b", ref "a b": matches (0,0) (2,1): the reference is consecutive, the hypothesis not → 2 chunks.
  // P = 2/3, R = 1: Fmean = P·R / (0.9·P + 0.1·R) = (2/3) / 0.7 = 20/21; penalty 0.5·(2/2)³ → 10/21
  close(met(toks('a b'), toks('a x b')), 10 / 21);
});

test('METEOR: exact stage before the stem stage, lowercasing, NLTK-mode stemmer, best reference, synonyms', () => {
  // exact: hyp[1] "cats" ↔ ref[0], hyp[0] "cat" ↔ ref[1] → (0,1) (1,0): 2 chunks → 1 − 0.5 = 0.5.
  // (stems alone would pair them in order: 1 chunk → 0.9375)
  assert.equal(met(toks('cats cat'), toks('cat cats')), 0.5);
  assert.equal(met(['cat'], ['cats']), 0.5); // stem stage: cats → cat; 1 match, 1 chunk: 1 − 0.5·1 = 0.5
  assert.equal(met(['die'], ['dying']), 0.5); // NLTK_EXTENSIONS: dying → die (the original algorithm gives dy)
  // lowercase (default): "A a" vs "a A" → exact (1,1) (0,0): 1 chunk → 1 − 0.5·(1/2)³ = 0.9375;
  // lowercase: false → exact a↔a (1,0), A↔A (0,1): 2 chunks → 0.5
  assert.equal(met(['a', 'A'], ['A', 'a']), 0.9375);
  assert.equal(met(['a', 'A'], ['A', 'a'], { lowercase: false }), 0.5);
  assert.equal(met(['SS'], ['ß']), 0); // str.lower(): "ß" ≠ "ss" (upper-casing both would match)
  // meteor_score = max over references, in any order
  const r = meteorScore([toks('x y'), toks('a b')], toks('a b'));
  assert.deepEqual(r, { score: 1 - 0.5 / 8, wordnet: false });
  assert.equal(meteorScore([toks('a b'), toks('x y')], toks('a b')).score, 1 - 0.5 / 8);
  // synonym stage through a lookup, on the words left after the stem stage (already stemmed, as in NLTK's
  // _enum_align_words, so "large" would be "larg" there); names with "_" are dropped (lemma.name().find("_") < 0)
  const synonyms = (w: string): string[] => (w === 'big' ? ['huge', 'very_big'] : []);
  assert.deepEqual(meteorScore([['huge']], ['big'], { synonyms }), { score: 0.5, wordnet: true });
  assert.equal(met(['very_big'], ['big'], { synonyms }), 0);
});

test('ROUGE: the tokeniser stems only tokens longer than 3 characters with the NLTK-mode stemmer, and only when asked', () => {
  assert.deepEqual(rougeTokenize('running dying was'), ['running', 'dying', 'was']);
  assert.deepEqual(rougeTokenize('running dying was', true), ['run', 'die', 'was']); // "was" (3) kept as is
  assert.equal(rougeScore('run', 'running', { rougeTypes: ['rouge1'] }).rouge1.fmeasure, 0); // use_stemmer defaults to False
});

test('ROUGE: F = 2PR/(P+R), 0 when P + R = 0; an empty side is 0; invalid types; score_multi takes the first best', () => {
  // "a" vs target "a b": P = 1, R = 1/2 → F = 2/3 (P > R and P < R both)
  close(rougeScore('a b', 'a', { rougeTypes: ['rouge1'] }).rouge1.fmeasure, 2 / 3);
  close(rougeScore('a', 'a b', { rougeTypes: ['rouge1'] }).rouge1.fmeasure, 2 / 3);
  assert.deepEqual(rougeScore('a', 'b', { rougeTypes: ['rouge1'] }).rouge1, { precision: 0, recall: 0, fmeasure: 0 });
  assert.deepEqual(rougeScore('a b', '', { rougeTypes: ['rougeL'] }).rougeL, { precision: 0, recall: 0, fmeasure: 0 });
  assert.deepEqual(rougeScore('', 'a b', { rougeTypes: ['rougeL'] }).rougeL, { precision: 0, recall: 0, fmeasure: 0 });
  for (const bad of ['rouge0', 'rougeX', 'xrouge1', 'rouge12']) {
    badInput(() => rougeScore('a', 'a', { rougeTypes: [bad] }), 'rougeTypes', `Invalid rouge type: ${bad}.`, 'Use rouge1…rouge9, rougeL or rougeLsum.');
  }
  // targets "a b c d" (P 1, R 1/2) and "a" (P 1/2, R 1) tie at F = 2/3 for "a b": np.argmax keeps the first
  const m = rougeScoreMulti(['x y', 'a b c d', 'a'], 'a b', { rougeTypes: ['rouge1'] });
  assert.deepEqual(m.rouge1, { precision: 1, recall: 1 / 2, fmeasure: 2 / 3 });
  assert.deepEqual(Object.keys(rougeScoreMulti(['a'], 'a')), ['rouge1', 'rouge2', 'rougeL', 'rougeLsum']);
  assert.deepEqual(rougeScoreMulti([], 'a', { rougeTypes: ['rouge1'] }).rouge1, { precision: 0, recall: 0, fmeasure: 0 });
});

test('scoreGeneration: the default metric list, each with its tokeniser and implementation', () => {
  const s = scoreGeneration('cat sat mat', ['cat sat mat']);
  const tiny = Math.exp(0.25 * Math.log(2.2250738585072014e-308)); // BLEU-4 of 3 tokens: p4 = float_info.min
  assert.deepEqual(s.map((x) => [x.metric, x.value, x.tokenizer, x.implementation]), [
    ['em', 1, 'intl-segmenter (articles a/an/the removed)', 'SQuAD v2.0 token F1 / EM'],
    ['f1', 1, 'intl-segmenter (articles a/an/the removed)', 'SQuAD v2.0 token F1 / EM'],
    ['bleu1', 1, 'intl-segmenter', 'NLTK sentence_bleu (uniform weights 1/1, smoothing method0)'],
    ['bleu2', 1, 'intl-segmenter', 'NLTK sentence_bleu (uniform weights 1/2, smoothing method0)'],
    ['bleu4', tiny, 'intl-segmenter', 'NLTK sentence_bleu (uniform weights 1/4, smoothing method0)'],
    ['rouge1', 1, 'intl-segmenter', 'google rouge_score'],
    ['rouge2', 1, 'intl-segmenter', 'google rouge_score'],
    ['rougeL', 1, 'intl-segmenter', 'google rouge_score'],
    ['rougeLsum', 1, 'intl-segmenter', 'google rouge_score'],
    ['gleu', 1, 'intl-segmenter', 'NLTK sentence_gleu (1–4-grams)'],
    ['meteor', 1 - 0.5 / 27, 'intl-segmenter', 'NLTK meteor_score (exact + Porter stem stages)'], // 3 matches, 1 chunk
    ['keyword', 1, 'intl-segmenter', 'memory-eval keyword hit rate'],
  ]);
  assert.deepEqual(s.find((x) => x.metric === 'meteor')!.detail, { wordnet: false });
  assert.deepEqual(s.find((x) => x.metric === 'keyword')!.detail, { correct: true, threshold: 0.7, matched: 3, referenceKeywords: 3 });
  const r = scoreGeneration('cat sat mat', ['cat sat mat'], { tokenization: 'reference', metrics: ['f1', 'bleu1', 'rouge1', 'keyword'] });
  assert.deepEqual(r.map((x) => [x.tokenizer, x.implementation]), [
    ['squad-normalize + whitespace', 'SQuAD evaluate-v2.0.py'],
    ['whitespace', 'NLTK sentence_bleu (uniform weights 1/1, smoothing method0)'],
    ['rouge-score', 'google rouge_score'],
    ['memory-eval \\w+', 'memory-eval keyword hit rate'],
  ]);
  assert.deepEqual(r[0].detail, { normalizedPrediction: 'cat sat mat' });
});

test('scoreGeneration F1/EM: max over references, whole-word articles only, the v2.0 empty rule, no references', () => {
  const v = (p: string, refs: string[], metric: GenerationMetric, tokenization: 'unicode' | 'reference' = 'unicode'): number =>
    scoreGeneration(p, refs, { metrics: [metric], tokenization })[0].value;
  // "p q" vs "p q r": P = 1, R = 2/3 → 0.8; vs "x": 0 → max 0.8; EM 0
  for (const t of ['unicode', 'reference'] as const) {
    close(v('p q', ['x', 'p q r'], 'f1', t), 0.8);
    assert.equal(v('p q', ['x', 'p q r'], 'em', t), 0);
    assert.equal(v('p q', ['x', 'P  q'], 'em', t), 1);
    assert.equal(v('the', ['a'], 'f1', t), 1); // both normalise to nothing: v2.0 → 1 (v1.1 would give 0)
  }
  // "banana" and "then" are not articles: "banana then" vs "banana then x" → P 1, R 2/3 → 0.8
  close(v('banana then', ['banana then x'], 'f1'), 0.8);
  assert.equal(v('Stryker was here', [], 'f1'), 0); // no reference = one empty reference
});

test('scoreGeneration BLEU: unicode tokens are lowercased words, reference mode splits on whitespace; smoothing is passed on', () => {
  const b = (p: string, r: string, o: Partial<GenerationScoreOptions> = {}): GenerationScore => scoreGeneration(p, [r], { metrics: ['bleu1'], ...o })[0];
  // unicode: [the, cat] vs [the, cat, sat]: P1 = 1, BP = exp(1 − 3/2); reference: "The" ≠ "the" → P1 = 1/2
  close(b('The cat', 'the cat sat').value, Math.exp(-0.5));
  close(b('The cat', 'the cat sat', { tokenization: 'reference' }).value, 0.5 * Math.exp(-0.5));
  // method1: "a b" vs "a c": p1 = 1/2, p2 = 0 → 0.1/1; BLEU-2 = exp(½(log ½ + log 0.1))
  const s = scoreGeneration('a b', ['a c'], { metrics: ['bleu2'], bleuSmoothing: 1 })[0];
  close(s.value, Math.exp(0.5 * (Math.log(0.5) + Math.log(0.1))));
  assert.equal(s.implementation, 'NLTK sentence_bleu (uniform weights 1/2, smoothing method1)');
});

test('scoreGeneration ROUGE: dispatch by type, sentence split for Lsum, first best reference, the stemmer guard', () => {
  // target "c d\na b", prediction "a b c d": rouge1 1; rouge2 {c d, a b} of 3 → 2/3; rougeL LCS 2 of 4 → 1/2;
  // rougeLsum: union LCS per target sentence {c, d} + {a, b} → 4 of 4 → 1
  const s = scoreGeneration('a b c d', ['c d\n\na b'], { metrics: ['rouge1', 'rouge2', 'rougeL', 'rougeLsum'] });
  const want = [1, 2 / 3, 1 / 2, 1];
  s.forEach((x, i) => close(x.value, want[i]));
  // references "a b c d" (P 1, R 1/2) and "a" (P 1/2, R 1) tie at F 2/3 for "a b": the first is kept
  assert.deepEqual(scoreGeneration('a b', ['x', 'a b c d', 'a'], { metrics: ['rouge1'] })[0].detail, { precision: 1, recall: 1 / 2 });
  const r1 = (p: string, r: string, stem?: boolean): GenerationScore => scoreGeneration(p, [r], { metrics: ['rouge1'], rougeStemmer: stem })[0];
  assert.equal(r1('runs', 'run').value, 0);
  assert.equal(r1('runs', 'run', true).value, 1);
  assert.equal(r1('runs', 'run', true).implementation, 'google rouge_score (Porter stemmer)');
  assert.equal(r1('was', 'wa', true).value, 0); // 3 characters: not stemmed
  assert.equal(r1('cafés', 'café', true).value, 0); // not all a–z: not stemmed
  assert.equal(scoreGeneration('runs', ['run'], { metrics: ['rouge1'], rougeStemmer: true, tokenization: 'reference' })[0].value, 1);
});

test('scoreGeneration keyword: best reference, correct only above the threshold', () => {
  // ref "k1 … k10", prediction with k1…k7: 7/10 = 0.7 is not > 0.7
  const ref = Array.from({ length: 10 }, (_, i) => `k${i + 1}`).join(' ');
  const pred = Array.from({ length: 7 }, (_, i) => `k${i + 1}`).join(' ');
  const k = scoreGeneration(pred, ['zz yy', ref], { metrics: ['keyword'] })[0];
  assert.equal(k.value, 0.7);
  assert.deepEqual(k.detail, { correct: false, threshold: 0.7, matched: 7, referenceKeywords: 10 });
  assert.equal(scoreGeneration(pred, [ref], { metrics: ['keyword'], keywordThreshold: 0.5 })[0].detail!.correct, true);
  assert.equal(scoreGeneration('k1 k2', ['k1 k2 k3', 'zz'], { metrics: ['keyword'] })[0].value, 2 / 3);
  // a tie (1/2 and 2/4) keeps the first reference's counts
  assert.deepEqual(scoreGeneration('k1 k3', ['k1 k2', 'k1 k2 k3 k4'], { metrics: ['keyword'] })[0].detail, { correct: false, threshold: 0.7, matched: 1, referenceKeywords: 2 });
  // reference mode is memory-eval's \w+ for every reference: the Han run "模型用于" is one keyword → 0
  assert.equal(scoreGeneration('模型', ['模型用于'], { metrics: ['keyword'], tokenization: 'reference' })[0].value, 0);
  assert.equal(scoreGeneration('模型', ['zz', '模型用于'], { metrics: ['keyword'], tokenization: 'reference' })[0].value, 0);
  assert.equal(scoreGeneration('模型', ['zz', '模型用于'], { metrics: ['keyword'] })[0].value, 1 / 2); // ICU: 模型 | 用于
});
