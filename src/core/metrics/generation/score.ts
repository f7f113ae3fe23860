/**
 * One entry point for scoring a generated answer against reference answers with every generation
 * metric of SPEC §7.3, recording the tokeniser used with each score.
 *
 * Two tokenisation modes:
 * - `unicode` (default): `Intl.Segmenter` word segments (ICU; segments Chinese/Japanese/Thai),
 *   NFKC + lowercase, punctuation-only segments dropped. The same tokens feed every metric, so
 *   non-English answers get meaningful scores.
 * - `reference`: each metric's reference implementation's own tokenisation, to reproduce its
 *   numbers: SQuAD normalisation + whitespace for F1/EM, whitespace tokens for NLTK BLEU/GLEU/METEOR,
 *   rouge_score's ASCII tokeniser for ROUGE, memory-eval's `\w+` for keyword overlap.
 */
import { nltkSentenceBleu, type NltkSmoothingMethod } from './bleu-nltk';
import { nltkSentenceGleu } from './gleu';
import { keywordOverlap } from './keywords';
import { meteorScore } from './meteor';
import { pySplit } from './ngrams';
import { PorterStemmer } from './porter';
import { rougeL, rougeLsum, rougeN, rougeTokenize } from './rouge';
import { normalizeAnswer, squadScore, tokenBagF1 } from './squad';

export type GenerationMetric = 'em' | 'f1' | 'bleu1' | 'bleu2' | 'bleu4' | 'rouge1' | 'rouge2' | 'rougeL' | 'rougeLsum' | 'gleu' | 'meteor' | 'keyword';
export type TokenizationMode = 'unicode' | 'reference';

export const GENERATION_METRICS: readonly GenerationMetric[] = ['em', 'f1', 'bleu1', 'bleu2', 'bleu4', 'rouge1', 'rouge2', 'rougeL', 'rougeLsum', 'gleu', 'meteor', 'keyword'];

export interface GenerationScoreOptions {
  metrics?: readonly GenerationMetric[];
  /** Default `unicode`. */
  tokenization?: TokenizationMode;
  /** BCP 47 locale for `Intl.Segmenter` (default: ICU root). */
  locale?: string;
  /** NLTK smoothing for BLEU (default 0 = none, NLTK's default; 1 = method1). */
  bleuSmoothing?: NltkSmoothingMethod;
  /** Porter-stem ROUGE tokens (ASCII tokens longer than 3 characters, as rouge_score). Default false. */
  rougeStemmer?: boolean;
  /** Keyword overlap counts as correct above this hit rate (memory-eval: > 0.7). */
  keywordThreshold?: number;
}

export interface GenerationScore {
  metric: GenerationMetric;
  /** 0–1. For ROUGE the F-measure; precision/recall in `detail`. */
  value: number;
  /** The tokeniser that produced the tokens (e.g. `intl-segmenter`, `rouge-score`, `whitespace`). */
  tokenizer: string;
  /** The reference implementation whose definition was followed. */
  implementation: string;
  detail?: Record<string, number | boolean | string>;
}

const segmenters = new Map<string, Intl.Segmenter>();

/** Unicode word tokens: `Intl.Segmenter` word-like segments of NFKC-lowercased text. */
export function unicodeTokens(text: string, locale = 'und'): string[] {
  let seg = segmenters.get(locale);
  if (!seg) segmenters.set(locale, (seg = new Intl.Segmenter(locale === 'und' ? undefined : locale, { granularity: 'word' })));
  const out: string[] = [];
  for (const s of seg.segment(text.normalize('NFKC').toLowerCase())) if (s.isWordLike) out.push(s.segment);
  return out;
}

const stemmer = new PorterStemmer();

/**
 * Scores `prediction` against `references` (one or more reference answers) with the requested
 * metrics. Multi-reference rules follow the references: max over references for F1/EM, ROUGE
 * (rouge_score `score_multi`), METEOR and keyword overlap; all references at once for BLEU/GLEU.
 */
export function scoreGeneration(prediction: string, references: readonly string[], options: GenerationScoreOptions = {}): GenerationScore[] {
  const mode = options.tokenization ?? 'unicode';
  const metrics = options.metrics ?? GENERATION_METRICS;
  const uni = mode === 'unicode';
  const locale = options.locale ?? 'und';
  const toks = (s: string): string[] => (uni ? unicodeTokens(s, locale) : pySplit(s));
  const tokName = uni ? 'intl-segmenter' : 'whitespace';
  const out: GenerationScore[] = [];
  const refs = references.length ? references : [''];
  for (const metric of metrics) {
    switch (metric) {
      case 'em':
      case 'f1': {
        if (uni) {
          const norm = (s: string): string[] => unicodeTokens(s, locale).filter((t) => !/^(a|an|the)$/.test(t));
          const p = norm(prediction);
          const best = Math.max(...refs.map((r) => (metric === 'f1' ? tokenBagF1(p, norm(r), 'v2.0') : Number(p.join(' ') === norm(r).join(' ')))));
          out.push({ metric, value: best, tokenizer: 'intl-segmenter (articles a/an/the removed)', implementation: 'SQuAD v2.0 token F1 / EM' });
        } else {
          const s = squadScore(prediction, refs, 'v2.0');
          out.push({ metric, value: metric === 'f1' ? s.f1 : s.em, tokenizer: 'squad-normalize + whitespace', implementation: 'SQuAD evaluate-v2.0.py', detail: { normalizedPrediction: normalizeAnswer(prediction) } });
        }
        break;
      }
      case 'bleu1':
      case 'bleu2':
      case 'bleu4': {
        const n = Number(metric.slice(4));
        const smoothing = options.bleuSmoothing ?? 0;
        const value = nltkSentenceBleu(refs.map(toks), toks(prediction), { weights: new Array(n).fill(1 / n), smoothing });
        out.push({ metric, value, tokenizer: tokName, implementation: `NLTK sentence_bleu (uniform weights 1/${n}, smoothing method${smoothing})` });
        break;
      }
      case 'rouge1':
      case 'rouge2':
      case 'rougeL':
      case 'rougeLsum': {
        const stem = options.rougeStemmer ?? false;
        const rt = (s: string): string[] => (uni ? unicodeTokens(s, locale).map((t) => (stem && t.length > 3 && /^[a-z]+$/.test(t) ? stemmer.stem(t) : t)) : rougeTokenize(s, stem));
        let best = { precision: 0, recall: 0, fmeasure: 0 };
        for (const r of refs) {
          const sc = metric === 'rougeL' ? rougeL(rt(r), rt(prediction))
            : metric === 'rougeLsum' ? rougeLsum(r.split('\n').filter((x) => x.length).map(rt), prediction.split('\n').filter((x) => x.length).map(rt))
              : rougeN(rt(r), rt(prediction), metric === 'rouge1' ? 1 : 2);
          if (sc.fmeasure > best.fmeasure) best = sc;
        }
        out.push({ metric, value: best.fmeasure, tokenizer: uni ? 'intl-segmenter' : 'rouge-score', implementation: `google rouge_score${stem ? ' (Porter stemmer)' : ''}`, detail: { precision: best.precision, recall: best.recall } });
        break;
      }
      case 'gleu':
        out.push({ metric, value: nltkSentenceGleu(refs.map(toks), toks(prediction)), tokenizer: tokName, implementation: 'NLTK sentence_gleu (1–4-grams)' });
        break;
      case 'meteor': {
        const m = meteorScore(refs.map(toks), toks(prediction));
        out.push({ metric, value: m.score, tokenizer: tokName, implementation: 'NLTK meteor_score (exact + Porter stem stages)', detail: { wordnet: m.wordnet } });
        break;
      }
      case 'keyword': {
        const threshold = options.keywordThreshold ?? 0.7;
        let best = keywordOverlap(refs[0], prediction, uni ? 'unicode' : 'memory-eval', locale);
        for (const r of refs.slice(1)) {
          const k = keywordOverlap(r, prediction, uni ? 'unicode' : 'memory-eval', locale);
          if (k.hitRate > best.hitRate) best = k;
        }
        out.push({ metric, value: best.hitRate, tokenizer: uni ? 'intl-segmenter' : 'memory-eval \\w+', implementation: 'memory-eval keyword hit rate', detail: { correct: best.hitRate > threshold, threshold, matched: best.matched, referenceKeywords: best.referenceKeywords } });
        break;
      }
    }
  }
  return out;
}
