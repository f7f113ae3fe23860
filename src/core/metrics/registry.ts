/**
 * The metric registry (SPEC §7.1, §9): every span metric that a run aggregates is defined here once —
 * its key, cutoff, formula, source, direction and how to read one question's value — and every surface
 * (results.json keys, the ranking, the CLI gate, reports, the webview) reads it from here.
 *
 * Keys follow ranx / trec_eval usage: `<name>@<cutoff>` (`hit@10`, `ndcg@5`, `coverage@10`), or a bare
 * name for a metric without a cutoff (`mrr`, `reachable`). A key's cutoff is always the cutoff it was
 * computed at: with k = 10 the run has `coverage@10`, never a `coverage@5` computed at 10.
 */
import { SpanproofError } from '../errors';

/** Metric families of the span metrics (SPEC §7.1). */
export const METRIC_FAMILIES = ['hit', 'coverage', 'ndcg', 'mrr', 'precision', 'iou', 'iou_chroma', 'precision_omega', 'reachable', 'exposure'] as const;
export type MetricFamily = (typeof METRIC_FAMILIES)[number];

/** Families that can be the primary metric Q of the verdict (SPEC §9). */
export const PRIMARY_FAMILIES: readonly MetricFamily[] = ['hit', 'coverage', 'ndcg', 'mrr'];

/** One metric at one cutoff. */
export interface MetricDef {
  /** Key as written in results.json `metrics` (`hit@5`, `mrr`). */
  key: string;
  family: MetricFamily;
  /** Cutoff k, or null for metrics without one (`mrr` uses the whole candidate pool). */
  cutoff: number | null;
  /** Short label for tables (`hit@5`, `MRR`, `nDCG@5`). */
  label: string;
  /** The formula in words and symbols (UTF-16 code units for lengths). */
  formula: string;
  /** Where the definition comes from. */
  source: string;
  /** Every span metric is better when higher; the injection exposure (a risk) when lower. */
  direction: 'higher-is-better' | 'lower-is-better';
  /** How to read one question's value. */
  perQuestion: string;
  /** Key of the per-question value in src/core/metrics/span.ts `questionMetrics` (`rr` for `mrr`). */
  questionKey: string;
  /** Values in [0, 1] that are 0 or 1 only (hit@k, reachable). */
  binary: boolean;
  /** The closed interval of the metric's values (and of its mean over questions): [0, 1] for every span metric. */
  range: readonly [number, number];
}

interface FamilyText {
  label: (c: number | null) => string;
  formula: (c: string) => string;
  perQuestion: (c: string) => string;
  source: string;
  binary: boolean;
  cutoff: boolean;
  direction?: MetricDef['direction'];
  /** Default {@link UNIT_RANGE}. */
  range?: MetricDef['range'];
}

/** [0, 1]: the range of every span metric (fractions of evidence, 0/1 hits, reciprocal ranks, normalised DCG). */
export const UNIT_RANGE: readonly [number, number] = [0, 1];

const SPEC = 'SPEC §7.1 (span metrics over UTF-16 code-unit intervals)';

const FAMILY: Readonly<Record<MetricFamily, FamilyText>> = {
  hit: {
    label: (c) => `hit@${c}`,
    formula: (c) => `1 if coverage@${c} ≥ τ (match "all": every span; "any": some span), else 0; mean over questions`,
    perQuestion: (c) => `1 = the top ${c} results hold at least τ of the evidence; 0 = they do not (a miss, with a cause)`,
    source: `${SPEC}; success@k of trec_eval with span alignment instead of ids`,
    binary: true,
    cutoff: true,
  },
  coverage: {
    label: (c) => `coverage@${c}`,
    formula: (c) => `|(∪R₁..R_${c}) ∩ e| / |e|: the fraction of the evidence covered by the top ${c} results`,
    perQuestion: (c) => `fraction of the evidence text inside the top ${c} results (0 to 1)`,
    source: SPEC,
    binary: false,
    cutoff: true,
  },
  ndcg: {
    label: (c) => `nDCG@${c}`,
    formula: (c) => `Σ_{i≤${c}} gᵢ / log2(i+1) over the ideal DCG of the chunker's index; gᵢ = evidence newly covered by Rᵢ / |E|`,
    perQuestion: (c) => `how early the top ${c} results cover the evidence, 1 = as early as this chunker's index allows`,
    source: `${SPEC}; Järvelin & Kekäläinen (2002) with coverage gains`,
    binary: false,
    cutoff: true,
  },
  mrr: {
    label: () => 'MRR',
    formula: () => 'mean over questions of 1/r*, r* = the smallest rank r with hit@r = 1 (0 when none in the candidate pool)',
    perQuestion: () => 'reciprocal rank: 1 = the first result holds the evidence, 0.5 = the second, 0 = none of the pool',
    source: `${SPEC}; Voorhees (1999), TREC-8 QA`,
    binary: false,
    cutoff: false,
  },
  precision: {
    label: (c) => `precision@${c}`,
    formula: (c) => `|(∪R₁..R_${c}) ∩ E| / |∪R₁..R_${c}|: the fraction of the retrieved text that is evidence`,
    perQuestion: (c) => `fraction of the top ${c} results' text that is evidence`,
    source: SPEC,
    binary: false,
    cutoff: true,
  },
  iou: {
    label: (c) => `IoU@${c}`,
    formula: (c) => `|(∪R₁..R_${c}) ∩ E| / |(∪R₁..R_${c}) ∪ E| (union form)`,
    perQuestion: (c) => `overlap of the top ${c} results with the evidence, over their union`,
    source: SPEC,
    binary: false,
    cutoff: true,
  },
  iou_chroma: {
    label: (c) => `IoU_chroma@${c}`,
    formula: (c) => `|(∪R₁..R_${c}) ∩ E| / (Σ|Rᵢ| + |E| − |(∪R) ∩ E|) (Chroma's form: overlaps counted twice)`,
    perQuestion: (c) => `Chroma's IoU of the top ${c} results, for comparison with their paper`,
    source: `${SPEC}; Chroma technical report "Evaluating Chunking Strategies for Retrieval" (2024)`,
    binary: false,
    cutoff: true,
  },
  precision_omega: {
    label: () => 'precision_Ω',
    formula: () => 'precision if every chunk touching the evidence were retrieved (a chunker-only ceiling)',
    perQuestion: () => 'best precision this chunker allows for the question',
    source: `${SPEC}; Chroma technical report (2024)`,
    binary: false,
    cutoff: false,
  },
  reachable: {
    label: () => 'reachable',
    formula: () => "1 if some single chunk of the index covers ≥ τ of the evidence (the chunker's ceiling)",
    perQuestion: () => '1 = some chunk holds the evidence; 0 = no retriever can get it in one chunk',
    source: SPEC,
    binary: true,
    cutoff: false,
  },
  exposure: {
    label: (c) => `exposure@${c}`,
    formula: (c) => `1 if some result among the top ${c} overlaps a planted canary instruction (|R ∩ C| > 0, same document), else 0; mean over questions`,
    perQuestion: (c) => `1 = the top ${c} results would hand a planted instruction to the generator; 0 = none of them holds one`,
    source: 'issue #17 injection exposure study (docs/safety.md); the XPIA kinds of the Azure AI evaluation document',
    binary: true,
    cutoff: true,
    direction: 'lower-is-better',
  },
};

const KEY_RE = /^([a-z_]+?)(?:@(\d+|k))?$/;

/**
 * Parses a metric key the way ranx writes them: `ndcg@5` → { family: 'ndcg', cutoff: 5 }, `mrr` →
 * { family: 'mrr', cutoff: null }. `@k` (`hit@k`) means the run's k and resolves to `k` when given.
 * Returns null for anything that is not a known family with a valid cutoff (families with a cutoff
 * need one ≥ 1; `mrr`, `precision_omega`, `reachable` take none).
 */
export function parseMetricKey(key: string, k?: number): { family: MetricFamily; cutoff: number | null } | null {
  const m = KEY_RE.exec(key.trim());
  if (!m) return null;
  const family = m[1] as MetricFamily;
  if (!(METRIC_FAMILIES as readonly string[]).includes(family)) return null;
  const text = FAMILY[family];
  if (!text.cutoff) return m[2] === undefined ? { family, cutoff: null } : null;
  if (m[2] === undefined) return null;
  const cutoff = m[2] === 'k' ? k : Number(m[2]);
  if (cutoff === undefined || !Number.isInteger(cutoff) || cutoff < 1) return null;
  return { family, cutoff };
}

/** The metric key of a family at a cutoff (`hit`, 10 → `hit@10`; `mrr` → `mrr`). */
export function metricKey(family: MetricFamily, cutoff: number | null): string {
  return FAMILY[family].cutoff ? `${family}@${cutoff}` : family;
}

/**
 * The definition of `key` (`hit@10`, `mrr`; `hit@k` with `k` given).
 * @throws SpanproofError('bad-input') naming the key when it is not a metric of the registry.
 */
export function metricDef(key: string, k?: number): MetricDef {
  const p = parseMetricKey(key, k);
  if (!p) {
    throw new SpanproofError('bad-input', `"${key}" is not a span metric.`, { field: 'metric', fix: `use one of ${METRIC_FAMILIES.map((f) => (FAMILY[f].cutoff ? `${f}@K` : f)).join(', ')} (K a whole number ≥ 1, or "k" for the run's k).` });
  }
  const t = FAMILY[p.family];
  const c = String(p.cutoff ?? '');
  return {
    key: metricKey(p.family, p.cutoff),
    family: p.family,
    cutoff: p.cutoff,
    label: t.label(p.cutoff),
    formula: t.formula(c),
    source: t.source,
    direction: t.direction ?? 'higher-is-better',
    perQuestion: t.perQuestion(c),
    questionKey: p.family === 'mrr' ? 'rr' : metricKey(p.family, p.cutoff),
    binary: t.binary,
    range: t.range ?? UNIT_RANGE,
  };
}

/** Short table label of `key` (`nDCG@5`, `MRR`); the key itself when it is not a registry metric. */
export function metricLabel(key: string): string {
  const p = parseMetricKey(key);
  return p ? FAMILY[p.family].label(p.cutoff) : key;
}

/** The fixed cutoffs of hit@ and nDCG@ every run reports besides k (SPEC §11 results.json). */
export const REPORTED_HIT_CUTOFFS: readonly number[] = [1, 3, 5, 10];
export const REPORTED_NDCG_CUTOFFS: readonly number[] = [5, 10];

/**
 * The keys of results.json `configs[].metrics` for a run at `k`, in order: hit@1, hit@3, hit@5,
 * hit@10 (and hit@k), mrr, ndcg@5, ndcg@10 (and ndcg@k), coverage@k, precision@k, iou@k,
 * iou_chroma@k, precision_omega, reachable — plus `primary` (e.g. `coverage@7`) when it is not among
 * them. With k = 5 this is exactly the key set Spanproof has always written.
 */
export function resultMetricKeys(k: number, primary?: string): string[] {
  const keys = [
    ...new Set([...REPORTED_HIT_CUTOFFS, k].map((c) => `hit@${c}`)),
    'mrr',
    ...new Set([...REPORTED_NDCG_CUTOFFS, k].map((c) => `ndcg@${c}`)),
    `coverage@${k}`,
    `precision@${k}`,
    `iou@${k}`,
    `iou_chroma@${k}`,
    'precision_omega',
    'reachable',
  ];
  if (primary && !keys.includes(primary)) keys.push(primary);
  return keys;
}

/** The default primary metric setting: hit@k at the run's k. */
export const DEFAULT_PRIMARY_METRIC = 'hit@k';

/**
 * Resolves the `primaryMetric` setting for a run at `k` and candidate-pool size `poolSize`: `hit@k`
 * → `hit@<k>`; any `hit@K`, `coverage@K`, `ndcg@K` (1 ≤ K ≤ poolSize) or `mrr` is valid.
 * @throws SpanproofError('bad-input') naming `primaryMetric` and the fix.
 */
export function resolvePrimaryMetric(setting: string, k: number, poolSize = Infinity): string {
  const p = parseMetricKey(setting, k);
  const fix = `set primaryMetric to hit@k (the default: hit at the run's k), hit@K, coverage@K, ndcg@K with K from 1 to poolSize (${poolSize}), or mrr.`;
  if (!p || !PRIMARY_FAMILIES.includes(p.family)) {
    throw new SpanproofError('bad-input', `primaryMetric "${setting}" cannot be the primary metric.`, { field: 'primaryMetric', fix });
  }
  if (p.cutoff !== null && p.cutoff > poolSize) {
    throw new SpanproofError('bad-input', `primaryMetric "${setting}" has cutoff ${p.cutoff}, larger than the candidate pool (poolSize ${poolSize}).`, { field: 'primaryMetric', fix });
  }
  return metricKey(p.family, p.cutoff);
}

/**
 * The extra cutoffs the per-question scoring must compute for `primary` (resolved key): its cutoff
 * when it is a hit/coverage/nDCG key, else none.
 */
export function primaryCutoffs(primary: string): { hitCoverage: number[]; ndcg: number[] } {
  const p = parseMetricKey(primary);
  if (!p || p.cutoff === null) return { hitCoverage: [], ndcg: [] };
  return p.family === 'ndcg' ? { hitCoverage: [], ndcg: [p.cutoff] } : { hitCoverage: [p.cutoff], ndcg: [] };
}

