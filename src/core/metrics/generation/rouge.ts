/**
 * ROUGE-N, ROUGE-L and ROUGE-Lsum as google-research `rouge_score` computes them
 * (`rouge_scorer.py`, `tokenize.py`), replicating ROUGE-1.5.5 (Lin 2004, "ROUGE: A Package for
 * Automatic Evaluation of Summaries"):
 * - tokeniser: lowercase, every run of `[^a-z0-9]` → space, split, keep `^[a-z0-9]+$` tokens;
 *   optional Porter stemming (NLTK mode, {@link PorterStemmer}) of tokens longer than 3 characters.
 *   Non-ASCII letters are separators, so non-English text scores ≈ 0 (rouge_score's behaviour);
 * - ROUGE-N: clipped n-gram overlap; P = overlap / max(pred n-grams, 1), R = overlap / max(target n-grams, 1);
 * - ROUGE-L: LCS over the whole token sequences; ROUGE-Lsum: sentences split on `\n`,
 *   summary-level union-LCS with ROUGE-1.5.5's no-double-counting rule;
 * - F = 2PR/(P+R), 0 when P+R = 0; empty target or prediction → 0.
 * Argument order: `(target, prediction)` — reference first, as `RougeScorer.score`.
 */
import { SpanproofError } from '../../errors';
import { PorterStemmer } from './porter';
import { ngramCounts, overlapCount, sumCounts, PY_WS } from './ngrams';

export interface RougeScore { precision: number; recall: number; fmeasure: number }
export type RougeType = `rouge${number}` | 'rougeL' | 'rougeLsum';

const stemmer = new PorterStemmer('NLTK_EXTENSIONS');

/** rouge_score `tokenize.tokenize(text, stemmer)`. */
export function rougeTokenize(text: string, useStemmer = false): string[] {
  const t = text.toLowerCase().replace(/[^a-z0-9]+/g, ' ');
  let toks = t.split(new RegExp(PY_WS.source));
  if (useStemmer) toks = toks.map((x) => (x.length > 3 ? stemmer.stem(x) : x));
  return toks.filter((x) => /^[a-z0-9]+$/.test(x));
}

export function rougeFmeasure(precision: number, recall: number): number {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

/** LCS dynamic-programming table of `ref` × `can` ((|ref|+1) × (|can|+1)). */
export function lcsTable(ref: readonly string[], can: readonly string[]): number[][] {
  const t: number[][] = Array.from({ length: ref.length + 1 }, () => new Array<number>(can.length + 1).fill(0));
  for (let i = 1; i <= ref.length; i++) {
    for (let j = 1; j <= can.length; j++) {
      t[i][j] = ref[i - 1] === can[j - 1] ? t[i - 1][j - 1] + 1 : Math.max(t[i - 1][j], t[i][j - 1]);
    }
  }
  return t;
}

/** Length of the longest common subsequence of two token sequences. */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  return lcsTable(a, b)[a.length][b.length];
}

/** Indices into `ref` of one LCS (rouge_score `_backtrack_norec`). */
function lcsIndices(ref: readonly string[], can: readonly string[]): number[] {
  const t = lcsTable(ref, can);
  let i = ref.length;
  let j = can.length;
  const out: number[] = [];
  while (i > 0 && j > 0) {
    if (ref[i - 1] === can[j - 1]) {
      out.unshift(i - 1);
      i--;
      j--;
    } else if (t[i][j - 1] > t[i - 1][j]) {
      j--;
    } else {
      i--;
    }
  }
  return out;
}

export function rougeN(targetTokens: readonly string[], predictionTokens: readonly string[], n: number): RougeScore {
  const t = ngramCounts(targetTokens, n);
  const p = ngramCounts(predictionTokens, n);
  const inter = overlapCount(t, p);
  const precision = inter / Math.max(sumCounts(p), 1);
  const recall = inter / Math.max(sumCounts(t), 1);
  return { precision, recall, fmeasure: rougeFmeasure(precision, recall) };
}

export function rougeL(targetTokens: readonly string[], predictionTokens: readonly string[]): RougeScore {
  if (targetTokens.length === 0 || predictionTokens.length === 0) return { precision: 0, recall: 0, fmeasure: 0 };
  const lcs = lcsLength(targetTokens, predictionTokens);
  const precision = lcs / predictionTokens.length;
  const recall = lcs / targetTokens.length;
  return { precision, recall, fmeasure: rougeFmeasure(precision, recall) };
}

/** Summary-level ROUGE-L (union LCS over sentences, ROUGE-1.5.5 counting). Inputs: token lists per sentence. */
export function rougeLsum(targetSents: readonly (readonly string[])[], predictionSents: readonly (readonly string[])[]): RougeScore {
  const zero = { precision: 0, recall: 0, fmeasure: 0 };
  if (targetSents.length === 0 || predictionSents.length === 0) return zero;
  const m = targetSents.reduce((s, x) => s + x.length, 0);
  const n = predictionSents.reduce((s, x) => s + x.length, 0);
  if (!n || !m) return zero;
  const cntR = new Map<string, number>();
  const cntC = new Map<string, number>();
  for (const s of targetSents) for (const t of s) cntR.set(t, (cntR.get(t) ?? 0) + 1);
  for (const s of predictionSents) for (const t of s) cntC.set(t, (cntC.get(t) ?? 0) + 1);
  let hits = 0;
  for (const r of targetSents) {
    const union = new Set<number>();
    for (const c of predictionSents) for (const i of lcsIndices(r, c)) union.add(i);
    for (const i of [...union].sort((a, b) => a - b)) {
      const t = r[i];
      if ((cntC.get(t) ?? 0) > 0 && (cntR.get(t) ?? 0) > 0) {
        hits++;
        cntC.set(t, cntC.get(t)! - 1);
        cntR.set(t, cntR.get(t)! - 1);
      }
    }
  }
  const recall = hits / m;
  const precision = hits / n;
  return { precision, recall, fmeasure: rougeFmeasure(precision, recall) };
}

export interface RougeOptions {
  /** Default ['rouge1', 'rouge2', 'rougeL', 'rougeLsum']. */
  rougeTypes?: readonly string[];
  /** Porter-stem tokens longer than 3 characters (rouge_score `use_stemmer`). Default false. */
  useStemmer?: boolean;
}

/**
 * rouge_score `RougeScorer(rouge_types, use_stemmer).score(target, prediction)`.
 * Returns one {@link RougeScore} per requested type. Tokeniser: `rouge_score` (ASCII a–z0–9).
 */
export function rougeScore(target: string, prediction: string, options: RougeOptions = {}): Record<string, RougeScore> {
  const types = options.rougeTypes ?? ['rouge1', 'rouge2', 'rougeL', 'rougeLsum'];
  const stem = options.useStemmer ?? false;
  const tt = rougeTokenize(target, stem);
  const pt = rougeTokenize(prediction, stem);
  const out: Record<string, RougeScore> = {};
  for (const type of types) {
    if (type === 'rougeL') out[type] = rougeL(tt, pt);
    else if (type === 'rougeLsum') {
      const sents = (s: string): string[][] => s.split('\n').filter((x) => x.length > 0).map((x) => rougeTokenize(x, stem));
      out[type] = rougeLsum(sents(target), sents(prediction));
    } else {
      const m = /^rouge([0-9])$/.exec(type);
      if (!m || Number(m[1]) <= 0) {
        throw new SpanproofError('bad-input', `Invalid rouge type: ${type}.`, { field: 'rougeTypes', fix: 'Use rouge1…rouge9, rougeL or rougeLsum.' });
      }
      out[type] = rougeN(tt, pt, Number(m[1]));
    }
  }
  return out;
}

/**
 * rouge_score `RougeScorer.score_multi(targets, prediction)`: for each type, the score against the
 * target with the highest F-measure (the first one on a tie).
 */
export function rougeScoreMulti(targets: readonly string[], prediction: string, options: RougeOptions = {}): Record<string, RougeScore> {
  const all = targets.map((t) => rougeScore(t, prediction, options));
  const types = options.rougeTypes ?? ['rouge1', 'rouge2', 'rougeL', 'rougeLsum'];
  const out: Record<string, RougeScore> = {};
  for (const type of types) {
    let best = all[0]?.[type] ?? { precision: 0, recall: 0, fmeasure: 0 };
    for (const s of all) if (s[type].fmeasure > best.fmeasure) best = s[type];
    out[type] = best;
  }
  return out;
}
