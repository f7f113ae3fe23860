/**
 * The columns of the ranking table, shared by the CLI table, Markdown, HTML and CSV, so every format
 * shows the same numbers in the same order (SPEC §9: the score visible; the table says what sorts it).
 */
import { metricLabel } from '../metrics/registry';
import { signed } from '../ranking/text';
import type { ReportModel, ReportRow } from './model';
import { ci, f3, ms } from './format';

export interface Column {
  /** Header label. */
  head: string;
  /** Right-aligned (numbers). */
  num: boolean;
  cell: (r: ReportRow) => string;
  /** The cell carries a run's string (a config id): Markdown escapes it as text (./escape.ts). */
  runText?: true;
}

const pHolm = (p: number | null | undefined): string => (p === null || p === undefined ? '—' : p < 0.001 ? '<0.001' : p.toFixed(3));

/**
 * Rank, config (★ recommended), Q = score with 95% CI, MRR, nDCG@k, coverage@k, Δ vs the best with its
 * paired CI, Holm-adjusted p, non-inferior (✓/✗), deterministic cost, median ms/query, Pareto (●).
 * Format-1 runs (no Δ, p or cost in their ranking.json) show `—` there.
 */
export function rankingColumns(m: ReportModel): Column[] {
  const k = m.k;
  const q = metricLabel(m.metric);
  return [
    { head: '#', num: true, cell: (r) => String(r.ranking?.rank ?? '-') },
    { head: 'config', num: false, runText: true, cell: (r) => r.config.id + (r.config.id === m.recommended ? ' ★' : '') },
    { head: `${q} = score [95% CI]`, num: true, cell: (r) => ci(r.config.metrics[m.metric]) },
    { head: 'MRR', num: true, cell: (r) => f3(r.config.metrics.mrr?.mean) },
    { head: `nDCG@${k}`, num: true, cell: (r) => f3(r.config.metrics[`ndcg@${k}`]?.mean) },
    { head: `coverage@${k}`, num: true, cell: (r) => f3(r.config.metrics[`coverage@${k}`]?.mean) },
    {
      head: 'Δ best [95% CI]',
      num: true,
      cell: (r) => {
        const d = r.ranking?.diffVsBest;
        if (!d) return '—';
        return r.ranking?.best ? 'best' : `${signed(d.mean)} [${signed(d.lo)}, ${signed(d.hi)}]`;
      },
    },
    { head: 'p Holm', num: true, cell: (r) => (r.ranking?.diffVsBest ? pHolm(r.ranking.pHolm) : '—') },
    { head: 'NI', num: false, cell: (r) => (r.ranking?.nonInferior === undefined ? '—' : r.ranking.nonInferior ? '✓' : '✗') },
    { head: 'cost', num: true, cell: (r) => (r.ranking?.cost ? r.ranking.cost.total.toFixed(0) : '—') },
    { head: 'ms/q', num: true, cell: (r) => ms(r.latencyMs) },
    { head: 'P', num: false, cell: (r) => (r.ranking?.pareto ? '●' : '') },
  ];
}

/** The legend under every ranking table. */
export function rankingLegend(m: ReportModel): string[] {
  const unit = m.rows.find((r) => r.ranking?.cost)?.ranking?.cost?.contextUnit ?? 'characters';
  const out = [`Sorted by ${m.sortedBy}. score = ${metricLabel(m.metric)} mean.`];
  if (m.rankingFormat === 2) {
    out.push(
      `★ recommended · Δ best = paired bootstrap difference to the best config, 95% CI · p Holm = Holm–Bonferroni adjusted p-value · NI ✓ = non-inferior (CI lower bound ≥ −${m.verdict?.margin ?? 0.05})`,
      `cost = deterministic cost per query: context ${unit} at k + model compute · ms/q = measured median latency (reported, not in the verdict) · P ● = Pareto front (quality vs context vs compute)`,
    );
  } else out.push('★ recommended · P ● = Pareto front · ms/q = measured median latency');
  return out;
}
