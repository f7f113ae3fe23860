/**
 * METEOR as NLTK computes it (`nltk/translate/meteor_score.py`, NLTK ≥ 3.6.6; Banerjee & Lavie
 * 2005, "METEOR: An Automatic Metric for MT Evaluation with Improved Correlation with Human
 * Judgments"): tokens lowercased (`preprocess=str.lower`), aligned in stages — exact match, then
 * Porter-stem match (NLTK's {@link PorterStemmer}), then WordNet synonyms — each stage greedily
 * from the last hypothesis token backwards to the last unmatched reference token with the same
 * form. P = m/|hyp|, R = m/|ref|, Fmean = P·R / (α·P + (1−α)·R),
 * penalty = γ·(chunks/m)^β, score = (1 − penalty)·Fmean, maximum over references; 0 when m = 0.
 * Defaults α = 0.9, β = 3, γ = 0.5.
 *
 * WordNet is not bundled (offline, licence and size), so the synonym stage is available only
 * through `synonyms` (a function giving a word's WordNet lemma names). Without it, the score equals
 * NLTK's whenever WordNet would add no match; results carry `wordnet: false` so reports can say so.
 */
import { SpanproofError } from '../../errors';
import { PorterStemmer } from './porter';

export interface MeteorOptions {
  alpha?: number;
  beta?: number;
  gamma?: number;
  /** Lowercase tokens first (NLTK default `preprocess=str.lower`). Default true. */
  lowercase?: boolean;
  /** WordNet-like synonym lookup for the third stage: lemma names of all synsets of `word`. */
  synonyms?: (word: string) => Iterable<string>;
}

export interface MeteorResult {
  score: number;
  /** Whether the WordNet synonym stage ran. */
  wordnet: boolean;
}

type Enum = [number, string][];

/** NLTK raises TypeError for untokenised (string) input; so do we, with the fix spelled out. */
function requireTokens(x: unknown, field: string): void {
  if (!Array.isArray(x)) {
    throw new SpanproofError('bad-input', `METEOR expects a tokenised ${field} (an array of tokens), got ${typeof x}.`, {
      field, fix: 'Split the text into tokens first (NLTK raises TypeError for strings).',
    });
  }
}

const stemmer = new PorterStemmer('NLTK_EXTENSIONS');

function matchEnums(hyp: Enum, ref: Enum, eq: (h: string, r: string) => boolean): [number, number][] {
  const matches: [number, number][] = [];
  for (let i = hyp.length - 1; i >= 0; i--) {
    for (let j = ref.length - 1; j >= 0; j--) {
      if (eq(hyp[i][1], ref[j][1])) {
        matches.push([hyp[i][0], ref[j][0]]);
        hyp.splice(i, 1);
        ref.splice(j, 1);
        break;
      }
    }
  }
  return matches;
}

function countChunks(matches: readonly [number, number][]): number {
  let i = 0;
  let chunks = 1;
  while (i < matches.length - 1) {
    if (matches[i + 1][0] === matches[i][0] + 1 && matches[i + 1][1] === matches[i][1] + 1) {
      i++;
      continue;
    }
    i++;
    chunks++;
  }
  return chunks;
}

/** NLTK `single_meteor_score(reference, hypothesis)` (token arrays). */
export function singleMeteorScore(reference: readonly string[], hypothesis: readonly string[], options: MeteorOptions = {}): number {
  requireTokens(hypothesis, 'hypothesis');
  requireTokens(reference, 'reference');
  const alpha = options.alpha ?? 0.9;
  const beta = options.beta ?? 3;
  const gamma = options.gamma ?? 0.5;
  const pre = (s: string): string => (options.lowercase === false ? s : s.toLowerCase());
  let hyp: Enum = hypothesis.map((w, i) => [i, pre(w)]);
  let ref: Enum = reference.map((w, i) => [i, pre(w)]);
  const tLen = hyp.length;
  const rLen = ref.length;
  const exact = matchEnums(hyp, ref, (a, b) => a === b);
  hyp = hyp.map(([i, w]) => [i, stemmer.stem(w)]);
  ref = ref.map(([i, w]) => [i, stemmer.stem(w)]);
  const stem = matchEnums(hyp, ref, (a, b) => a === b);
  let syn: [number, number][] = [];
  if (options.synonyms) {
    const lookup = options.synonyms;
    const cache = new Map<string, Set<string>>();
    const synsOf = (w: string): Set<string> => {
      let s = cache.get(w);
      if (!s) {
        s = new Set([...lookup(w)].filter((x) => !x.includes('_')));
        s.add(w);
        cache.set(w, s);
      }
      return s;
    };
    syn = matchEnums(hyp, ref, (h, r) => synsOf(h).has(r));
  }
  const matches = [...exact, ...stem, ...syn].sort((a, b) => a[0] - b[0]);
  const m = matches.length;
  if (m === 0 || tLen === 0 || rLen === 0) return 0;
  const precision = m / tLen;
  const recall = m / rLen;
  const fmean = (precision * recall) / (alpha * precision + (1 - alpha) * recall);
  const fragFrac = countChunks(matches) / m;
  const penalty = gamma * Math.pow(fragFrac, beta);
  return (1 - penalty) * fmean;
}

/** NLTK `meteor_score(references, hypothesis)`: the maximum single-reference METEOR. */
export function meteorScore(references: readonly (readonly string[])[], hypothesis: readonly string[], options: MeteorOptions = {}): MeteorResult {
  let best = 0;
  let first = true;
  for (const r of references) {
    const s = singleMeteorScore(r, hypothesis, options);
    if (first || s > best) best = s;
    first = false;
  }
  return { score: best, wordnet: options.synonyms !== undefined };
}
