/**
 * Ranking tab: the verdict, the primary metric per config with its 95% CI (chart), and the sortable
 * ranking table (click or Enter on a header; `aria-sort`; the caption says which column sorts it).
 * Rows are keyed by config id and use a roving tabindex (↑/↓/Home/End move, Enter/Space or click opens
 * the explanation), so the focused row stays focused while the panel re-renders during a run.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { axis, baseOptions, palette } from '../chart';
import { cssProps } from '../cssom';
import { fmt, fmtCI, fmtP } from '../format';
import { memoLast } from '../memo';
import { metricLabel, type ConfigRow, type RunModel } from '../model';
import type { SortDir } from '../state';
import type { TabContext, TabModule } from './registry';
import { verdictView } from './verdict';

interface Column {
  key: string;
  label: (m: RunModel) => string;
  value: (r: ConfigRow) => number | string | null;
  cell: (r: ConfigRow, m: RunModel) => TemplateResult | string | number;
  num?: boolean;
  /** Shown only when the run has the data (e.g. Holm p in ranking.json format 2). */
  available?: (m: RunModel) => boolean;
}

const ciBar = (q: ConfigRow['q']) =>
  q
    ? html`<span class="ci" aria-hidden="true"
        ><span class="ci-range" ${cssProps({ left: `${q.lo * 100}%`, width: `${Math.max(0.5, (q.hi - q.lo) * 100)}%` })}></span
        ><span class="ci-mean" ${cssProps({ left: `${q.mean * 100}%` })}></span
      ></span>`
    : nothing;

const nonInferiorCell = (r: ConfigRow) => (r.nonInferior === null ? '—' : r.best ? 'best' : r.nonInferior ? html`<span class="hit">✓ yes</span>` : '✗ no');

const COLUMNS: Column[] = [
  { key: 'rank', label: () => 'Rank', value: (r) => r.rank, cell: (r) => r.rank, num: true },
  {
    key: 'id',
    label: () => 'Config',
    value: (r) => r.id,
    cell: (r) =>
      html`<code>${r.id}</code>${r.pareto ? html`<span class="pareto" title="On the Pareto front"> ◆ Pareto</span>` : nothing}${r.recommended
        ? html`<span class="rec"> ★ recommended</span>`
        : nothing}`,
  },
  { key: 'primary', label: (m) => `${metricLabel(m.primary)} (95% CI)`, value: (r) => r.q?.mean ?? null, cell: (r) => html`${fmtCI(r.q)}${ciBar(r.q)}`, num: true },
  {
    key: 'diff',
    // Format 1: results.json `vsTop`, against its own quality-rank top (which may not be rank 1 of the old weighted order).
    label: (m) => (m.format === 2 ? 'Δ vs best (95% CI)' : `Δ vs ${m.rows.find((r) => r.c.vsTop)?.c.vsTop?.top ?? 'top'} (95% CI)`),
    value: (r) => r.diffVsBest?.mean ?? null,
    cell: (r) => (r.best ? 'best' : html`<span class=${r.significant ? 'down' : ''}>${fmtCI(r.diffVsBest, true)}</span>`),
    num: true,
    available: (m) => m.rows.some((r) => r.diffVsBest),
  },
  {
    key: 'pHolm',
    label: () => 'Holm p',
    value: (r) => r.pHolm,
    cell: (r) => html`${fmtP(r.pHolm)}${r.significant ? html`<span class="down" title="significantly worse than the best (Holm–Bonferroni, α = 0.05)"> worse</span>` : nothing}`,
    num: true,
    available: (m) => m.format === 2,
  },
  {
    key: 'nonInferior',
    label: (m) => `Non-inferior (δ = ${m.verdict?.margin ?? '—'})`,
    value: (r) => (r.nonInferior === null ? null : r.nonInferior ? 1 : 0),
    cell: nonInferiorCell,
    available: (m) => m.format === 2,
  },
  { key: 'mrr', label: () => 'MRR', value: (r) => r.mrr, cell: (r) => fmt(r.mrr), num: true },
  { key: 'ndcg', label: (m) => metricLabel(m.ndcgKey), value: (r) => r.ndcg, cell: (r) => fmt(r.ndcg), num: true },
  {
    key: 'context',
    label: (m) => (m.rows.every((r) => r.context.unit === 'tokens') ? 'Context tokens' : m.rows.every((r) => r.context.unit === 'characters') ? 'Context chars' : 'Context'),
    value: (r) => r.context.value,
    cell: (r) => html`<span title=${`mean context at k, in ${r.context.unit}`}>${Math.round(r.context.value)}</span>`,
    num: true,
  },
  {
    key: 'compute',
    label: () => 'Compute',
    value: (r) => r.compute,
    cell: (r) => html`<span title="deterministic compute per query: model passes × parameters / 10⁶">${fmt(r.compute, 1)}</span>`,
    num: true,
    available: (m) => m.rows.some((r) => r.compute !== null),
  },
  {
    key: 'latency',
    label: () => 'Latency ms',
    value: (r) => r.latencyMs,
    // Format 2: the measured median, reported but not part of the (deterministic) verdict.
    cell: (r, m) => html`<span title=${m.format === 2 ? 'measured median per query; not part of the verdict' : 'median per query'}>${fmt(r.latencyMs, 1)}</span>`,
    num: true,
    available: (m) => m.rows.some((r) => r.latencyMs !== null),
  },
  { key: 'score', label: (m) => (m.format === 2 ? `Score (${metricLabel(m.primary)})` : 'Score'), value: (r) => r.score, cell: (r) => fmt(r.score), num: true, available: (m) => m.rows.some((r) => r.score !== null) },
  {
    key: 'cause',
    label: () => 'Dominant miss cause',
    value: (r) => r.dominant?.cause ?? null,
    cell: (r) => (r.dominant ? html`<span class="cause cause-${r.dominant.cause}">${r.dominant.cause} ×${r.dominant.count}</span>` : '—'),
  },
];

/** Sorted copy of `rows` by `col` (absent values last), ties in rank order. */
function sorted(rows: ConfigRow[], col: Column, dir: SortDir): ConfigRow[] {
  const sign = dir === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = col.value(a);
    const y = col.value(b);
    if (x === null || y === null) return x === y ? a.rank - b.rank : x === null ? 1 : -1;
    return (x < y ? -1 : x > y ? 1 : 0) * sign || a.rank - b.rank;
  });
}

const chartConfig = memoLast((m: RunModel, _theme: number) => {
  const p = palette();
  return {
    type: 'barWithErrorBars',
    data: {
      labels: m.rows.map((r) => `${r.rank}. ${r.id}${r.pareto ? ' ◆' : ''}`),
      datasets: [
        {
          label: `${metricLabel(m.primary)} (95% CI)`,
          data: m.rows.map((r) => ({ y: r.q?.mean ?? 0, yMin: r.q?.lo ?? 0, yMax: r.q?.hi ?? 0 })),
          backgroundColor: m.rows.map((r) => (r.pareto ? p.series[0] : `${p.series[0]}80`)),
          errorBarColor: p.fg,
          errorBarWhiskerColor: p.fg,
        },
      ],
    },
    options: { ...baseOptions(p), scales: { x: axis(p, {}, true), y: axis(p, { min: 0, max: 1 }) } },
  };
});

function orderNote(m: RunModel): string {
  if (m.format === 2) return `Rank is the quality order: ${metricLabel(m.primary)}, then MRR, ${metricLabel(m.ndcgKey)}, deterministic cost (context + compute), then id.`;
  return 'Rank is the weighted-score order of the old rule (a format-1 run: score = quality − latency − context, normalised).';
}

function table(ctx: TabContext, m: RunModel): TemplateResult {
  const { ui } = ctx.s;
  const cols = COLUMNS.filter((c) => !c.available || c.available(m));
  const col = cols.find((c) => c.key === ui.sort.key) ?? cols[0];
  const rows = sorted(m.rows, col, col === cols[0] && col.key !== ui.sort.key ? 'ascending' : ui.sort.dir);
  const focusId = rows.some((r) => r.id === ui.focusRow) ? ui.focusRow : rows[0]?.id;
  const expanded = new Set(ui.expanded ?? []);
  const toggle = (id: string) => ctx.act.ui({ focusRow: id, expanded: expanded.has(id) ? [...expanded].filter((x) => x !== id) : [...expanded, id] });
  const sortBy = (key: string) => ctx.act.ui({ sort: { key, dir: key === ui.sort.key && ui.sort.dir === 'ascending' ? 'descending' : 'ascending' } });
  const onKey = (e: KeyboardEvent, i: number, id: string) => {
    const j = e.key === 'ArrowDown' ? i + 1 : e.key === 'ArrowUp' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? rows.length - 1 : null;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      toggle(id);
    } else if (j !== null) {
      e.preventDefault();
      const next = rows[Math.max(0, Math.min(rows.length - 1, j))];
      ctx.act.ui({ focusRow: next.id });
      (e.currentTarget as HTMLElement).parentElement?.querySelector<HTMLElement>(`tr[data-config="${CSS.escape(next.id)}"]`)?.focus();
    }
  };
  const sortWord = ui.sort.dir === 'ascending' ? 'ascending' : 'descending';
  return html`<table class="grid ranking" role="grid" aria-label="Ranked configurations" data-testid="ranking-table">
    <caption class="muted" data-testid="ranking-sort">Sorted by ${col.label(m)} (${sortWord}). ${orderNote(m)}</caption>
    <thead>
      <tr>
        ${cols.map((c) => {
          const on = c === col;
          return html`<th scope="col" aria-sort=${on ? ui.sort.dir : 'none'} class=${c.num ? 'num' : ''}>
            <button class="sort" data-sort=${c.key} title="Sort by ${c.label(m)}" @click=${() => sortBy(c.key)}>${c.label(m)}${on ? (ui.sort.dir === 'ascending' ? ' ▲' : ' ▼') : ''}</button>
          </th>`;
        })}
      </tr>
    </thead>
    <tbody>
      ${repeat(
        rows,
        (r) => r.id,
        (r, i) => html`<tr
            tabindex=${r.id === focusId ? 0 : -1}
            data-config=${r.id}
            aria-expanded=${String(expanded.has(r.id))}
            class=${r.recommended ? 'recommended' : ''}
            @click=${() => toggle(r.id)}
            @focus=${() => r.id !== ui.focusRow && ctx.act.ui({ focusRow: r.id })}
            @keydown=${(e: KeyboardEvent) => onKey(e, i, r.id)}
          >
            ${cols.map((c) => html`<td class=${c.num ? 'num' : ''}>${c.cell(r, m)}</td>`)}
          </tr>
          <tr class="explanation" ?hidden=${!expanded.has(r.id)}>
            <td colspan=${cols.length}>${r.explanation}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

export const rankingTab: TabModule = {
  id: 'ranking',
  label: 'Ranking',
  render(ctx) {
    const m = ctx.m;
    if (!m) return html`<p>This run has no results.</p>`;
    return html`${verdictView(m)}
      <p class="muted">◆ = Pareto front (quality vs ${m.format === 2 ? 'context cost vs compute cost' : 'latency vs context'}). Enter or click a row for its explanation; arrow keys move between rows.</p>
      <sp-chart class="chart tall" .config=${chartConfig(m, ctx.s.theme)} .label=${`${metricLabel(m.primary)} with 95% confidence interval per config, in rank order`}></sp-chart>
      ${table(ctx, m)}`;
  },
};
