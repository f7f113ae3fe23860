// Generation metrics (src/core/metrics/generation) against hand calculations written out here and
// values published by the reference implementations (sources in each test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  exactMatch, keywordOverlap, keywordSet, lcsLength, meteorScore, nltkBrevityPenalty, nltkClosestRefLength,
  nltkModifiedPrecision, nltkSentenceBleu, nltkSentenceGleu, normalizeAnswer, PorterStemmer, rougeScore, rougeTokenize,
  sacreComputeBleu, sacreCorpusBleu, scoreGeneration, squadScore, unicodeTokens, tokenF1, tokenize13a, tokenizeChar, tokenizeIntl,
} from '../../../../../src/core/metrics/generation';
import { isSpanproofError } from '../../../../../src/core/errors';

const close = (a: number, b: number, tol = 1e-12): void => assert.ok(Math.abs(a - b) <= tol, `${a} != ${b}`);
const toks = (s: string): string[] => s.split(' ');

test('SQuAD normalisation, F1 and EM (v1.1 and v2.0 empty rule)', () => {
  assert.equal(normalizeAnswer('The  U.S.A. is well-known!'), 'usa is wellknown');
  assert.equal(normalizeAnswer('An apple a day'), 'apple day');
  assert.equal(normalizeAnswer('café a'), 'café'); // Unicode \b: "a" after a space is a word
  assert.equal(normalizeAnswer('éa'), 'éa'); // no boundary between é and a (Python's Unicode \w)
  // pred "cat cat dog" vs gold "cat dog dog": overlap {cat:1, dog:1} = 2; P = 2/3, R = 2/3, F1 = 2/3
  close(tokenF1('cat cat dog', 'cat dog dog'), 2 / 3);
  // "in 1976" vs "1976": overlap 1; P = 1/2, R = 1; F1 = 2·(1/2)·1 / (3/2) = 2/3
  close(tokenF1('in 1976', '1976'), 2 / 3);
  assert.equal(exactMatch('The Eiffel Tower.', 'eiffel tower'), 1);
  assert.equal(tokenF1('', '', 'v1.1'), 0);
  assert.equal(tokenF1('', '', 'v2.0'), 1);
  assert.equal(tokenF1('Paris', '', 'v2.0'), 0);
  assert.deepEqual(squadScore('abd', ['abc abd', '$$$$']), { f1: 2 / 3, em: 0 }); // T5 qa test: 66.67
});

test('NLTK BLEU: clipped precision, closest reference length (shorter on a tie), brevity penalty', () => {
  // "the" ×7 vs refs with at most 2 "the": clipped 2 / 7 (Papineni et al. 2002 example)
  close(nltkModifiedPrecision([toks('the cat is on the mat'), toks('there is a cat on the mat')], toks('the the the the the the the'), 1).value, 2 / 7);
  assert.equal(nltkClosestRefLength([new Array(13).fill('x'), new Array(11).fill('x')], 12), 11);
  // c = 7, closest r = 8: BP = exp(1 − 8/7) = exp(−1/7) = 0.866877…
  close(nltkBrevityPenalty(8, 7), Math.exp(1 - 8 / 7));
  assert.equal(nltkBrevityPenalty(8, 9), 1);
  assert.equal(nltkBrevityPenalty(8, 0), 0);
  // BLEU-1 of a 3-token hypothesis fully inside a 6-token reference: P1 = 1, BP = exp(1 − 6/3) = e^−1
  close(nltkSentenceBleu([toks('a b c d e f')], toks('a b c'), { weights: [1] }), Math.exp(-1));
  // identical 3-token sentence: no 4-gram → method0 gives a tiny positive number, not 0 (NLTK warns)
  const tiny = nltkSentenceBleu([toks('John loves Mary')], toks('John loves Mary'));
  assert.ok(tiny > 0 && tiny < 1e-70);
  assert.throws(() => nltkSentenceBleu(['a b c' as unknown as string[]], toks('a b c')), (e: unknown) => isSpanproofError(e));
});

test('sacreBLEU: tokenisers and compute_bleu from statistics', () => {
  assert.equal(tokenize13a('Hello, world! It\'s 3.5-4 &amp; "x"'), 'Hello , world ! It\'s 3.5 - 4 & " x "');
  assert.equal(tokenizeIntl('Hello, world! €6'), 'Hello , world ! € 6');
  assert.equal(tokenizeChar('ab c'), 'a b   c');
  // correct [9,7,5,3] / total [10,8,6,4], no BP: exp(¼·Σ log(p_n)) = (0.9·0.875·0.8333·0.75)^¼ = 0.83759…
  close(sacreComputeBleu([9, 7, 5, 3], [10, 8, 6, 4], 11, 11).score / 100, Math.pow(0.9 * 0.875 * (5 / 6) * 0.75, 0.25), 1e-12);
  // sacrebleu test_bleu "a little test" vs "a test", floor 0.01, effective order 3 (a trigram exists):
  // p1 = 100·2/3, p2 = 100·0.01/2 (no bigram match), p3 = 100·0.01/1; BLEU = (p1·p2·p3)^(1/3) = 3.2183 → 0.032183
  close(sacreCorpusBleu(['a little test'], [['a test']], { tokenize: 'none', smoothMethod: 'floor', smoothValue: 0.01, effectiveOrder: true }).score / 100, Math.cbrt((200 / 3) * 0.5 * 1) / 100);
});

test('ROUGE: rouge_score tokeniser and LCS', () => {
  assert.deepEqual(rougeTokenize("It's a Café-test!"), ['it', 's', 'a', 'caf', 'test']);
  assert.deepEqual(rougeTokenize('running cats', true), ['run', 'cat']);
  // LCS("a b c d e", "a c e f") = "a c e" = 3
  assert.equal(lcsLength(toks('a b c d e'), toks('a c e f')), 3);
  const s = rougeScore('a b c d e', 'a c e f', { rougeTypes: ['rougeL'] }).rougeL;
  close(s.precision, 3 / 4); // LCS / prediction length
  close(s.recall, 3 / 5); // LCS / target length
  close(s.fmeasure, (2 * 0.75 * 0.6) / (0.75 + 0.6));
});

test('Porter stemmer in NLTK mode (NLTK porter.py docstring vocabulary)', () => {
  const st = new PorterStemmer();
  const words = ['caresses', 'flies', 'dies', 'mules', 'denied', 'died', 'agreed', 'owned', 'humbled', 'sized', 'meeting', 'stating', 'siezing', 'itemization', 'sensational', 'traditional', 'reference', 'colonizer', 'plotted'];
  assert.equal(words.map((w) => st.stem(w)).join(' '), 'caress fli die mule deni die agre own humbl size meet state siez item sensat tradit refer colon plot');
  // NLTK's irregular forms and its departures from the published algorithm
  assert.equal(st.stem('dying'), 'die');
  assert.equal(new PorterStemmer('ORIGINAL_ALGORITHM').stem('dying'), 'dy');
  assert.equal(st.stem('skies'), 'sky');
  assert.equal(st.stem('oed'), 'o'); // NLTK test_stem.py test_oed_bug (issue #1581)
});

test('METEOR (NLTK, exact + stem stages) and GLEU', () => {
  // NLTK test_meteor: 4 exact matches in one chunk: Fmean = 1, penalty = 0.5·(1/4)^3 → 0.9921875
  assert.equal(meteorScore([toks('this is a test'), ['this', 'istest']], ['THIS', 'Is', 'a', 'tEST']).score, 0.9921875);
  assert.throws(() => meteorScore(['this is a test' as unknown as string[]], toks('this is')), (e: unknown) => isSpanproofError(e));
  // GLEU "the"×7 vs "the cat is on the mat": 1..4-grams: hyp 7+6+5+4 = 22, ref 6+5+4+3 = 18; matches 2 → 2/22
  close(nltkSentenceGleu([toks('the cat is on the mat')], toks('the the the the the the the')), 2 / 22);
});

test('keyword overlap: CJK segmentation vs the memory-eval tokeniser', () => {
  const ref = 'embedding模型用于将文本转换为向量以支持相似度搜索';
  const gen = '模型将文本转换为向量';
  // memory-eval's \w+ keeps the whole clause as one keyword → 0 overlap (bug L1)
  const legacy = keywordOverlap(ref, gen, 'memory-eval');
  assert.equal(legacy.referenceKeywords, 1);
  assert.equal(legacy.hitRate, 0);
  const ours = keywordOverlap(ref, gen);
  assert.equal(ours.tokenizer, 'unicode');
  assert.ok(keywordSet(ref).has('模型') && keywordSet(ref).has('向量'));
  assert.ok(ours.hitRate > 0.3, `hit rate ${ours.hitRate}`);
  assert.equal(keywordOverlap('The quick brown fox', 'a quick fox').hitRate, 2 / 4);
});

test('scoreGeneration records the tokeniser and uses Unicode segmentation by default', () => {
  assert.deepEqual(unicodeTokens('Hello, Wörld! 模型用于搜索'), ['hello', 'wörld', '模型', '用于', '搜索']);
  const zh = scoreGeneration('模型用于搜索', ['模型用于相似度搜索'], { metrics: ['f1', 'rouge1', 'keyword'] });
  // tokens: pred [模型, 用于, 搜索], ref [模型, 用于, 相似, 度, 搜索]: overlap 3 → P 1, R 3/5, F1 = 0.75
  close(zh.find((s) => s.metric === 'f1')!.value, 0.75);
  close(zh.find((s) => s.metric === 'rouge1')!.value, 0.75);
  assert.equal(zh.find((s) => s.metric === 'rouge1')!.tokenizer, 'intl-segmenter');
  // rouge_score's own tokeniser drops every Han character → 0 (its published behaviour)
  const ref = scoreGeneration('模型用于搜索', ['模型用于相似度搜索'], { metrics: ['rouge1'], tokenization: 'reference' })[0];
  assert.equal(ref.value, 0);
  assert.equal(ref.tokenizer, 'rouge-score');
  const en = scoreGeneration('The cat sat.', ['the cat sat'], { metrics: ['em', 'f1'], tokenization: 'reference' });
  assert.deepEqual(en.map((s) => s.value), [1, 1]);
});

test('NLTK smoothing methods 1, 3, 4 by hand on a pair with zero 3- and 4-gram matches; method3 = sacreBLEU exp', () => {
  // NLTK bleu_score.py docstring pair: p1 = 8/14, p2 = 1/13, p3 = 0/12, p4 = 0/11; hyp 14 tokens,
  // references 16, 18, 16 tokens → r = 16, BP = exp(1 − 16/14).
  const refs = [
    toks('It is a guide to action that ensures that the military will forever heed Party commands'),
    toks('It is the guiding principle which guarantees the military forces always being under the command of the Party'),
    toks('It is the practical guide for the army always to heed the directions of the party'),
  ];
  const hyp = toks('It is to insure the troops forever hearing the activity guidebook that party direct');
  const bp = Math.exp(1 - 16 / 14);
  const geo = (p3: number, p4: number): number => bp * Math.exp(0.25 * (Math.log(8 / 14) + Math.log(1 / 13) + Math.log(p3) + Math.log(p4)));
  close(nltkSentenceBleu(refs, hyp, { smoothing: 1 }), geo(0.1 / 12, 0.1 / 11)); // ε = 0.1 → 0.0370 (NLTK docstring)
  close(nltkSentenceBleu(refs, hyp, { smoothing: 3 }), geo(1 / (2 * 12), 1 / (4 * 11))); // 1/(2^k · total)
  close(nltkSentenceBleu(refs, hyp, { smoothing: 4 }), geo(1 / ((2 * 5) / Math.log(14)) / 12, 1 / ((4 * 5) / Math.log(14)) / 11));
  // sacreBLEU's default exp smoothing is the same mteval rule, on the 0–100 scale: 6.963003305718091
  close(sacreCorpusBleu([hyp.join(' ')], [refs.map((r) => r.join(' '))], { effectiveOrder: true }).score / 100, geo(1 / 24, 1 / 44), 1e-12);
  close(nltkSentenceBleu(refs, hyp, { smoothing: 3 }) * 100, 6.963003305718091, 1e-9);
});
