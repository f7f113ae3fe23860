/**
 * Matrix tab: question × config, coloured by hit or miss cause (canvas), questions top-down in
 * ground-truth order and configs left to right in rank order; the list of misses below is the
 * accessible equivalent. A cell or a miss opens the question detail.
 */
import { html } from 'lit';
import { CAUSES } from '../../src/core/types';
import type { Actions } from '../actions';
import { baseOptions, palette, type Palette, type SpChart } from '../chart';
import { cssProps } from '../cssom';
import { memoLast } from '../memo';
import { recordValue, type RunModel } from '../model';
import type { TabModule } from './registry';

interface Cell {
  x: string;
  y: string;
  v: string;
}

function cells(m: RunModel): Cell[] {
  const out: Cell[] = [];
  for (const q of m.questionIds)
    for (const r of m.rows) {
      const rec = m.record(q, r.id);
      out.push({ x: r.id, y: q, v: !rec ? 'none' : rec.status === 'failed' ? 'failed' : recordValue(rec, m.hitKey) === 1 ? 'hit' : (rec.cause ?? 'miss') });
    }
  return out;
}

const colorOf = (p: Palette, v: string) => (v === 'hit' ? p.hit : v === 'failed' || v === 'none' ? p.failed : (p.cause[v] ?? p.failed));

const matrixData = memoLast((m: RunModel) => cells(m));

const chartConfig = memoLast((m: RunModel, _theme: number, act: Actions) => {
  const p = palette();
  const data = matrixData(m);
  const nx = Math.max(1, m.rows.length);
  const ny = Math.max(1, m.questionIds.length);
  type Ctx = { chart: { chartArea?: { width: number; height: number } } };
  return {
    type: 'matrix',
    data: {
      datasets: [
        {
          label: 'hit / cause',
          data,
          backgroundColor: (ctx: { raw?: Cell }) => colorOf(p, ctx.raw?.v ?? 'none'),
          borderColor: p.grid,
          borderWidth: 1,
          width: (ctx: Ctx) => (ctx.chart.chartArea ? ctx.chart.chartArea.width / nx - 1 : 10),
          height: (ctx: Ctx) => (ctx.chart.chartArea ? ctx.chart.chartArea.height / ny - 1 : 10),
        },
      ],
    },
    options: {
      ...baseOptions(p),
      plugins: {
        legend: { display: false },
        tooltip: { callbacks: { title: () => '', label: (ctx: { raw: Cell }) => `${m.questionText(ctx.raw.y)} · ${ctx.raw.x}: ${ctx.raw.v === 'hit' ? 'hit' : `miss — ${ctx.raw.v}`}` } },
      },
      scales: {
        x: { type: 'category', labels: m.rows.map((r) => r.id), offset: true, ticks: { color: p.fg, autoSkip: false, maxRotation: 70, minRotation: 50, font: { size: 10 } }, grid: { display: false } },
        y: { type: 'category', labels: m.questionIds, offset: true, reverse: false /* category y: first label at the top */, ticks: { color: p.fg, autoSkip: false, font: { size: 10 } }, grid: { display: false } },
      },
      onClick: (_e: unknown, els: Array<{ index: number }>) => {
        const el = els[0];
        if (el) act.openDetail(data[el.index].y, data[el.index].x);
      },
    },
  };
});

// Test/automation hook: centre of a cell in canvas CSS pixels (null when the matrix is not shown).
(window as unknown as { spanproofMatrixCell: (q: string, c: string) => { x: number; y: number } | null }).spanproofMatrixCell = (q, c) => {
  const el = document.querySelector<SpChart>('sp-chart.matrix');
  const chart = el?.chart;
  if (!chart) return null;
  const i = (chart.data.datasets[0].data as unknown as Cell[]).findIndex((x) => x.y === q && x.x === c);
  const point = chart.getDatasetMeta(0).data[i] as unknown as { getCenterPoint?: () => { x: number; y: number } } | undefined;
  return point?.getCenterPoint ? point.getCenterPoint() : null;
};

export const matrixTab: TabModule = {
  id: 'matrix',
  label: 'Matrix',
  render({ s, m, act }) {
    if (!m) return html`<p>This run has no results.</p>`;
    const p = palette(s.theme);
    const data = matrixData(m);
    const misses = data.filter((c) => c.v !== 'hit' && c.v !== 'none');
    const legend: Array<[string, string]> = [['hit', m.hitKey], ...CAUSES.map((c): [string, string] => [c, c]), ['failed', 'failed item']];
    return html`<div>
      <p class="muted">${m.questionIds.length} questions (top-down in ground-truth order) × ${m.rows.length} configs (left to right in rank order). Click a cell (or a miss below) for the question detail.</p>
      <ul class="legend" aria-label="Legend">
        ${legend.map(([k, label]) => html`<li><span class="swatch" ${cssProps({ background: colorOf(p, k) })}></span>${label}</li>`)}
      </ul>
      <sp-chart
        class="chart matrix"
        ${cssProps({ height: `${Math.max(240, 60 + m.questionIds.length * 16)}px` })}
        .config=${chartConfig(m, s.theme, act)}
        .label=${'Question × config matrix coloured by hit or miss cause; the list below has the same content'}
        .testid=${'matrix'}
      ></sp-chart>
      <h2>Misses (${misses.length})</h2>
      <ul class="miss-list" aria-label="Misses (question × config)" data-testid="miss-list">
        ${misses.slice(0, 500).map(
          (c) =>
            html`<li>
              <button class="link" data-question=${c.y} data-config=${c.x} data-cause=${c.v} title="${c.y} · ${c.x}: ${c.v}" @click=${() => act.openDetail(c.y, c.x)}>
                ${c.y} · ${c.x}: <span class="cause cause-${c.v}">${c.v}</span> — ${m.questionText(c.y)}
              </button>
            </li>`,
        )}
      </ul>
    </div>`;
  },
};
