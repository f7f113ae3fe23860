/**
 * BLEU exactly as NLTK computes it (`nltk/translate/bleu_score.py`, NLTK 3.9): `sentence_bleu`,
 * `corpus_bleu`, `modified_precision`, `closest_ref_length`, `brevity_penalty` and
 * `SmoothingFunction.method0…method7` (Chen & Cherry 2014, "A Systematic Comparison of Smoothing
 * Techniques for Sentence-Level BLEU", WMT) — including NLTK's quirks, kept on purpose so the
 * numbers equal NLTK's:
 * - inputs are pre-tokenised token arrays, compared case-sensitively;
 * - method0 replaces a zero precision by `sys.float_info.min` (2.2250738585072014e-308), so the
 *   score is a tiny positive number (e.g. 1.2e-77), not 0; with no unigram match the score is exactly 0;
 * - the closest reference length prefers the shorter reference on a tie;
 * - in `corpus_bleu`, methods 5–7 see the *last* sentence's references/hypothesis, method 4/7 the
 *   corpus hypothesis length; method5 always adds the 5-gram precision as "p_{n+1}";
 * - method6 requires a non-zero trigram precision (NLTK asserts `p_n[2]`).
 * Scale 0–1.
 */
import { SpanproofError } from '../../errors';
import { ngramCounts, sumCounts } from './ngrams';

/** `sys.float_info.min`: the smallest normal double, NLTK method0's stand-in for a zero precision. */
export const PY_FLOAT_MIN = 2.2250738585072014e-308;

/** A precision: a Fraction kept un-normalised (`num`/`den`), or a plain float after smoothing (`num`,`den` NaN). */
interface Prec { v: number; num: number; den: number }
const frac = (num: number, den: number): Prec => ({ v: num / den, num, den });
const flt = (v: number): Prec => ({ v, num: NaN, den: NaN });

export interface NltkModifiedPrecision { numerator: number; denominator: number; value: number }

/** NLTK `modified_precision`: clipped n-gram matches / max(1, hypothesis n-grams). */
export function nltkModifiedPrecision(references: readonly (readonly string[])[], hypothesis: readonly string[], n: number): NltkModifiedPrecision {
  const counts = ngramCounts(hypothesis, n);
  const maxCounts = new Map<string, number>();
  for (const ref of references) {
    const rc = ngramCounts(ref, n);
    for (const g of counts.keys()) maxCounts.set(g, Math.max(maxCounts.get(g) ?? 0, rc.get(g) ?? 0));
  }
  let numerator = 0;
  for (const [g, c] of counts) numerator += Math.min(c, maxCounts.get(g) ?? 0);
  const denominator = Math.max(1, sumCounts(counts));
  return { numerator, denominator, value: numerator / denominator };
}

/** NLTK `closest_ref_length`: the reference length closest to `hypLen`; the shorter one on a tie. */
export function nltkClosestRefLength(references: readonly (readonly string[])[], hypLen: number): number {
  let best = -1;
  for (const r of references) {
    const len = r.length;
    if (best < 0 || Math.abs(len - hypLen) < Math.abs(best - hypLen) || (Math.abs(len - hypLen) === Math.abs(best - hypLen) && len < best)) best = len;
  }
  return best;
}

/** NLTK `brevity_penalty(closest_ref_len, hyp_len)`: 1 if c > r; 0 if c = 0; else exp(1 − r/c). */
export function nltkBrevityPenalty(closestRefLen: number, hypLen: number): number {
  if (hypLen > closestRefLen) return 1;
  if (hypLen === 0) return 0;
  return Math.exp(1 - closestRefLen / hypLen);
}

export type NltkSmoothingMethod = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7;

export interface NltkBleuOptions {
  /** N-gram weights (default [0.25, 0.25, 0.25, 0.25]); any length. */
  weights?: readonly number[];
  /** `SmoothingFunction().methodN`; default 0 (no smoothing, NLTK's default). */
  smoothing?: NltkSmoothingMethod;
  /** SmoothingFunction(epsilon=0.1, alpha=5, k=5) parameters. */
  epsilon?: number;
  alpha?: number;
  k?: number;
  /** NLTK `auto_reweigh`: uniform weights over the hypothesis length when it is < 4 and weights are the default. */
  autoReweigh?: boolean;
}

/** Correctly rounded sum (Python `math.fsum`, Shewchuk's algorithm). */
export function fsum(values: Iterable<number>): number {
  const partials: number[] = [];
  for (let x of values) {
    let i = 0;
    for (let y of partials) {
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) partials[i++] = lo;
      x = hi;
    }
    partials.length = i;
    partials.push(x);
  }
  let n = partials.length;
  if (n === 0) return 0;
  let hi = partials[--n];
  let lo = 0;
  while (n > 0) {
    const x = hi;
    const y = partials[--n];
    hi = x + y;
    const yr = hi - x;
    lo = y - yr;
    if (lo !== 0) break;
  }
  if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
    const y = lo * 2;
    const x = hi + y;
    if (y === x - hi) hi = x;
  }
  return hi;
}

function smooth(
  method: NltkSmoothingMethod,
  pIn: Prec[],
  ctx: { references: readonly (readonly string[])[]; hypothesis: readonly string[]; hypLen: number },
  o: { epsilon: number; alpha: number; k: number },
): Prec[] {
  const p = [...pIn];
  switch (method) {
    case 0:
      return p.map((x) => (x.num !== 0 ? x : flt(PY_FLOAT_MIN)));
    case 1:
      return p.map((x) => (x.num === 0 ? flt((x.num + o.epsilon) / x.den) : x));
    case 2:
      return p.map((x, i) => (i !== 0 ? frac(x.num + 1, x.den + 1) : x));
    case 3: {
      let inc = 1;
      for (let i = 0; i < p.length; i++) {
        if (p[i].num === 0) {
          p[i] = flt(1 / (Math.pow(2, inc) * p[i].den));
          inc++;
        }
      }
      return p;
    }
    case 4: {
      let inc = 1;
      const hypLen = ctx.hypLen ? ctx.hypLen : ctx.hypothesis.length;
      for (let i = 0; i < p.length; i++) {
        if (p[i].num === 0 && hypLen > 1) {
          const numerator = 1 / ((Math.pow(2, inc) * o.k) / Math.log(hypLen));
          p[i] = flt(numerator / p[i].den);
          inc++;
        }
      }
      return p;
    }
    case 5: {
      const plus1 = [...p, ((): Prec => {
        const m = nltkModifiedPrecision(ctx.references, ctx.hypothesis, 5);
        return frac(m.numerator, m.denominator);
      })()];
      let prev = p[0].v + 1;
      for (let i = 0; i < p.length; i++) {
        const v = (prev + p[i].v + plus1[i + 1].v) / 3;
        p[i] = flt(v);
        prev = v;
      }
      return p;
    }
    case 6: {
      if (p.length < 3 || !(p[2].v !== 0)) {
        throw new SpanproofError('bad-input', 'NLTK smoothing method6 requires a non-zero trigram precision (NLTK asserts p_n[2]).', {
          field: 'smoothing', fix: 'Use another smoothing method for this hypothesis, or weights of at least 3 orders with a trigram match.',
        });
      }
      for (let i = 2; i < p.length; i++) {
        const pi0 = p[i - 2].v === 0 ? 0 : (p[i - 1].v * p[i - 1].v) / p[i - 2].v;
        const m = p[i].num;
        const l = Math.max(0, ctx.hypothesis.length - i);
        p[i] = flt((m + o.alpha * pi0) / (l + o.alpha));
      }
      return p;
    }
    case 7: {
      const q = smooth(4, p, ctx, o);
      return smooth(5, q, ctx, o);
    }
    default:
      throw new SpanproofError('bad-input', `Unknown NLTK smoothing method ${String(method)}.`, { field: 'smoothing', fix: 'Use 0–7.' });
  }
}

/**
 * NLTK `corpus_bleu` for several weight vectors at once (NLTK's list-of-weights form).
 * `listOfReferences[i]` are the references of `hypotheses[i]`.
 */
export function nltkCorpusBleuMulti(
  listOfReferences: readonly (readonly (readonly string[])[])[],
  hypotheses: readonly (readonly string[])[],
  weightsList: readonly (readonly number[])[],
  options: Omit<NltkBleuOptions, 'weights'> = {},
): number[] {
  if (listOfReferences.length !== hypotheses.length) {
    throw new SpanproofError('bad-input', `corpus BLEU needs one reference list per hypothesis (${listOfReferences.length} vs ${hypotheses.length}).`, {
      field: 'references', fix: 'Give the same number of reference lists and hypotheses.',
    });
  }
  for (let s = 0; s < hypotheses.length; s++) {
    if (listOfReferences[s].length === 0) {
      throw new SpanproofError('bad-input', `Hypothesis ${s} has no reference (NLTK raises ValueError).`, {
        field: `references[${s}]`, fix: 'Give at least one reference per hypothesis.',
      });
    }
    if (!Array.isArray(hypotheses[s]) || !listOfReferences[s].every((r) => Array.isArray(r))) {
      throw new SpanproofError('bad-input', `NLTK BLEU expects tokenised input (arrays of tokens) for sentence ${s}.`, {
        field: `hypotheses[${s}]`, fix: 'Split hypotheses and references into tokens first, or use sacreBLEU for detokenised strings.',
      });
    }
  }
  const maxOrder = Math.max(...weightsList.map((w) => w.length));
  const num = new Array<number>(maxOrder + 1).fill(0);
  const den = new Array<number>(maxOrder + 1).fill(0);
  let hypLengths = 0;
  let refLengths = 0;
  for (let s = 0; s < hypotheses.length; s++) {
    for (let i = 1; i <= maxOrder; i++) {
      const p = nltkModifiedPrecision(listOfReferences[s], hypotheses[s], i);
      num[i] += p.numerator;
      den[i] += p.denominator;
    }
    const hl = hypotheses[s].length;
    hypLengths += hl;
    refLengths += nltkClosestRefLength(listOfReferences[s], hl);
  }
  const bp = nltkBrevityPenalty(refLengths, hypLengths);
  if (num[1] === 0) return weightsList.map(() => 0);
  let pn: Prec[] = [];
  for (let i = 1; i <= maxOrder; i++) pn.push(frac(num[i], den[i]));
  const last = hypotheses.length - 1;
  pn = smooth(options.smoothing ?? 0, pn, { references: listOfReferences[last] ?? [], hypothesis: hypotheses[last] ?? [], hypLen: hypLengths }, {
    epsilon: options.epsilon ?? 0.1, alpha: options.alpha ?? 5, k: options.k ?? 5,
  });
  return weightsList.map((w0) => {
    let w = w0;
    if (options.autoReweigh && hypLengths < 4 && w.length === 4 && w.every((x) => x === 0.25)) w = new Array(hypLengths).fill(1 / hypLengths);
    const terms: number[] = [];
    for (let i = 0; i < Math.min(w.length, pn.length); i++) if (pn[i].v > 0) terms.push(w[i] * Math.log(pn[i].v));
    return bp * Math.exp(fsum(terms));
  });
}

/** NLTK `corpus_bleu` (pools clipped counts and lengths over the corpus; not the mean of sentence BLEUs). */
export function nltkCorpusBleu(
  listOfReferences: readonly (readonly (readonly string[])[])[],
  hypotheses: readonly (readonly string[])[],
  options: NltkBleuOptions = {},
): number {
  return nltkCorpusBleuMulti(listOfReferences, hypotheses, [options.weights ?? [0.25, 0.25, 0.25, 0.25]], options)[0];
}

/** NLTK `sentence_bleu(references, hypothesis)` = `corpus_bleu([references], [hypothesis])`. */
export function nltkSentenceBleu(references: readonly (readonly string[])[], hypothesis: readonly string[], options: NltkBleuOptions = {}): number {
  return nltkCorpusBleu([references], [hypothesis], options);
}
