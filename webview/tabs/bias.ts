/**
 * Bias study tab (SPEC §7.5): for each "author" chunker whose chunks label the relevant IDs, its
 * advantage under ID matching vs under span alignment and the difference (the bias) per θ, with
 * paired 95% CIs; per config span vs ID hit@k for a chosen author. The host computes the study on
 * first request and caches it as `<run>/bias.json`.
 */
import { html, type TemplateResult } from 'lit';
import type { BiasStudy } from '../../src/core/bias';
import { axis, baseOptions, palette, title } from '../chart';
import { fmtCI } from '../format';
import { memoLast } from '../memo';
import { resource } from '../state';
import type { TabContext, TabModule } from './registry';

const chartConfig = memoLast((study: BiasStudy, _theme: number) => {
  const p = palette();
  const thetas = study.thetas.map(String);
  return {
    type: 'barWithErrorBars',
    data: {
      labels: study.authors.map((a) => a.author),
      datasets: thetas.map((t, i) => ({
        label: `θ = ${t}`,
        data: study.authors.map((a) => ({ y: a.bias[t]?.mean ?? 0, yMin: a.bias[t]?.lo ?? 0, yMax: a.bias[t]?.hi ?? 0 })),
        backgroundColor: p.series[i % p.series.length],
        errorBarColor: p.fg,
        errorBarWhiskerColor: p.fg,
      })),
    },
    options: {
      ...baseOptions(p),
      scales: {
        x: axis(p, { title: title(p, 'author chunker (labels the IDs)') }),
        y: axis(p, { title: title(p, `bias in hit@${study.k}`) }),
      },
    },
  };
});

function studyView({ s, act }: TabContext, study: BiasStudy): TemplateResult {
  const thetas = study.thetas.map(String);
  const author = study.authors.find((a) => a.author === s.ui.biasAuthor) ?? study.authors[0];
  return html`<p class="muted">
      Chunk-ID ground truth is labelled with one "author" chunker. For each author A, the chunks of A holding the evidence become the relevant IDs; every config is then scored by ID matching (a chunk counts
      when its IoU with a relevant chunk ≥ θ) and by span alignment. <strong>Bias</strong> = A's advantage under ID matching − its advantage under span alignment (paired 95% CI): the part of A's lead
      that the labelling creates. k = ${study.k}, τ = ${study.tau}.
    </p>
    <sp-chart class="chart" .config=${chartConfig(study, s.theme)} .label=${'Bias per author chunker and θ with 95% CI; the tables below have the numbers'}></sp-chart>
    <table class="grid" aria-label="Author advantage and bias per θ">
      <thead>
        <tr>${['Author', 'Labelled questions', 'Span advantage', ...thetas.map((t) => `ID advantage θ=${t}`), ...thetas.map((t) => `Bias θ=${t}`)].map((x) => html`<th scope="col">${x}</th>`)}</tr>
      </thead>
      <tbody>
        ${study.authors.map(
          (a) => html`<tr>
            <td><code>${a.author}</code></td>
            <td class="num">${a.questions}${a.unlabelled.length ? ` (${a.unlabelled.length} unlabelled)` : ''}</td>
            <td class="num">${fmtCI(a.spanAdvantage, true)}</td>
            ${thetas.map((t) => html`<td class="num">${fmtCI(a.idAdvantage[t], true)}</td>`)}
            ${thetas.map((t) => html`<td class="num${a.bias[t]?.significant ? ' significant' : ''}">${fmtCI(a.bias[t], true)}${a.bias[t]?.significant ? ' *' : ''}</td>`)}
          </tr>`,
        )}
      </tbody>
    </table>
    <p class="muted">* = the 95% CI excludes 0.</p>
    <h2>
      Per config, with IDs labelled by
      <vscode-single-select aria-label="Author chunker" @change=${(e: Event) => act.ui({ biasAuthor: (e.target as HTMLElement & { value: string }).value })}>
        ${study.authors.map((a) => html`<vscode-option value=${a.author} ?selected=${a === author}>${a.author}</vscode-option>`)}
      </vscode-single-select>
    </h2>
    ${author
      ? html`<table class="grid" aria-label="Per-config span and ID hit@k">
          <thead>
            <tr>${['Config', `span hit@${study.k}`, ...thetas.map((t) => `ID hit@${study.k} θ=${t}`)].map((x) => html`<th scope="col">${x}</th>`)}</tr>
          </thead>
          <tbody>
            ${author.configs.map(
              (c) => html`<tr class=${c.isAuthor ? 'recommended' : ''}>
                <td><code>${c.config}</code>${c.isAuthor ? ' (author)' : ''}</td>
                <td class="num">${fmtCI(c.span)}</td>
                ${thetas.map((t) => html`<td class="num">${fmtCI(c.id[t])}</td>`)}
              </tr>`,
            )}
          </tbody>
        </table>`
      : ''}`;
}

export const biasTab: TabModule = {
  id: 'bias',
  label: 'Bias study',
  needs: (s) => (s.ui.runDir ? [{ method: 'biasStudy', params: { runDir: s.ui.runDir } }] : []),
  render(ctx) {
    const r = ctx.s.ui.runDir ? resource(ctx.s, 'biasStudy', { runDir: ctx.s.ui.runDir }) : undefined;
    return html`<div data-testid="bias">
      ${!r || r.status === 'loading'
        ? html`<p class="muted">Computing the bias study…</p>`
        : r.status === 'error'
          ? html`<p>The bias study is not available for this run: ${r.message}</p>`
          : studyView(ctx, r.value)}
    </div>`;
  },
};
