/**
 * Causes tab: misses per cause per config (stacked bars, configs in rank order), and for a chosen
 * config the questions under each cause with the cause's advice (from src/core/attribution).
 */
import { html } from 'lit';
import { CAUSE_ADVICE } from '../../src/core/attribution';
import { CAUSES } from '../../src/core/types';
import { axis, baseOptions, palette, title } from '../chart';
import { sentence } from '../format';
import { memoLast } from '../memo';
import type { RunModel } from '../model';
import type { TabModule } from './registry';

const chartConfig = memoLast((m: RunModel, _theme: number) => {
  const p = palette();
  return {
    type: 'bar',
    data: {
      labels: m.rows.map((r) => r.id),
      datasets: CAUSES.map((c) => ({ label: c, data: m.rows.map((r) => r.c.causes[c] ?? 0), backgroundColor: p.cause[c] })),
    },
    options: {
      ...baseOptions(p),
      scales: {
        x: axis(p, { stacked: true }, true),
        y: { ...axis(p, { stacked: true, title: title(p, 'misses') }), ticks: { color: p.fg, precision: 0 } },
      },
    },
  };
});

export const causesTab: TabModule = {
  id: 'causes',
  label: 'Causes',
  render({ s, m, act }) {
    if (!m) return html`<p>This run has no results.</p>`;
    const sel = s.ui.causeConfig && m.rows.some((r) => r.id === s.ui.causeConfig) ? s.ui.causeConfig : m.rows[0]?.id;
    const recs = m.data.questions.filter((r) => r.config === sel && r.cause);
    const groups = CAUSES.map((c) => ({ c, qs: recs.filter((r) => r.cause === c) })).filter((g) => g.qs.length);
    return html`<div>
      <sp-chart class="chart tall" .config=${chartConfig(m, s.theme)} .label=${'Miss causes per config (stacked), configs in rank order; the lists below have the questions'}></sp-chart>
      <h2>
        Questions under each cause for
        <vscode-single-select aria-label="Config" @change=${(e: Event) => act.ui({ causeConfig: (e.target as HTMLElement & { value: string }).value })}>
          ${m.rows.map((r) => html`<vscode-option value=${r.id} ?selected=${r.id === sel}>${r.id}</vscode-option>`)}
        </vscode-single-select>
      </h2>
      ${groups.length
        ? groups.map(
            (g) => html`<section class="cause-group">
              <h3><span class="cause cause-${g.c}">${g.c}</span> ×${g.qs.length}</h3>
              <p class="muted">${sentence(CAUSE_ADVICE[g.c])}.</p>
              <ul>
                ${g.qs.map((r) => html`<li><button class="link" @click=${() => act.openDetail(r.question, r.config)}>${r.question} — ${m.questionText(r.question)}</button></li>`)}
              </ul>
            </section>`,
          )
        : html`<p>No misses for this config.</p>`}
    </div>`;
  },
};
