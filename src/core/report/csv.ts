/**
 * CSV report: one row per config in rank order (RFC 4180 quoting): rank, score (= primary metric
 * mean), pareto, recommended, the paired difference to the best with its CI, Holm p, non-inferiority,
 * deterministic cost, every metric's mean/lo/hi at the run's cutoffs, cause counts, context chars,
 * median and quartile latency ms (rounded as the tables show them: 0.01 ms below 10 ms, else 0.1 ms), then the injection exposure and attack columns when the run has
 * them (./injection.ts, ./attacks.ts).
 */
import { CAUSES } from '../types';
import { resultMetricKeys } from '../metrics/registry';
import { buildReportModel } from './model';
import { roundedMs } from './format';
import { injectionCsv } from './injection';
import { attacksCsv } from './attacks';
import type { RunData } from '../runs/types';
import { csvCell } from '../text/csv';

export function renderCsv(data: RunData): string {
  const m = buildReportModel(data);
  const keys = resultMetricKeys(m.k, m.metric).filter((x) => m.rows.some((r) => r.config.metrics[x]));
  const inj = injectionCsv(data.injection);
  const att = attacksCsv(data.attacks);
  const head = ['config', 'chunker', 'retriever', 'rerank', 'rank', 'score', 'pareto', 'recommended', 'diff_vs_best', 'diff_lo', 'diff_hi', 'p_holm', 'non_inferior', 'cost', 'context', 'context_unit', 'compute', ...keys.flatMap((x) => [`${x}`, `${x}_lo`, `${x}_hi`]), ...CAUSES, 'context_chars', 'median_ms', 'p25_ms', 'p75_ms', 'scored', 'failed', ...inj.head, ...att.head];
  const lines = [head.map(csvCell).join(',')];
  for (const r of m.rows) {
    const c = r.config;
    lines.push(
      [c.id, c.chunker, c.retriever, c.rerank, r.ranking?.rank, r.ranking?.score, r.ranking?.pareto, r.ranking?.recommended,
        r.ranking?.diffVsBest?.mean, r.ranking?.diffVsBest?.lo, r.ranking?.diffVsBest?.hi, r.ranking?.pHolm, r.ranking?.nonInferior,
        r.ranking?.cost?.total, r.ranking?.cost?.context, r.ranking?.cost?.contextUnit, r.ranking?.cost?.compute,
        ...keys.flatMap((x) => [c.metrics[x]?.mean, c.metrics[x]?.lo, c.metrics[x]?.hi]),
        ...CAUSES.map((x) => c.causes[x] ?? 0), c.contextChars, roundedMs(r.latencyMs), roundedMs(r.latency?.p25Ms), roundedMs(r.latency?.p75Ms), c.scored, c.failed.length, ...inj.cells(c.id), ...att.cells(c.id),
      ].map(csvCell).join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}
