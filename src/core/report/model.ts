/**
 * The view model every report format renders from a run directory's data (RunData): rows in ranking
 * order, cause totals, misses of the recommended config with the evidence and the cut.
 */
import { CAUSES, type Cause } from '../types';
import type { ConfigResult, MissDetail, QuestionRecord, RankingEntry, RunData, RunFile } from '../runs/types';
import type { TimedVerdict, Verdict } from '../ranking/types';
import { metricLabel } from '../metrics/registry';
import { latencyText } from '../ranking/latency';
import { describeEmbedder, parseEmbedderSpec } from '../models/embedderSpec';
import { parseRerankerSpec } from '../models/rerankerSpec';

export interface ReportRow {
  config: ConfigResult;
  ranking: RankingEntry | null;
  /** Rank in ranking.json (the verdict's quality order; format 1: the weighted score), else results.json's. */
  rank: number;
  latencyMs: number | null;
  /** Median and IQR of the per-query time, when timings.json has them. */
  latency: { medianMs: number; p25Ms: number; p75Ms: number; n: number } | null;
}

export interface ReportMiss {
  question: string;
  questionText: string;
  config: string;
  cause: Cause;
  miss: MissDetail | null;
  /** Evidence text of the deciding span. */
  evidenceText: string | null;
  /** Text of the best chunk, when stored in evidence.json. */
  chunkText: string | null;
}

export interface ReportModel {
  data: RunData;
  rows: ReportRow[];
  recommended: string | null;
  /** The config whose misses are listed (recommended, else rank 1). */
  focus: string | null;
  misses: ReportMiss[];
  causeTotals: Record<Cause, number>;
  /** ranking.json v2 verdict; null for format-1 runs and runs without a ranking. */
  verdict: Verdict | null;
  timedVerdict: TimedVerdict | null;
  /** ranking.json format (1 = older weighted-score ranking), null when absent. */
  rankingFormat: 1 | 2 | null;
  /** Resolved primary metric key and the run's k. */
  metric: string;
  k: number;
  /** What the rows are sorted by, in words. */
  sortedBy: string;
  /** True when reranking used the built-in MaxSim baseline (must be labelled "baseline"). */
  baselineReranker: boolean;
  /** One line per embedder of the run: name and what it is (built-ins: a small general model). */
  embedders: string[];
  acceptanceRate: string;
}

export function buildReportModel(data: RunData): ReportModel {
  const results = data.results;
  const byId = new Map((data.ranking ?? []).map((r) => [r.id, r]));
  const rows: ReportRow[] = (results?.configs ?? []).map((c) => {
    const r = byId.get(c.id) ?? null;
    const t = data.timings?.perConfig[c.id];
    const latency = t && t.p25QueryMs !== undefined && t.p75QueryMs !== undefined ? { medianMs: t.medianQueryMs, p25Ms: t.p25QueryMs, p75Ms: t.p75QueryMs, n: t.timedQueries ?? c.scored } : null;
    return { config: c, ranking: r, rank: r?.rank ?? c.rank + 1000, latencyMs: r?.latencyMs ?? t?.medianQueryMs ?? null, latency };
  });
  rows.sort((a, b) => a.rank - b.rank || (a.config.id < b.config.id ? -1 : 1));
  const recommended = (data.ranking ?? []).find((r) => r.recommended)?.id ?? null;
  const focus = recommended ?? rows[0]?.config.id ?? null;
  const causeTotals = Object.fromEntries(CAUSES.map((c) => [c, 0])) as Record<Cause, number>;
  for (const r of rows) for (const c of CAUSES) causeTotals[c] += r.config.causes[c] ?? 0;
  const qText = new Map((data.evidence?.questions ?? []).map((q) => [q.id, q]));
  const misses: ReportMiss[] = data.questions
    .filter((q: QuestionRecord) => q.config === focus && q.cause)
    .map((q) => {
      const miss = (q.miss as MissDetail | undefined) ?? null;
      const ev = qText.get(q.question);
      const span = miss ? ev?.spans.find((s) => s.source === miss.evidence.source && s.start === miss.evidence.start && s.end === miss.evidence.end) : ev?.spans[0];
      const chunker = q.config.split('/')[0];
      const chunkText = miss?.bestChunk ? data.evidence?.chunks?.[chunker]?.[miss.bestChunk.id] ?? null : null;
      return { question: q.question, questionText: ev?.question ?? q.question, config: q.config, cause: q.cause as Cause, miss, evidenceText: span?.text ?? null, chunkText };
    });
  const acc = results?.acceptance ?? data.run.acceptance;
  const acceptanceRate = acc ? `${acc.resolved}/${acc.total} resolved (stale ${acc.stale.length}, ambiguous ${acc.ambiguous.length}, rejected ${acc.rejected.length})` : 'n/a';
  const metric = results?.primaryMetric ?? 'hit@5';
  const k = results?.k ?? 5;
  const rankingFormat = data.rankingFormat ?? (data.ranking ? 1 : null);
  const sortedBy = rankingFormat === 2
    ? `# = the verdict's quality order: ${metricLabel(metric)}, then MRR, then nDCG@${k}, then deterministic cost, then id`
    : rankingFormat === 1
      ? '# = the weighted score of an older Spanproof (format-1 ranking.json: quality minus normalised latency and context)'
      : `# = ${metricLabel(metric)} rank from results.json`;
  return { data, rows, recommended, focus, misses, causeTotals, verdict: data.verdict ?? null, timedVerdict: data.timedVerdict ?? null, rankingFormat, metric, k, sortedBy, baselineReranker: isBaselineReranker(data.run.settings.rerankerModel), embedders: runEmbedders(data.run), acceptanceRate };
}

const STATUS_WORD = { decisive: 'DECISIVE', provisional: 'PROVISIONAL', 'no-signal': 'NO SIGNAL' } as const;

/**
 * The verdict in plain words, one line each: status and recommendation, the summary (with the MDE and
 * the questions that would resolve δ), the timing-dependent verdict when opted in. A format-1 run says
 * that it predates the verdict. Every report format and the CLI print these lines.
 */
export function verdictLines(m: ReportModel): string[] {
  const v = m.verdict;
  if (!v) {
    return m.recommended
      ? [`Recommended: ${m.recommended} (older run: ranking.json format 1, recommended by the old rule — the cheapest of the configs not significantly different from the top — without an evidence status; re-run for a verdict).`]
      : [];
  }
  const lines = [`Verdict: ${STATUS_WORD[v.status]} — use ${v.recommended ?? 'none'} (primary metric ${metricLabel(v.primaryMetric)}, margin δ = ${v.margin}).`, v.summary];
  if (v.mde !== null) lines.push(`Minimal detectable difference with ${v.questions} questions: ${v.mde.toFixed(2)}${v.questionsNeeded !== null ? `; about ${v.questionsNeeded} questions would resolve a ${v.margin} difference` : ''} (two-sided α = ${v.alpha}, power ${v.power}).`);
  if (m.timedVerdict) lines.push(`Timing-dependent verdict (weights.latency > 0): ${m.timedVerdict.summary}`);
  else lines.push('Measured latency is reported but not part of the verdict (weights.latency = 0): the verdict does not depend on timings.');
  return lines;
}

/** `median 1.23 ms per query (IQR …)` for a row, or the bare median for older runs. */
export function rowLatencyText(r: ReportRow): string {
  if (r.latency) return latencyText(r.latency);
  return r.latencyMs === null || !Number.isFinite(r.latencyMs) ? 'not timed' : `median ${r.latencyMs.toFixed(2)} ms per query`;
}

/**
 * Splits a miss into the pieces "where the cut fell": evidence text before the best chunk, the part
 * inside it, and the part after it (UTF-16 offsets relative to the evidence span).
 */
export function cutPieces(m: ReportMiss): { before: string; inside: string; after: string; chunkPrefix: string; chunkSuffix: string } | null {
  if (!m.miss || m.evidenceText === null) return null;
  const e = m.miss.evidence;
  const t = m.evidenceText;
  const b = m.miss.bestChunk;
  if (!b) return { before: t, inside: '', after: '', chunkPrefix: '', chunkSuffix: '' };
  const lo = Math.max(b.start, e.start) - e.start;
  const hi = Math.min(b.end, e.end) - e.start;
  const inside = hi > lo ? t.slice(lo, hi) : '';
  const chunkPrefix = m.chunkText ? m.chunkText.slice(0, Math.max(0, Math.max(b.start, e.start) - b.start)) : '';
  const chunkSuffix = m.chunkText ? m.chunkText.slice(Math.max(0, Math.min(b.end, e.end) - b.start)) : '';
  return { before: t.slice(0, Math.max(0, lo)), inside, after: t.slice(Math.max(lo, hi)), chunkPrefix, chunkSuffix };
}

/** The run's embedder lines; runs written before `models` was recorded used static-glove when the setting was empty. */
function runEmbedders(run: RunFile): string[] {
  if (run.models) return run.models.embedders.map((e) => e.description);
  return [describeEmbedder(parseEmbedderSpec(run.settings.embeddingModel || 'static-glove'))];
}

/** True when the run's `rerankerModel` names the built-in MaxSim baseline ('' or `baseline`; an unparsable old value counts as not). */
function isBaselineReranker(value: string | undefined): boolean {
  try {
    return parseRerankerSpec(value ?? '').kind === 'baseline';
  } catch {
    return false;
  }
}
