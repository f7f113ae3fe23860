/**
 * Token F1 and exact match as the official SQuAD evaluation scripts compute them
 * (`evaluate-v1.1.py`, `evaluate-v2.0.py`; also T5 `t5.evaluation.metrics.squad/qa`):
 * normalise = lowercase → delete ASCII `string.punctuation` → replace the whole words a|an|the
 * by a space (Python's Unicode `\b`) → collapse whitespace; tokens = whitespace split;
 * F1 = bag-of-tokens F1 (multiset overlap), EM = normalised strings equal; both maximised over the
 * gold answers; corpus = mean (T5 reports ×100).
 * Empty answers: v1.1 gives F1 = 0 when nothing overlaps (also when both are empty); v2.0 gives
 * F1 = 1 when both normalise to empty and 0 when only one does.
 * Non-ASCII punctuation (’ “ …) is not removed, as in the reference scripts.
 */
import { pySplit } from './ngrams';

export type SquadVersion = 'v1.1' | 'v2.0';

const PUNCT = new Set(Array.from('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'));
const ARTICLES = /(?<![\p{L}\p{N}_])(a|an|the)(?![\p{L}\p{N}_])/gu;

/** SQuAD `normalize_answer`. */
export function normalizeAnswer(s: string): string {
  const lower = s.toLowerCase();
  let noPunc = '';
  for (const ch of lower) if (!PUNCT.has(ch)) noPunc += ch;
  return pySplit(noPunc.replace(ARTICLES, ' ')).join(' ');
}

/**
 * Token-bag F1 of SQuAD's evaluate script (Counter intersection), on already-normalised tokens.
 * v2.0: an empty side scores 1 when both are empty, else 0; v1.1 lets it fall through to 0.
 */
export function tokenBagF1(predToks: readonly string[], goldToks: readonly string[], version: SquadVersion): number {
  if (version === 'v2.0' && (predToks.length === 0 || goldToks.length === 0)) return predToks.length === goldToks.length ? 1 : 0;
  const gold = new Map<string, number>();
  for (const t of goldToks) gold.set(t, (gold.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of predToks) {
    const c = gold.get(t) ?? 0;
    if (c > 0) {
      same++;
      gold.set(t, c - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / predToks.length;
  const recall = same / goldToks.length;
  return (2 * precision * recall) / (precision + recall);
}

/** SQuAD token F1 of one prediction against one gold answer (0–1). */
export function tokenF1(prediction: string, gold: string, version: SquadVersion = 'v1.1'): number {
  return tokenBagF1(pySplit(normalizeAnswer(prediction)), pySplit(normalizeAnswer(gold)), version);
}

/** SQuAD exact match (1 or 0) after normalisation. */
export function exactMatch(prediction: string, gold: string): number {
  return normalizeAnswer(prediction) === normalizeAnswer(gold) ? 1 : 0;
}

export interface SquadScore { f1: number; em: number }

/** F1 and EM of one prediction, maximised over its gold answers (0–1). No gold answers → 0, 0. */
export function squadScore(prediction: string, golds: readonly string[], version: SquadVersion = 'v1.1'): SquadScore {
  let f1 = 0;
  let em = 0;
  for (const g of golds) {
    f1 = Math.max(f1, tokenF1(prediction, g, version));
    em = Math.max(em, exactMatch(prediction, g));
  }
  return { f1, em };
}

/** Corpus mean of {@link squadScore} (0–1; multiply by 100 for the T5/SQuAD-script scale). */
export function squadCorpusScore(predictions: readonly string[], golds: readonly (readonly string[])[], version: SquadVersion = 'v1.1'): SquadScore & { perItem: SquadScore[] } {
  const perItem = predictions.map((p, i) => squadScore(p, golds[i] ?? [], version));
  const n = perItem.length;
  return {
    f1: n ? perItem.reduce((s, x) => s + x.f1, 0) / n : 0,
    em: n ? perItem.reduce((s, x) => s + x.em, 0) / n : 0,
    perItem,
  };
}
