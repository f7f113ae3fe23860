/**
 * The plain-text ranking table printed by `spanproof run` and `npm run sample`.
 */
import { CAUSES } from '../types';
import type { ReportModel } from './model';
import { ci, f3, ms } from './format';

const SHORT: Record<string, string> = {
  'chunker-destroyed': 'destr',
  'chunker-degraded': 'degr',
  'retriever-missed': 'r-miss',
  'reranker-demoted': 'demot',
  'ranked-too-low': 'low',
};

/** Fixed-width table: rank, config, primary metric with CI, MRR, context, latency, Pareto/recommended marks, cause counts. */
export function rankingTable(m: ReportModel, limit = Infinity): string {
  const metric = m.data.results?.primaryMetric ?? 'hit@5';
  const head = ['#', 'config', `${metric} [95% CI]`, 'mrr', 'ctx chars', 'ms/q', 'P', ...CAUSES.map((c) => SHORT[c])];
  const rows = m.rows.slice(0, limit).map((r) => [
    String(r.ranking?.rank ?? '-'),
    r.config.id + (r.config.id === m.recommended ? ' *' : ''),
    ci(r.config.metrics[metric as keyof typeof r.config.metrics]),
    f3(r.config.metrics.mrr?.mean),
    Number.isFinite(r.config.contextChars ?? NaN) ? String(Math.round(r.config.contextChars)) : 'n/a',
    ms(r.latencyMs),
    r.ranking?.pareto ? 'P' : '',
    ...CAUSES.map((c) => String(r.config.causes[c] ?? 0)),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const out = [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
  out.push('');
  out.push(`* recommended   P Pareto front   causes: ${CAUSES.map((c) => `${SHORT[c]}=${c}`).join(', ')}`);
  if (m.baselineReranker) out.push('rerank = built-in MaxSim baseline over static vectors (not a trained cross-encoder).');
  return out.join('\n');
}
