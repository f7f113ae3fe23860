/**
 * BLEU exactly as sacreBLEU 2.x computes it (`sacrebleu/metrics/bleu.py`, `sacrebleu/tokenizers/`):
 * detokenised strings in, tokenised internally (`13a` default, `intl`, `char`, `none`), optional
 * lowercasing, smoothing `exp` (default; mteval-v13a method 3: the k-th zero-match order gets
 * 100 / (2^k · total_n)), `floor` (default 0.1), `add-k` (default 1, orders ≥ 2) or `none`.
 * `sentence` uses `effective_order=true`; `corpus` does not (unless asked). No n-gram match at all
 * → 0 whatever the smoothing (sacreBLEU #141). Scores are on sacreBLEU's 0–100 scale.
 * References are given per hypothesis (`references[i]` = all references of hypothesis i), not as
 * sacreBLEU's transposed streams.
 */
import { SpanproofError } from '../../errors';
import { ngramCounts, pyRstrip, pySplit } from './ngrams';

export type SacreTokenizer = '13a' | 'intl' | 'char' | 'none';
export type SacreSmoothing = 'exp' | 'floor' | 'add-k' | 'none';

/** sacreBLEU `SMOOTH_DEFAULTS`. */
export const SACRE_SMOOTH_DEFAULTS: Record<SacreSmoothing, number | null> = { none: null, floor: 0.1, 'add-k': 1, exp: null };

/** sacreBLEU `TokenizerRegexp` (the language-dependent part of 13a; mteval-v13a.pl). */
function tokenizeRegexp(line: string): string {
  line = line.replace(/([{-~[-` -&(-+:-@/])/g, ' $1 ');
  line = line.replace(/([^0-9])([.,])/g, '$1 $2 ');
  line = line.replace(/([.,])([^0-9])/g, ' $1 $2');
  line = line.replace(/([0-9])(-)/g, '$1 $2 ');
  return pySplit(line).join(' ');
}

/** sacreBLEU `Tokenizer13a` (mteval-v13a.pl). */
export function tokenize13a(line: string): string {
  line = line.split('<skipped>').join('');
  line = line.split('-\n').join('');
  line = line.split('\n').join(' ');
  if (line.includes('&')) {
    line = line.split('&quot;').join('"');
    line = line.split('&amp;').join('&');
    line = line.split('&lt;').join('<');
    line = line.split('&gt;').join('>');
  }
  return tokenizeRegexp(` ${line} `);
}

/** sacreBLEU `TokenizerV14International` (mteval-v14 `--international-tokenization`). */
export function tokenizeIntl(line: string): string {
  line = line.replace(/(\P{N})(\p{P})/gu, '$1 $2 ');
  line = line.replace(/(\p{P})(\P{N})/gu, ' $1 $2');
  line = line.replace(/(\p{S})/gu, ' $1 ');
  return pySplit(line).join(' ');
}

/** sacreBLEU `TokenizerChar`: every code point a token (whitespace dropped by the later split). */
export function tokenizeChar(line: string): string {
  return Array.from(line).join(' ');
}

export function sacreTokenize(line: string, tokenizer: SacreTokenizer): string {
  switch (tokenizer) {
    case '13a': return tokenize13a(line);
    case 'intl': return tokenizeIntl(line);
    case 'char': return tokenizeChar(line);
    case 'none': return line;
    default: throw new SpanproofError('bad-input', `Unknown sacreBLEU tokenizer "${String(tokenizer)}".`, { field: 'tokenize', fix: 'Use 13a, intl, char or none.' });
  }
}

export interface SacreBleuOptions {
  tokenize?: SacreTokenizer;
  smoothMethod?: SacreSmoothing;
  /** Smoothing value for floor / add-k (null → sacreBLEU's default). */
  smoothValue?: number | null;
  lowercase?: boolean;
  maxNgramOrder?: number;
  effectiveOrder?: boolean;
}

export interface SacreBleuScore {
  /** BLEU on the 0–100 scale. */
  score: number;
  counts: number[];
  totals: number[];
  precisions: number[];
  bp: number;
  sysLen: number;
  refLen: number;
  /** Signature-like description of what was computed, e.g. `nrefs:2|tok:13a|smooth:exp|case:mixed|eff:no`. */
  signature: string;
}

/**
 * sacreBLEU `BLEU.compute_bleu` from sufficient statistics.
 * `correct[n-1]`/`total[n-1]`: matched/total n-grams of order n; lengths in tokens.
 */
export function sacreComputeBleu(
  correctIn: readonly number[],
  totalIn: readonly number[],
  sysLen: number,
  refLen: number,
  opts: { smoothMethod?: SacreSmoothing; smoothValue?: number | null; effectiveOrder?: boolean; maxNgramOrder?: number } = {},
): Omit<SacreBleuScore, 'signature'> {
  const method = opts.smoothMethod ?? 'none';
  if (!(method in SACRE_SMOOTH_DEFAULTS)) {
    throw new SpanproofError('bad-input', `Unknown sacreBLEU smoothing "${method}".`, { field: 'smooth_method', fix: 'Use exp, floor, add-k or none.' });
  }
  const smoothValue = opts.smoothValue ?? SACRE_SMOOTH_DEFAULTS[method] ?? 0;
  const maxOrder = opts.maxNgramOrder ?? 4;
  const correct = [...correctIn];
  const total = [...totalIn];
  const bp = sysLen < refLen ? (sysLen > 0 ? Math.exp(1 - refLen / sysLen) : 0) : 1;
  const precisions = new Array<number>(maxOrder).fill(0);
  if (!correct.some((c) => c !== 0)) return { score: 0, counts: correct, totals: total, precisions, bp, sysLen, refLen };
  let smoothMteval = 1;
  let effOrder = maxOrder;
  for (let n = 1; n <= maxOrder; n++) {
    if (method === 'add-k' && n > 1) {
      correct[n - 1] += smoothValue;
      total[n - 1] += smoothValue;
    }
    if (total[n - 1] === 0) break;
    if (opts.effectiveOrder) effOrder = n;
    if (correct[n - 1] === 0) {
      if (method === 'exp') {
        smoothMteval *= 2;
        precisions[n - 1] = 100 / (smoothMteval * total[n - 1]);
      } else if (method === 'floor') {
        precisions[n - 1] = (100 * smoothValue) / total[n - 1];
      }
    } else {
      precisions[n - 1] = (100 * correct[n - 1]) / total[n - 1];
    }
  }
  let s = 0;
  for (const p of precisions.slice(0, effOrder)) s += p === 0 ? -9999999999 : Math.log(p);
  const score = bp * Math.exp(s / effOrder);
  return { score, counts: correct, totals: total, precisions, bp, sysLen, refLen };
}

function closestRefLen(hypLen: number, refLens: readonly number[]): number {
  let closestDiff = -1;
  let closestLen = -1;
  for (const r of refLens) {
    const diff = Math.abs(hypLen - r);
    if (closestDiff === -1 || diff < closestDiff) {
      closestDiff = diff;
      closestLen = r;
    } else if (diff === closestDiff && r < closestLen) {
      closestLen = r;
    }
  }
  return closestLen;
}

function preprocess(s: string, o: SacreBleuOptions): string {
  const t = o.lowercase ? s.toLowerCase() : s;
  return sacreTokenize(pyRstrip(t), o.tokenize ?? '13a');
}

/**
 * sacreBLEU `corpus_bleu(hypotheses, [refs_stream_1, …])`, with references given per hypothesis.
 * Defaults: tokenize 13a, smoothing exp, case-sensitive, order 4, effective order off.
 * @throws SpanproofError('bad-input') when the counts differ or a hypothesis has no reference.
 */
export function sacreCorpusBleu(hypotheses: readonly string[], references: readonly (readonly string[])[], options: SacreBleuOptions = {}): SacreBleuScore {
  const o: SacreBleuOptions = { tokenize: '13a', smoothMethod: 'exp', lowercase: false, maxNgramOrder: 4, effectiveOrder: false, ...options };
  const maxOrder = o.maxNgramOrder!;
  if (hypotheses.length !== references.length) {
    throw new SpanproofError('bad-input', `sacreBLEU needs one reference list per hypothesis (${references.length} vs ${hypotheses.length}).`, {
      field: 'references', fix: 'Give the same number of reference lists and hypotheses.',
    });
  }
  const correct = new Array<number>(maxOrder).fill(0);
  const total = new Array<number>(maxOrder).fill(0);
  let sysLen = 0;
  let refLen = 0;
  let nrefs = 0;
  for (let i = 0; i < hypotheses.length; i++) {
    const refs = references[i];
    if (refs.length === 0) throw new SpanproofError('bad-input', `Hypothesis ${i} has no reference.`, { field: `references[${i}]`, fix: 'Give at least one reference per hypothesis.' });
    nrefs = Math.max(nrefs, refs.length);
    const hypToks = pySplit(preprocess(hypotheses[i], o));
    const refToks = refs.map((r) => pySplit(preprocess(r, o)));
    sysLen += hypToks.length;
    refLen += closestRefLen(hypToks.length, refToks.map((r) => r.length));
    for (let n = 1; n <= maxOrder; n++) {
      const h = ngramCounts(hypToks, n);
      const maxRef = new Map<string, number>();
      for (const r of refToks) for (const [g, c] of ngramCounts(r, n)) if (c > (maxRef.get(g) ?? 0)) maxRef.set(g, c);
      for (const [g, c] of h) {
        total[n - 1] += c;
        correct[n - 1] += Math.min(c, maxRef.get(g) ?? 0);
      }
    }
  }
  const r = sacreComputeBleu(correct, total, sysLen, refLen, { smoothMethod: o.smoothMethod, smoothValue: o.smoothValue, effectiveOrder: o.effectiveOrder, maxNgramOrder: maxOrder });
  const smooth = o.smoothMethod === 'floor' || o.smoothMethod === 'add-k' ? `${o.smoothMethod}[${(o.smoothValue ?? SACRE_SMOOTH_DEFAULTS[o.smoothMethod!])}]` : o.smoothMethod;
  return { ...r, signature: `nrefs:${nrefs}|tok:${o.tokenize}|smooth:${smooth}|case:${o.lowercase ? 'lc' : 'mixed'}|eff:${o.effectiveOrder ? 'yes' : 'no'}|order:${maxOrder}` };
}

/** sacreBLEU `sentence_bleu(hypothesis, references)`: corpus BLEU of one segment with `effective_order=true`. */
export function sacreSentenceBleu(hypothesis: string, references: readonly string[], options: SacreBleuOptions = {}): SacreBleuScore {
  return sacreCorpusBleu([hypothesis], [references], { effectiveOrder: true, ...options });
}
