/**
 * The open run as the panel shows it: configs in rank order with what each column reads, the verdict,
 * the questions in ground-truth order and a record index. Built once per loaded run (RunData identity).
 * Reads both ranking.json formats as src/core/ranking `rankingView` gives them (RunData.ranking,
 * .verdict, .rankingFormat): 1 (older runs, the weighted-score rule) and 2 (SPEC §9 v2). Metric keys and labels come from the
 * metric registry at the run's real k (`hit@10` when k = 10); the dominant cause is src/core's.
 */
import { metricKey, metricLabel } from '../src/core/metrics/registry';
import { dominantCause, type DominantCause, type Verdict } from '../src/core/ranking';
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

/** One row from results.json's config and its ranking entry (format 2 entries carry the verdict's keys). */
function rowOf(c: ConfigResult, e: RankingEntry | undefined, primary: string, ndcgKey: string): ConfigRow {
  const metrics = c.metrics as Record<string, MeanCI | undefined>;
  const v2 = e?.diffVsBest !== undefined;
  const diff = v2 ? e.diffVsBest! : (c.vsTop?.diff ?? null);
  return {
    id: c.id,
    rank: e?.rank ?? c.rank,
    score: e?.score ?? null,
    pareto: e?.pareto ?? false,
    recommended: e?.recommended ?? false,
    explanation: e?.explanation ?? c.explanation,
    q: e?.quality ?? metrics[primary] ?? null,
    mrr: e?.mrr ?? metrics.mrr?.mean ?? null,
    ndcg: e?.ndcg ?? metrics[ndcgKey]?.mean ?? null,
    diffVsBest: diff ? { mean: diff.mean, lo: diff.lo, hi: diff.hi } : null,
    pHolm: v2 ? (e.pHolm ?? null) : null,
    nonInferior: v2 ? (e.nonInferior ?? null) : null,
    significant: v2 ? (e.best ? null : (e.significantlyWorse ?? null)) : (c.vsTop?.significant ?? null),
    best: v2 ? e.best === true : c.vsTop === null,
    context: e?.cost ? { value: e.cost.context, unit: e.cost.contextUnit } : c.contextTokens !== undefined ? { value: c.contextTokens, unit: 'tokens' } : { value: c.contextChars, unit: 'characters' },
    compute: e?.cost ? e.cost.compute : null,
    latencyMs: e?.latencyMs ?? null,
    // Format 2 carries the dominant cause (null = no misses); format 1 did not.
    dominant: e?.dominantCause !== undefined ? e.dominantCause : dominantCause(c.causes),
    c,
  };
}

function build(data: RunData, results: ResultsFile): RunModel {
  const k = results.k;
  const verdict = data.verdict ?? null;
  const primary = verdict?.primaryMetric ?? results.primaryMetric;
  const ndcgKey = metricKey('ndcg', k);
  const entries = new Map((data.ranking ?? []).map((r) => [r.id, r] as const));
  const rows = results.configs.map((c) => rowOf(c, entries.get(c.id), primary, ndcgKey)).sort((a, b) => a.rank - b.rank || (a.id < b.id ? -1 : 1));
  const index = new Map(data.questions.map((r) => [`${r.question}\u0000${r.config}`, r] as const));
  const withRecords = new Set(data.questions.map((r) => r.question));
  const gtOrder = (data.evidence?.questions ?? []).map((q) => q.id).filter((id) => withRecords.has(id));
  const texts = new Map((data.evidence?.questions ?? []).map((q) => [q.id, q.question] as const));
  return {
    data,
    results,
    format: data.rankingFormat ?? (data.ranking ? 1 : null),
    k,
    primary,
    hitKey: metricKey('hit', k),
    coverageKey: metricKey('coverage', k),
    ndcgKey,
    verdict,
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
