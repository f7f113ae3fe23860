/** τ sweep tab: hit@k against the coverage threshold τ (line chart for the five top-ranked configs; table for all, in rank order). */
import { html } from 'lit';
import { axis, baseOptions, palette, title } from '../chart';
import { fmt } from '../format';
import { memoLast } from '../memo';
import type { RunModel } from '../model';
import type { TabModule } from './registry';

const taus = memoLast((m: RunModel) => [...new Set(m.rows.flatMap((r) => Object.keys(r.c.tauSweep ?? {})))].sort((a, b) => Number(a) - Number(b)));

const chartConfig = memoLast((m: RunModel, _theme: number) => {
  const p = palette();
  const ts = taus(m);
  return {
    type: 'line',
    data: {
      labels: ts,
      datasets: m.rows.slice(0, 5).map((r, i) => ({
        label: r.id,
        data: ts.map((t) => r.c.tauSweep[t]?.mean ?? null),
        borderColor: p.series[i % p.series.length],
        backgroundColor: p.series[i % p.series.length],
      })),
    },
    options: {
      ...baseOptions(p),
      scales: {
        x: axis(p, { title: title(p, 'τ (coverage threshold)') }),
        y: axis(p, { min: 0, max: 1, title: title(p, m.hitKey) }),
      },
    },
  };
});

export const tauTab: TabModule = {
  id: 'tau',
  label: 'τ sweep',
  render({ s, m }) {
    if (!m) return html`<p>This run has no results.</p>`;
    const ts = taus(m);
    return html`<div>
      <p class="muted">How ${m.hitKey} depends on the coverage threshold τ (this run: τ = ${m.results.tau}). A steep drop near 1.0 means chunks cut the evidence.</p>
      <sp-chart class="chart" .config=${chartConfig(m, s.theme)} .label=${`${m.hitKey} against τ for the five top-ranked configs; the table below has every config`}></sp-chart>
      <table class="grid" aria-label="τ sweep">
        <caption class="muted">Configs in rank order.</caption>
        <thead>
          <tr><th scope="col">Config</th>${ts.map((t) => html`<th scope="col" class="num">τ = ${t}</th>`)}</tr>
        </thead>
        <tbody>
          ${m.rows.map((r) => html`<tr><td><code>${r.id}</code></td>${ts.map((t) => html`<td class="num">${fmt(r.c.tauSweep[t]?.mean)}</td>`)}</tr>`)}
        </tbody>
      </table>
    </div>`;
  },
};
