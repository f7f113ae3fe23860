/**
 * The view model every report format renders from a run directory's data (RunData): rows in ranking
 * order, cause totals, misses of the recommended config with the evidence and the cut.
 */
import { CAUSES, type Cause } from '../types';
import type { RunData } from '../runs/types';
import type { ConfigResult, MissDetail, QuestionRecord, RankingEntry } from '../runs/types';

export interface ReportRow {
  config: ConfigResult;
  ranking: RankingEntry | null;
  /** Rank in the weighted ranking, else the quality rank. */
  rank: number;
  latencyMs: number | null;
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
  /** True when reranking used the built-in MaxSim baseline (must be labelled "baseline"). */
  baselineReranker: boolean;
  acceptanceRate: string;
}

export function buildReportModel(data: RunData): ReportModel {
  const results = data.results;
  const byId = new Map((data.ranking ?? []).map((r) => [r.id, r]));
  const rows: ReportRow[] = (results?.configs ?? []).map((c) => {
    const r = byId.get(c.id) ?? null;
    return { config: c, ranking: r, rank: r?.rank ?? c.rank + 1000, latencyMs: r?.latencyMs ?? data.timings?.perConfig[c.id]?.medianQueryMs ?? null };
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
  return { data, rows, recommended, focus, misses, causeTotals, baselineReranker: !data.run.settings.rerankerModel, acceptanceRate };
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
