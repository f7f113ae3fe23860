/**
 * The open run as the panel shows it: configs in rank order with what each column reads, the verdict,
 * the questions in ground-truth order and a record index. Built once per loaded run (RunData identity).
 * Reads both ranking.json formats: 1 (an array of entries, the old rule) and 2 (`{spanproof: 2,
 * verdict, configs}`, SPEC §9 v2). Metric keys carry the run's real k (`hit@10` when k = 10); the
 * dominant cause comes from src/core (one definition for every surface).
 */
import { dominantCause } from '../src/core/ranking';
import type { ConfigResult, MeanCI, QuestionRecord, RankingEntry, ResultsFile, RunData } from '../src/shared/protocol';

export type VerdictStatus = 'decisive' | 'provisional' | 'no-signal';

/** ranking.json format 2 `verdict` (SPEC §11). */
export interface VerdictView {
  recommended: string;
  status: VerdictStatus;
  primaryMetric: string;
  /** Non-inferiority margin δ (in units of the primary metric). */
  margin: number;
  /** Minimal detectable difference at the current number of questions. */
  mde: number | null;
  /** Questions needed to resolve a difference of δ (null: cannot be estimated). */
  questionsNeeded: number | null;
  reasons: string[];
}

/** One config as the ranking table and the charts read it. */
export interface ConfigRow {
  id: string;
  rank: number;
  score: number | null;
  pareto: boolean;
  recommended: boolean;
  explanation: string;
  /** The primary metric with its 95% CI. */
  q: MeanCI | null;
  mrr: number | null;
  ndcg: number | null;
  /** Paired 95% CI of (this − best); v1 runs: results.json `vsTop`. */
  diffVsBest: MeanCI | null;
  /** Holm-adjusted p-value of "worse than the best" (format 2 only). */
  pHolm: number | null;
  /** The lower CI bound of (this − best) ≥ −δ (format 2 only). */
  nonInferior: boolean | null;
  /** Significantly different from the best (Holm-adjusted in format 2; unadjusted `vsTop` in format 1). */
  significant: boolean | null;
  contextChars: number;
  contextTokens: number | null;
  latencyMs: number | null;
  dominant: { cause: string; count: number; misses: number } | null;
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
  verdict: VerdictView | null;
  /** In rank order. */
  rows: ConfigRow[];
  /** Question ids in ground-truth order (evidence.json), then any others that have records. */
  questionIds: string[];
  questionText(id: string): string;
  record(question: string, config: string): QuestionRecord | undefined;
}

/** Human label of a metric key (`mrr` → MRR, `ndcg@10` → nDCG@10; others as written). */
export function metricLabel(key: string): string {
  if (key === 'mrr') return 'MRR';
  if (key.startsWith('ndcg@')) return `nDCG@${key.slice(5)}`;
  return key;
}

interface RankingV2Config {
  id: string;
  rank: number;
  score: number;
  pareto: boolean;
  explanation: string;
  diffVsBest?: MeanCI | null;
  pHolm?: number | null;
  nonInferior?: boolean | null;
  latencyMs?: number | null;
}
interface RankingV2 {
  spanproof: 2;
  verdict: VerdictView;
  configs: RankingV2Config[];
}

function isRankingV2(x: unknown): x is RankingV2 {
  const o = x as { spanproof?: unknown; configs?: unknown; verdict?: unknown } | null;
  return !!o && !Array.isArray(o) && o.spanproof === 2 && Array.isArray(o.configs) && typeof o.verdict === 'object';
}

const ALPHA = 0.05;

function rowOf(c: ConfigResult, primary: string, ndcgKey: string, v1: RankingEntry | undefined, v2: RankingV2Config | undefined, recommended: string | null): ConfigRow {
  const metrics = c.metrics as Record<string, MeanCI | undefined>;
  const pHolm = v2?.pHolm ?? null;
  const diff = v2 ? (v2.diffVsBest ?? null) : (c.vsTop?.diff ?? null);
  return {
    id: c.id,
    rank: v2?.rank ?? v1?.rank ?? c.rank,
    score: v2?.score ?? v1?.score ?? null,
    pareto: v2?.pareto ?? v1?.pareto ?? false,
    recommended: recommended === c.id,
    explanation: v2?.explanation ?? v1?.explanation ?? c.explanation,
    q: metrics[primary] ?? null,
    mrr: metrics.mrr?.mean ?? null,
    ndcg: metrics[ndcgKey]?.mean ?? null,
    diffVsBest: diff ? { mean: diff.mean, lo: diff.lo, hi: diff.hi } : null,
    pHolm,
    nonInferior: v2?.nonInferior ?? null,
    significant: v2 ? (pHolm === null ? null : pHolm < ALPHA) : (c.vsTop?.significant ?? null),
    contextChars: c.contextChars,
    contextTokens: c.contextTokens ?? null,
    latencyMs: v2?.latencyMs ?? v1?.latencyMs ?? null,
    dominant: dominantCause(c.causes),
    c,
  };
}

function build(data: RunData, results: ResultsFile): RunModel {
  const raw: unknown = data.ranking;
  const v2 = isRankingV2(raw) ? raw : null;
  const v1 = !v2 && Array.isArray(raw) ? (raw as RankingEntry[]) : null;
  const k = results.k;
  const primary = v2?.verdict.primaryMetric ?? results.primaryMetric ?? `hit@${k}`;
  const ndcgKey = `ndcg@${k}`;
  const recommended = v2?.verdict.recommended ?? v1?.find((r) => r.recommended)?.id ?? null;
  const byId1 = new Map((v1 ?? []).map((r) => [r.id, r] as const));
  const byId2 = new Map((v2?.configs ?? []).map((r) => [r.id, r] as const));
  const rows = results.configs.map((c) => rowOf(c, primary, ndcgKey, byId1.get(c.id), byId2.get(c.id), recommended)).sort((a, b) => a.rank - b.rank || (a.id < b.id ? -1 : 1));
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
    hitKey: `hit@${k}`,
    coverageKey: `coverage@${k}`,
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
