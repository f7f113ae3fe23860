/**
 * The open run as the panel shows it: configs in rank order with what each column reads, the verdict,
 * the questions in ground-truth order and a record index. Built once per loaded run (RunData identity).
 * Reads both ranking.json formats: 1 (an array of entries, the old rule) and 2 (src/core/ranking
 * `RankingFile`: `{spanproof: 2, verdict, configs}`, SPEC §9 v2). Metric keys and labels come from the
 * metric registry at the run's real k (`hit@10` when k = 10); the dominant cause is src/core's.
 */
import { metricKey, metricLabel } from '../src/core/metrics/registry';
import { dominantCause, type DominantCause, type RankedConfig, type RankingFile, type Verdict } from '../src/core/ranking';
import type { ConfigResult, MeanCI, QuestionRecord, RankingEntry, ResultsFile, RunData } from '../src/shared/protocol';

export { metricLabel };

/** One config as the ranking table and the charts read it. */
export interface ConfigRow {
  id: string;
  rank: number;
  /** Format 2: Q mean (what the quality order sorts by first); format 1: the old weighted score. */
  score: number | null;
  pareto: boolean;
  recommended: boolean;
  explanation: string;
  /** The primary metric with its 95% CI. */
  q: MeanCI | null;
  mrr: number | null;
  ndcg: number | null;
  /** Paired 95% CI of (this − best); format 1: results.json `vsTop` (against its own quality top). */
  diffVsBest: MeanCI | null;
  /** Holm-adjusted p-value of the difference to the best (format 2; null for the best). */
  pHolm: number | null;
  /** CI lower bound of (this − best) ≥ −δ (format 2 only). */
  nonInferior: boolean | null;
  /** Significantly worse than the best (Holm-adjusted in format 2; unadjusted `vsTop` in format 1). */
  significant: boolean | null;
  best: boolean;
  /** Mean context at k and its unit (format 2: the verdict's deterministic cost; format 1: characters or tokens). */
  context: { value: number; unit: 'tokens' | 'characters' };
  /** Deterministic compute cost per query (format 2: Σ passes × parameters / 10⁶). */
  compute: number | null;
  latencyMs: number | null;
  dominant: DominantCause | null;
  c: ConfigResult;
}

export interface RunModel {
  data: RunData;
  results: ResultsFile;
  /** ranking.json format (1 = old rule, 2 = SPEC §9 v2); null when the run has no ranking.json. */
  format: 1 | 2 | null;
  k: number;
  /** Key of the primary metric in results.json `configs[].metrics` (`hit@k`, `mrr`, …). */
  primary: string;
  /** Per-record hit key at the run's k (`hit@10` when k = 10). */
  hitKey: string;
  /** Per-record coverage key at the run's k. */
  coverageKey: string;
  ndcgKey: string;
  /** ranking.json format 2 `verdict` (null for format 1). */
  verdict: Verdict | null;
  /** In rank order. */
  rows: ConfigRow[];
  /** Question ids in ground-truth order (evidence.json), then any others that have records. */
  questionIds: string[];
  questionText(id: string): string;
  record(question: string, config: string): QuestionRecord | undefined;
}

function isRankingV2(x: unknown): x is RankingFile {
  const o = x as { spanproof?: unknown; configs?: unknown; verdict?: unknown } | null;
  return !!o && !Array.isArray(o) && o.spanproof === 2 && Array.isArray(o.configs) && typeof o.verdict === 'object';
}

function rowV2(c: ConfigResult, r: RankedConfig, primary: string): ConfigRow {
  const metrics = c.metrics as Record<string, MeanCI | undefined>;
  return {
    id: c.id,
    rank: r.rank,
    score: r.score,
    pareto: r.pareto,
    recommended: r.recommended,
    explanation: r.explanation,
    q: r.quality ?? metrics[primary] ?? null,
    mrr: r.mrr,
    ndcg: r.ndcg,
    diffVsBest: { mean: r.diffVsBest.mean, lo: r.diffVsBest.lo, hi: r.diffVsBest.hi },
    pHolm: r.pHolm,
    nonInferior: r.nonInferior,
    significant: r.best ? null : r.significantlyWorse,
    best: r.best,
    context: { value: r.cost.context, unit: r.cost.contextUnit },
    compute: r.cost.compute,
    latencyMs: r.latency?.medianMs ?? null,
    dominant: r.dominantCause !== undefined ? r.dominantCause : dominantCause(c.causes),
    c,
  };
}

function rowV1(c: ConfigResult, e: RankingEntry | undefined, primary: string, ndcgKey: string): ConfigRow {
  const metrics = c.metrics as Record<string, MeanCI | undefined>;
  const diff = c.vsTop?.diff ?? null;
  return {
    id: c.id,
    rank: e?.rank ?? c.rank,
    score: e?.score ?? null,
    pareto: e?.pareto ?? false,
    recommended: e?.recommended ?? false,
    explanation: e?.explanation ?? c.explanation,
    q: metrics[primary] ?? null,
    mrr: metrics.mrr?.mean ?? null,
    ndcg: metrics[ndcgKey]?.mean ?? null,
    diffVsBest: diff ? { mean: diff.mean, lo: diff.lo, hi: diff.hi } : null,
    pHolm: null,
    nonInferior: null,
    significant: c.vsTop?.significant ?? null,
    best: c.vsTop === null,
    context: c.contextTokens !== undefined ? { value: c.contextTokens, unit: 'tokens' } : { value: c.contextChars, unit: 'characters' },
    compute: null,
    latencyMs: e?.latencyMs ?? null,
    dominant: dominantCause(c.causes),
    c,
  };
}

function build(data: RunData, results: ResultsFile): RunModel {
  const raw: unknown = data.ranking;
  const v2 = isRankingV2(raw) ? raw : null;
  const v1 = !v2 && Array.isArray(raw) ? (raw as RankingEntry[]) : null;
  const k = results.k;
  const primary = v2?.verdict.primaryMetric ?? results.primaryMetric;
  const ndcgKey = metricKey('ndcg', k);
  const byId1 = new Map((v1 ?? []).map((r) => [r.id, r] as const));
  const byId2 = new Map((v2?.configs ?? []).map((r) => [r.id, r] as const));
  const rows = results.configs
    .map((c) => {
      const r2 = byId2.get(c.id);
      return r2 ? rowV2(c, r2, primary) : rowV1(c, byId1.get(c.id), primary, ndcgKey);
    })
    .sort((a, b) => a.rank - b.rank || (a.id < b.id ? -1 : 1));
  const index = new Map(data.questions.map((r) => [`${r.question}\u0000${r.config}`, r] as const));
  const withRecords = new Set(data.questions.map((r) => r.question));
  const gtOrder = (data.evidence?.questions ?? []).map((q) => q.id).filter((id) => withRecords.has(id));
  const texts = new Map((data.evidence?.questions ?? []).map((q) => [q.id, q.question] as const));
  return {
    data,
    results,
    format: v2 ? 2 : v1 ? 1 : null,
    k,
    primary,
    hitKey: metricKey('hit', k),
    coverageKey: metricKey('coverage', k),
    ndcgKey,
    verdict: v2?.verdict ?? null,
    rows,
    questionIds: [...new Set([...gtOrder, ...withRecords])],
    questionText: (id) => texts.get(id) ?? id,
    record: (q, c) => index.get(`${q}\u0000${c}`),
  };
}

const cache = new WeakMap<RunData, RunModel | null>();

/** The model of a loaded run (memoised per RunData object); null when the run has no results.json. */
export function runModel(data: RunData | null): RunModel | null {
  if (!data) return null;
  let m = cache.get(data);
  if (m === undefined) {
    m = data.results ? build(data, data.results) : null;
    cache.set(data, m);
  }
  return m;
}

/** A record's value of a per-record metric key (`hit@10`, `coverage@10`), or null. */
export function recordValue(r: object | undefined, key: string): number | null {
  const v = r ? (r as Record<string, unknown>)[key] : undefined;
  return typeof v === 'number' ? v : null;
}
