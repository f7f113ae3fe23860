/**
 * History tab: every run with its status; tick two to compare them (primary metric per config in A
 * and B, the difference, both ranks). Reads format-1 and format-2 runs alike (through model.ts).
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { RunData } from '../../src/shared/protocol';
import { fmt } from '../format';
import { metricLabel, runModel } from '../model';
import { resource, type PanelState } from '../state';
import type { TabContext, TabModule } from './registry';

function loaded(s: PanelState, dir: string): RunData | string | undefined {
  const r = resource(s, 'loadRun', { runDir: dir });
  return !r || r.status === 'loading' ? undefined : r.status === 'error' ? r.message : r.value;
}

function compareView(s: PanelState, a: string, b: string): TemplateResult {
  const A = loaded(s, a);
  const B = loaded(s, b);
  if (A === undefined || B === undefined) return html`<div class="compare" data-testid="compare">Loading comparison…</div>`;
  if (typeof A === 'string' || typeof B === 'string') return html`<div class="compare" data-testid="compare">Could not compare: ${typeof A === 'string' ? A : B}</div>`;
  const ma = runModel(A);
  const mb = runModel(B);
  const p = ma?.primary ?? mb?.primary ?? '';
  const rowsA = new Map((ma?.rows ?? []).map((r) => [r.id, r] as const));
  const rowsB = new Map((mb?.rows ?? []).map((r) => [r.id, r] as const));
  const ids = [...new Set([...rowsA.keys(), ...rowsB.keys()])];
  const metricB = (id: string) => (rowsB.get(id)?.c.metrics as Record<string, { mean: number } | undefined> | undefined)?.[p]?.mean;
  const differentMetric = mb && ma && mb.primary !== ma.primary;
  return html`<div class="compare" data-testid="compare">
    <h2>Compare ${A.run.id} (A) with ${B.run.id} (B) on ${metricLabel(p)}</h2>
    ${differentMetric ? html`<p class="muted">B's own primary metric is ${metricLabel(mb.primary)}; both columns show ${metricLabel(p)}.</p>` : nothing}
    <table class="grid">
      <caption class="muted">Configs in A's rank order, then those only in B.</caption>
      <thead><tr>${['Config', 'A', 'B', 'B − A', 'rank A', 'rank B'].map((t) => html`<th scope="col">${t}</th>`)}</tr></thead>
      <tbody>
        ${ids.map((id) => {
          const x = rowsA.get(id);
          const mx = x?.q?.mean;
          const my = metricB(id);
          const d = mx !== undefined && my !== undefined ? my - mx : undefined;
          return html`<tr>
            <td><code>${id}</code></td>
            <td class="num">${fmt(mx)}</td>
            <td class="num">${fmt(my)}</td>
            <td class="num ${d && d > 0 ? 'up' : d && d < 0 ? 'down' : ''}">${d === undefined ? '—' : `${d >= 0 ? '+' : ''}${d.toFixed(3)}`}</td>
            <td class="num">${x?.rank ?? '—'}</td>
            <td class="num">${rowsB.get(id)?.rank ?? '—'}</td>
          </tr>`;
        })}
      </tbody>
    </table>
  </div>`;
}

export const historyTab: TabModule = {
  id: 'history',
  label: 'History',
  needs: (s) => (s.ui.compare ? s.ui.compare.map((runDir) => ({ method: 'loadRun' as const, params: { runDir } })) : []),
  render({ s, act }: TabContext) {
    // Ticked runs, in ticking order: the compared pair, or one run waiting for a second.
    const ticked = s.ui.compare ? [...s.ui.compare] : s.ui.compareTicked ? [s.ui.compareTicked] : [];
    const tick = (dir: string, on: boolean) => {
      const next = ticked.filter((d) => d !== dir);
      if (on) next.push(dir);
      const two = next.slice(-2);
      act.ui({ compare: two.length === 2 ? [two[0], two[1]] : undefined, compareTicked: two.length === 1 ? two[0] : undefined });
    };
    return html`<div>
      <p class="muted">Tick two runs to compare them. Newest first.</p>
      <table class="grid" aria-label="Runs" data-testid="history">
        <thead><tr>${['Compare', 'Run', 'Status', 'Started', 'Questions', 'Configs', 'Top config', ''].map((t) => html`<th scope="col">${t}</th>`)}</tr></thead>
        <tbody>
          ${s.runs.map(
            (r) => html`<tr data-run=${r.id} class=${r.dir === s.ui.runDir ? 'current' : ''}>
              <td><input type="checkbox" aria-label="Compare ${r.id}" .checked=${ticked.includes(r.dir)} @change=${(e: Event) => tick(r.dir, (e.target as HTMLInputElement).checked)} /></td>
              <td><code>${r.id}</code></td>
              <td><vscode-badge class="status-${r.status}">${r.status}</vscode-badge></td>
              <td>${r.startedAt}</td>
              <td class="num">${r.questions ?? '—'}</td>
              <td class="num">${r.configs ?? '—'}</td>
              <td>${r.top ?? '—'}</td>
              <td><vscode-button secondary @click=${() => void act.openRun(r.dir)}>Open</vscode-button></td>
            </tr>`,
          )}
        </tbody>
      </table>
      ${s.ui.compare ? compareView(s, s.ui.compare[0], s.ui.compare[1]) : nothing}
    </div>`;
  },
};
