/**
 * CSV report: one row per config (RFC 4180 quoting), columns rank, score, pareto, recommended,
 * every metric's mean/lo/hi, cause counts, context chars, median latency ms.
 */
import { CAUSES } from '../types';
import { RESULT_METRICS } from '../runs/types';
import { buildReportModel } from './model';
import type { RunData } from '../runs/types';

function cell(v: unknown): string {
  const s = v === null || v === undefined || (typeof v === 'number' && !Number.isFinite(v)) ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function renderCsv(data: RunData): string {
  const m = buildReportModel(data);
  const head = ['config', 'chunker', 'retriever', 'rerank', 'rank', 'score', 'pareto', 'recommended', ...RESULT_METRICS.flatMap((x) => [`${x}`, `${x}_lo`, `${x}_hi`]), ...CAUSES, 'context_chars', 'median_ms', 'scored', 'failed'];
  const lines = [head.map(cell).join(',')];
  for (const r of m.rows) {
    const c = r.config;
    lines.push(
      [c.id, c.chunker, c.retriever, c.rerank, r.ranking?.rank, r.ranking?.score, r.ranking?.pareto, r.ranking?.recommended,
        ...RESULT_METRICS.flatMap((x) => [c.metrics[x]?.mean, c.metrics[x]?.lo, c.metrics[x]?.hi]),
        ...CAUSES.map((x) => c.causes[x] ?? 0), c.contextChars, r.latencyMs, c.scored, c.failed.length,
      ].map(cell).join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}
