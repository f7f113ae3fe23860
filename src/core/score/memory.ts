/**
 * The memory-eval format (LuochuanAD/Evaluation_RAG_Memory `evaluation.py`, SEED-SYSTEMS.md §C):
 * a JSON array of `{query, context: [str], generated_answer, reference_answer}`.
 *
 * Per item: hit_rate = |kw(ref) ∩ kw(gen)| / max(|kw(ref)|, 1); predicted correct when hit_rate > 0.7
 * (strict); coverage = |(∪ kw(context)) ∩ kw(ref)| / max(|kw(ref)|, 1). Keywords: lowercased tokens of
 * more than one character, deduplicated (`src/core/metrics/generation/keywords.ts`).
 *
 * Fixed against the original:
 * - L1: keywords come from `Intl.Segmenter` word segmentation (CJK segmented), so Chinese answers are
 *   not one token per clause; `tokenizer: "memory-eval"` reproduces the original `\w+` tokens.
 * - L2/L3: the true label is per item (`label`/`is_correct`/`y_true` field) or one `label` for the file
 *   (what the original did); accuracy = (TP+TN)/N, precision = TP/(TP+FP), recall = TP/(TP+FN),
 *   F1 = 2PR/(P+R) for the positive class from the real confusion counts; an undefined ratio (0/0) is
 *   `null` with the reason, never 0.
 * - L4: latency is the system's when the items carry `latency_ms` (and/or `retrieval_ms`,
 *   `generation_ms`); the scorer's own time is reported separately as `scorerMs`.
 * - L5: coverage is averaged unrounded.
 * Means of hit rate, correctness and coverage carry a 95% percentile-bootstrap CI over items.
 */
import { MAX_JSON_DEPTH, jsonParseError, tooDeepPath } from '../files';
import { SpanproofError } from '../errors';
import { keywordSet, type KeywordTokenizer } from '../metrics/generation';
import { bootstrapResamples, percentileCI, type MeanCI } from '../stats';
import { readTextFile, requirePath } from '../import/common';

export interface MemoryItem {
  /** 0-based index in the array. */
  index: number;
  query: string;
  context: string[];
  generated: string;
  reference: string;
  /** The item's true label when the file carries one. */
  label?: 0 | 1;
  latencyMs?: number;
  retrievalMs?: number;
  generationMs?: number;
}

export interface MemoryEvalOptions {
  /** Default `unicode` (CJK segmented); `memory-eval` = the original `\w+`. */
  tokenizer?: KeywordTokenizer;
  /** Default 0.7 (strict >). */
  threshold?: number;
  /** One true label for every item without its own (the original passed 1 or 0 per file). */
  label?: 0 | 1;
  resamples?: number;
  seed?: number;
}

type Ratio = { value: number | null; reason?: string };

export interface MemoryEvalReport {
  input: string;
  n: number;
  tokenizer: KeywordTokenizer;
  threshold: number;
  perItem: Array<{ index: number; hitRate: number; predicted: 0 | 1; label: 0 | 1 | null; coverage: number; referenceKeywords: number }>;
  hitRate: MeanCI;
  /** Share predicted correct (hit_rate > threshold), with CI. */
  predictedCorrect: MeanCI;
  coverage: MeanCI;
  /** Present when every item has a true label. */
  confusion: { tp: number; tn: number; fp: number; fn: number } | null;
  accuracy: Ratio & { ci?: MeanCI };
  precision: Ratio;
  recall: Ratio;
  f1: Ratio;
  latency: { latencyMs: number | null; retrievalMs: number | null; generationMs: number | null; measured: number };
  /** Time the scorer itself took (what the original reported as latency, L4). */
  scorerMs: number;
  notes: string[];
}

const LABEL_KEYS = ['label', 'is_correct', 'y_true'];

/**
 * Reads a memory-eval JSON array.
 * @throws SpanproofError('bad-input') naming the file, the item index and field, and the fix.
 */
export function readMemoryEval(file: string): MemoryItem[] {
  requirePath(file, false, 'pass the path of a memory-eval JSON file.');
  const text = readTextFile(file, 'memory-eval JSON');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw jsonParseError(text, file, 'correct the JSON syntax there (a JSON array of {query, context, generated_answer, reference_answer}).', e);
  }
  const deep = tooDeepPath(data);
  if (deep) throw new SpanproofError('bad-input', `nested more than ${MAX_JSON_DEPTH} levels deep; not read.`, { file, field: deep, fix: 'a JSON array of {query, context, generated_answer, reference_answer}.' });
  if (!Array.isArray(data)) throw new SpanproofError('bad-input', 'expected a JSON array of items.', { file, field: '$', fix: 'wrap the items in [ … ].' });
  return data.map((o: Record<string, unknown>, index) => {
    const field = (k: string): string => {
      const v = o?.[k];
      if (typeof v !== 'string') throw new SpanproofError('bad-input', `"${k}" is ${v === undefined ? 'missing' : 'not a string'}.`, { file, field: `[${index}].${k}`, fix: `give every item a string "${k}".` });
      return v;
    };
    const ctx = o?.context ?? [];
    if (!Array.isArray(ctx) || !ctx.every((c) => typeof c === 'string')) throw new SpanproofError('bad-input', '"context" is not a list of strings.', { file, field: `[${index}].context`, fix: 'use ["fact 1", "fact 2"].' });
    let label: 0 | 1 | undefined;
    for (const k of LABEL_KEYS) {
      const v = o[k];
      if (v === undefined) continue;
      if (v === true || v === 1) label = 1;
      else if (v === false || v === 0) label = 0;
      else throw new SpanproofError('bad-input', `"${k}" must be true/false or 1/0.`, { file, field: `[${index}].${k}`, fix: 'use true/false.' });
    }
    const num = (k: string): number | undefined => (typeof o[k] === 'number' && Number.isFinite(o[k]) ? (o[k] as number) : undefined);
    return { index, query: typeof o.query === 'string' ? o.query : '', context: ctx as string[], generated: field('generated_answer'), reference: field('reference_answer'), label, latencyMs: num('latency_ms'), retrievalMs: num('retrieval_ms'), generationMs: num('generation_ms') };
  });
}

const ratio = (num: number, den: number, what: string): Ratio => (den === 0 ? { value: null, reason: `undefined: ${what} is 0` } : { value: num / den });

/** Scores memory-eval items (see the module doc for every formula). */
export function scoreMemoryEval(input: string, items: readonly MemoryItem[], options: MemoryEvalOptions = {}): MemoryEvalReport {
  const t0 = performance.now();
  const tokenizer = options.tokenizer ?? 'unicode';
  const threshold = options.threshold ?? 0.7;
  const perItem: MemoryEvalReport['perItem'] = items.map((it) => {
    const ref = keywordSet(it.reference, tokenizer);
    const gen = keywordSet(it.generated, tokenizer);
    const ctx = new Set<string>();
    for (const c of it.context) for (const k of keywordSet(c, tokenizer)) ctx.add(k);
    let m = 0;
    let cov = 0;
    for (const k of ref) { if (gen.has(k)) m++; if (ctx.has(k)) cov++; }
    const hitRate = m / Math.max(ref.size, 1);
    const label = it.label ?? options.label ?? null;
    return { index: it.index, hitRate, predicted: hitRate > threshold ? 1 : 0, label, coverage: cov / Math.max(ref.size, 1), referenceKeywords: ref.size };
  });
  const rs = bootstrapResamples(items.length, options.resamples ?? 2000, options.seed ?? 42);
  const ci = (xs: number[]): MeanCI => (xs.length ? percentileCI(xs, rs) : { mean: NaN, lo: NaN, hi: NaN });
  const labelled = perItem.every((p) => p.label !== null) && perItem.length > 0;
  let confusion: MemoryEvalReport['confusion'] = null;
  let accuracy: MemoryEvalReport['accuracy'] = { value: null, reason: 'no true labels: give each item "label": true/false, or pass --label 1|0 for the whole file' };
  let precision: Ratio = { ...accuracy };
  let recall: Ratio = { ...accuracy };
  let f1: Ratio = { ...accuracy };
  if (labelled) {
    confusion = { tp: 0, tn: 0, fp: 0, fn: 0 };
    for (const p of perItem) {
      if (p.predicted === 1) { if (p.label === 1) confusion.tp++; else confusion.fp++; } else if (p.label === 0) confusion.tn++; else confusion.fn++;
    }
    const { tp, tn, fp, fn } = confusion;
    accuracy = { ...ratio(tp + tn, perItem.length, 'N'), ci: ci(perItem.map((p) => (p.predicted === p.label ? 1 : 0))) };
    precision = ratio(tp, tp + fp, 'TP+FP (nothing predicted correct)');
    recall = ratio(tp, tp + fn, 'TP+FN (no item labelled correct)');
    f1 = precision.value === null || recall.value === null ? { value: null, reason: 'undefined: precision or recall is undefined' } : precision.value + recall.value === 0 ? { value: 0 } : { value: (2 * precision.value * recall.value) / (precision.value + recall.value) };
  }
  const lat = (k: 'latencyMs' | 'retrievalMs' | 'generationMs'): number | null => {
    const xs = items.map((i) => i[k]).filter((x): x is number => x !== undefined);
    return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
  };
  const notes: string[] = [
    tokenizer === 'unicode' ? 'keywords: Intl.Segmenter word segments (Chinese segmented), lowercased, > 1 character (single CJK characters kept).' : 'keywords: the original \\w+ tokens (Chinese clauses are single tokens: bug L1).',
    `correct when hit_rate > ${threshold}; precision/recall/F1 of the positive class from the confusion counts; coverage unrounded.`,
  ];
  if (labelled && new Set(perItem.map((p) => p.label)).size === 1) notes.push('every item has the same true label: precision is 0 or 1 and recall equals accuracy (L2); label items individually for meaningful precision/recall.');
  const latency = { latencyMs: lat('latencyMs'), retrievalMs: lat('retrievalMs'), generationMs: lat('generationMs'), measured: items.filter((i) => i.latencyMs !== undefined || i.retrievalMs !== undefined || i.generationMs !== undefined).length };
  if (!latency.measured) notes.push('no latency fields (latency_ms, retrieval_ms, generation_ms) in the items: system latency not measured; scorerMs is the scorer\'s own time, not the system\'s (L4).');
  return {
    input, n: items.length, tokenizer, threshold, perItem,
    hitRate: ci(perItem.map((p) => p.hitRate)), predictedCorrect: ci(perItem.map((p) => p.predicted)), coverage: ci(perItem.map((p) => p.coverage)),
    confusion, accuracy, precision, recall, f1, latency, scorerMs: performance.now() - t0, notes,
  };
}
