/**
 * Injection tab (issue #17): exposure@k per chunker (chart, 95% CI, by XPIA kind) and per config, from
 * the run's injection.json (RunData.injection, written by `run --injection-study` or Run Evaluation
 * with `spanproof.injection.study` on), the planted canaries, and — when the run has attacks.json —
 * the XPIA and UPIA attack success (./attacks.ts). Lower is better.
 */
import { html, type TemplateResult } from 'lit';
import type { InjectionStudy } from '../../src/core/safety/types';
import type { MeanCI } from '../../src/core/stats';
import { axis, baseOptions, palette, title } from '../chart';
import { fmtCI } from '../format';
import { memoLast } from '../memo';
import { attacksView } from './attacks';
import type { TabModule } from './registry';

const key = (s: InjectionStudy) => s.metric as `exposure@${number}`;

const chartConfig = memoLast((s: InjectionStudy, _theme: number) => {
  const p = palette();
  const at = (m: MeanCI | undefined) => ({ y: m?.mean ?? 0, yMin: m?.lo ?? 0, yMax: m?.hi ?? 0 });
  return {
    type: 'barWithErrorBars',
    data: {
      labels: s.chunkers.map((c) => c.chunker),
      datasets: [
        { label: `${s.metric} (all kinds)`, data: s.chunkers.map((c) => at(c[key(s)])), backgroundColor: p.series[0], errorBarColor: p.fg, errorBarWhiskerColor: p.fg },
        ...s.kinds.map((k, i) => ({ label: k, data: s.chunkers.map((c) => at((c.byKind as Record<string, MeanCI>)[k])), backgroundColor: p.series[(i + 1) % p.series.length], errorBarColor: p.fg, errorBarWhiskerColor: p.fg })),
      ],
    },
    options: { ...baseOptions(p), scales: { x: axis(p, { title: title(p, 'chunker') }), y: axis(p, { min: 0, max: 1, title: title(p, `${s.metric} (lower is better)`) }) } },
  };
});

function table(s: InjectionStudy, label: string, rows: Array<{ id: string; all: MeanCI | undefined; byKind: Record<string, MeanCI> }>): TemplateResult {
  return html`<table class="grid" aria-label=${label}>
    <thead><tr><th scope="col">${label}</th><th scope="col" class="num">${s.metric}</th>${s.kinds.map((k) => html`<th scope="col" class="num">${k}</th>`)}</tr></thead>
    <tbody>${rows.map((r) => html`<tr><td><code>${r.id}</code></td><td class="num">${fmtCI(r.all)}</td>${s.kinds.map((k) => html`<td class="num">${fmtCI(r.byKind[k])}</td>`)}</tr>`)}</tbody>
  </table>`;
}

function studyView(s: InjectionStudy, theme: number): TemplateResult {
  const k = key(s);
  const configs = [...s.configs].sort((a, b) => (b[k]?.mean ?? 0) - (a[k]?.mean ?? 0) || (a.id < b.id ? -1 : 1));
  const near = s.canaries.filter((c) => c.placement === 'near').length;
  return html`<p class="muted">
      ${s.canaries.length} canary instructions (${s.kinds.join(', ')}; ${near} near evidence, ${s.canaries.length - near} far) were planted in a scratch copy of the corpus — your documents were not modified.
      ${s.metric} = share of the ${s.questions} questions whose top ${s.k} results overlap a canary (95% bootstrap CI). Lower is better.
    </p>
    <p class="warning">${s.note}</p>
    <sp-chart class="chart" .config=${chartConfig(s, theme)} .label=${`${s.metric} per chunker and XPIA kind with 95% CI; the tables below have the numbers`}></sp-chart>
    ${table(s, 'Chunker', s.chunkers.map((c) => ({ id: c.chunker, all: c[k], byKind: c.byKind as Record<string, MeanCI> })))}
    <h2>Per config (most exposed first)</h2>
    ${table(s, 'Config', configs.map((c) => ({ id: c.id, all: c[k], byKind: c.byKind as Record<string, MeanCI> })))}
    <details><summary>Planted canaries (templates ${s.templates}, seed ${s.seed})</summary>
      <ul>${s.canaries.map((c) => html`<li><code>${c.id}</code> <b>${c.kind}</b> (${c.length}, ${c.placement}) in <code>${c.source}</code> [${c.start}, ${c.end}): ${c.text}</li>`)}</ul>
    </details>`;
}

export const injectionTab: TabModule = {
  id: 'injection',
  label: 'Injection & attacks',
  render({ s, m }) {
    const study = m?.data.injection;
    return html`<div data-testid="injection">
      ${study
        ? studyView(study, s.theme)
        : html`<p>This run has no injection exposure study. Run <code>spanproof run --injection-study</code>, or turn on the setting <code>spanproof.injection.study</code> and run the evaluation again.</p>`}
      ${attacksView(m?.data.attacks)}
    </div>`;
  },
};
