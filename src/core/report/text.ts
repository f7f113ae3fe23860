/**
 * The plain-text ranking table printed by `spanproof run` and `npm run sample`: the shared columns
 * (./columns.ts), cause counts, the legend saying what sorts the rows, and the verdict in plain words.
 */
import { CAUSES } from '../types';
import { verdictLines, type ReportModel } from './model';
import { rankingColumns, rankingLegend } from './columns';
import { BASELINE_RERANKER_LABEL } from '../models/embedderSpec';

const SHORT: Record<string, string> = {
  'chunker-destroyed': 'destr',
  'chunker-degraded': 'degr',
  'passage-split': 'split',
  'retriever-missed': 'r-miss',
  'reranker-demoted': 'demot',
  'ranked-too-low': 'low',
};

/** Fixed-width table in rank order (at most `limit` rows), its legend, and the verdict lines. */
export function rankingTable(m: ReportModel, limit = Infinity): string {
  const cols = rankingColumns(m);
  const head = [...cols.map((c) => c.head), ...CAUSES.map((c) => SHORT[c])];
  const num = [...cols.map((c) => c.num), ...CAUSES.map(() => true)];
  const rows = m.rows.slice(0, limit).map((r) => [...cols.map((c) => c.cell(r)), ...CAUSES.map((c) => String(r.config.causes[c] ?? 0))]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (num[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  const out = [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
  if (m.rows.length > rows.length) out.push(`… ${m.rows.length - rows.length} more configs (spanproof report for all)`);
  out.push('', ...rankingLegend(m));
  out.push(`causes: ${CAUSES.map((c) => `${SHORT[c]}=${c}`).join(', ')}`);
  for (const e of m.embedders) out.push(`embedder ${e}.`);
  if (m.baselineReranker) out.push(`rerank = built-in MaxSim reranker over static vectors: ${BASELINE_RERANKER_LABEL}.`);
  const v = verdictLines(m);
  if (v.length) out.push('', ...v);
  return out.join('\n');
}
