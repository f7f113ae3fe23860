/**
 * Answers tab (SPEC §12, §14): models and prompt versions, the ledger, judge aggregates per config
 * (mean [95% CI], measured/total), the retrieval-vs-answer scatter (coverage@k vs answer quality,
 * Pearson r per config and pooled), and per question the answer, its context and every judge score
 * with its reason — unmeasured items marked with why. Data: the `loadAnswers` request.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { JUDGE_METRICS } from '../../src/core/judge/types';
import type { AnswerRecord, AnswersData, JudgeMetric, JudgeScore } from '../../src/shared/answers';
import { axis, baseOptions, palette, title } from '../chart';
import { fmt } from '../format';
import { memoLast } from '../memo';
import { recordValue } from '../model';
import { resource } from '../state';
import type { TabContext, TabModule } from './registry';

const METRIC_LABEL: Record<JudgeMetric, string> = {
  groundedness: 'Groundedness (1–5)',
  relevance: 'Relevance (1–5)',
  coherence: 'Coherence (1–5)',
  fluency: 'Fluency (1–5)',
  similarity: 'Similarity (1–5)',
  retrieval: 'Retrieval (1–5)',
  faithfulness: 'Faithfulness (0–1)',
  answerCorrectness: 'Answer correctness F1.5 (0–1)',
  booleanCorrectness: 'Correct (0/1)',
};

/** Metrics present in `obj`, in the order of JUDGE_METRICS (results.json writes keys sorted alphabetically). */
const ordered = (obj: object): JudgeMetric[] => JUDGE_METRICS.filter((m) => m in obj);

/** The retrieval metric the answers are correlated with: results.json `answers.correlation.x`, else the records' own `coverage@k` key. */
function coverageKey(d: AnswersData): string {
  return d.summary?.correlation.x ?? Object.keys(d.records[0] ?? {}).find((k) => k.startsWith('coverage@')) ?? 'coverage';
}

function scoreCell(s: JudgeScore | undefined): TemplateResult {
  if (!s) return html`<span class="muted">—</span>`;
  if ('unmeasured' in s) return html`<span class="unmeasured" title=${s.reason}>unmeasured</span>`;
  return html`<span title=${s.reason}>${s.score.toFixed(Number.isInteger(s.score) ? 0 : 2)}${s.spread !== undefined ? html`<span class="muted"> (spread ${fmt(s.spread, 2)}, agreement ${fmt(s.agreement, 2)})</span>` : nothing}</span>`;
}

function header(d: AnswersData): TemplateResult {
  const s = d.summary;
  const l = d.ledger;
  const status = !s ? '' : s.status === 'cancelled' ? ' — cancelled: answers finished before the cancel' : s.status === 'failed' ? ` — failed: ${s.error ?? 'see ledger.json'} (answers finished before the failure)` : '';
  return html`<section class="answers-header">
    ${s
      ? html`<p>Generator <b>${s.generatorModel}</b>, judge <b>${s.judgeModel}</b> at ${s.endpoint}${s.repeats > 1 ? ` — ${s.repeats} repeats per judgement` : ''}${status}</p>`
      : html`<p>The run has answers but no aggregates (the generation did not finish).</p>`}
    ${s?.sameModel ? html`<p class="warning" role="alert">The same model generated and judged these answers: judges favour their own output.</p>` : nothing}
    ${l
      ? html`<p class="muted">
          Ledger: ${l.requests} request(s), ${l.cachedResponses} from the cache, ${l.promptTokens} prompt + ${l.completionTokens} completion tokens${l.cost !== undefined ? `, cost ${l.cost.toFixed(4)}` : ''};
          ${Object.entries(l.byModel)
            .map(([m, c]) => `${m}: ${c.requests} req, mean ${c.requests ? Math.round(c.latencyMs / c.requests) : 0} ms`)
            .join('; ')}.
        </p>`
      : nothing}
    ${s ? html`<details><summary>Prompt versions</summary><ul>${Object.entries(s.prompts).map(([id, v]) => html`<li><code>${v}</code> (${id})</li>`)}</ul></details>` : nothing}
  </section>`;
}

function aggregateTable(d: AnswersData): TemplateResult | typeof nothing {
  const s = d.summary;
  if (!s || s.configs.length === 0) return nothing;
  return html`<table class="answers-agg">
    <caption>Judge scores per config: mean of measured items [95% bootstrap CI], measured/total</caption>
    <thead><tr><th scope="col">metric</th>${s.configs.map((c) => html`<th scope="col">${c.id}</th>`)}</tr></thead>
    <tbody>
      ${ordered(s.configs[0].metrics).map(
        (m) => html`<tr>
          <th scope="row">${METRIC_LABEL[m] ?? m}</th>
          ${s.configs.map((c) => {
            const a = c.metrics[m];
            return html`<td>${a.mean === null ? '—' : `${fmt(a.mean, 2)} [${fmt(a.lo, 2)}, ${fmt(a.hi, 2)}]`}<span class=${a.measured < a.total ? 'unmeasured' : 'muted'}> ${a.measured}/${a.total}</span></td>`;
          })}
        </tr>`,
      )}
      <tr>
        <th scope="row">r(${coverageKey(d)}, ${s.correlation.y})</th>
        ${s.configs.map((c) => html`<td>${c.correlation.r === null ? '—' : `${fmt(c.correlation.r, 2)} [${fmt(c.correlation.lo, 2)}, ${fmt(c.correlation.hi, 2)}]`}<span class="muted"> n=${c.correlation.n}</span></td>`)}
      </tr>
    </tbody>
  </table>`;
}

const scatterConfig = memoLast((d: AnswersData, _theme: number) => {
  const s = d.summary!;
  const y = s.correlation.y;
  const cov = coverageKey(d);
  const p = palette();
  return {
    type: 'scatter',
    data: {
      datasets: s.configs.map((c, i) => ({
        label: `${c.id} (r ${fmt(c.correlation.r, 2)})`,
        data: d.records
          .filter((r) => r.config === c.id && recordValue(r, cov) !== null && r.judges[y] && !('unmeasured' in r.judges[y]!))
          .map((r) => ({ x: recordValue(r, cov) as number, y: (r.judges[y] as { score: number }).score })),
        backgroundColor: p.series[i % p.series.length],
        pointRadius: 4,
      })),
    },
    options: { ...baseOptions(p), scales: { x: axis(p, { min: 0, max: 1, title: title(p, cov) }), y: axis(p, { title: title(p, y) }) } },
  };
});

function scatter(d: AnswersData, theme: number): TemplateResult | typeof nothing {
  const s = d.summary;
  if (!s) return nothing;
  const cov = coverageKey(d);
  const pooled = s.correlation.pooled;
  return html`<figure class="answers-scatter">
    <sp-chart class="chart" .config=${scatterConfig(d, theme)} .label=${`${cov} against ${s.correlation.y} per question and config`}></sp-chart>
    <figcaption>Retrieval quality (${cov}) vs answer quality (${s.correlation.y}). Pooled r = ${fmt(pooled.r, 2)} [${fmt(pooled.lo, 2)}, ${fmt(pooled.hi, 2)}], n = ${pooled.n}.</figcaption>
  </figure>`;
}

function detail(ctx: TabContext, d: AnswersData, rec: AnswerRecord): TemplateResult {
  const cov = coverageKey(d);
  return html`<section class="answer-detail">
    <h3>${d.questions[rec.question] ?? rec.question}<span class="muted"> — ${rec.config}</span></h3>
    ${rec.answer === null ? html`<p class="unmeasured">No answer: ${rec.error ?? 'generation failed'}</p>` : html`<blockquote class="answer">${rec.answer}</blockquote>`}
    <p>
      Context given to the generator:
      ${rec.contexts.map((c, i) => html`<button class="link" @click=${() => ctx.act.reveal(c.source, c.start, c.end)}>[${i + 1}] ${c.source}:${c.start}–${c.end}</button> `)}
      <span class="muted"> ${cov} ${fmt(recordValue(rec, cov), 2)}</span>
    </p>
    <table class="answer-judges">
      <thead><tr><th scope="col">metric</th><th scope="col">score</th><th scope="col">reason</th></tr></thead>
      <tbody>
        ${ordered(rec.judges).map((m) => {
          const s = rec.judges[m]!;
          const claims = 'claims' in s && s.claims ? html`<ul class="claims">${s.claims.map((c) => html`<li class=${c.supported ? 'supported' : 'unsupported'}>${c.supported ? '✓ ' : '✗ '}${c.claim}<span class="muted"> — ${c.reason}</span></li>`)}</ul>` : nothing;
          return html`<tr><th scope="row">${METRIC_LABEL[m] ?? m}</th><td>${scoreCell(s)}</td><td>${s.reason}${claims}</td></tr>`;
        })}
      </tbody>
    </table>
  </section>`;
}

function items(ctx: TabContext, d: AnswersData): TemplateResult {
  const st = ctx.s.ui.answers ?? {};
  const configs = [...new Set(d.records.map((r) => r.config))];
  const config = st.config && configs.includes(st.config) ? st.config : configs[0];
  const recs = d.records.filter((r) => r.config === config);
  const question = st.question && recs.some((r) => r.question === st.question) ? st.question : recs[0]?.question;
  const pick = (next: { config?: string; question?: string }) => ctx.act.ui({ answers: { ...st, ...next } });
  const rec = recs.find((r) => r.question === question);
  return html`<section class="answers-items">
    <label>Config
      <select aria-label="config" @change=${(e: Event) => pick({ config: (e.target as HTMLSelectElement).value, question: undefined })}>
        ${configs.map((c) => html`<option value=${c} ?selected=${c === config}>${c}</option>`)}
      </select>
    </label>
    <div class="answers-split">
      <ul class="answer-list" role="listbox" aria-label="questions">
        ${recs.map((r) => {
          const unmeasured = Object.values(r.judges).filter((s) => s && 'unmeasured' in s).length;
          const on = r.question === question;
          return html`<li role="option" tabindex="0" aria-selected=${String(on)} class=${on ? 'selected' : ''} @click=${() => pick({ question: r.question })}
            @keydown=${(e: KeyboardEvent) => (e.key === 'Enter' || e.key === ' ') && pick({ question: r.question })}>
            ${d.questions[r.question] ?? r.question}${unmeasured ? html`<span class="unmeasured"> ${unmeasured} unmeasured</span>` : nothing}
          </li>`;
        })}
      </ul>
      ${rec ? detail(ctx, d, rec) : nothing}
    </div>
  </section>`;
}

export const answersTab: TabModule = {
  id: 'answers',
  label: 'Answers',
  needs: (s) => (s.ui.runDir ? [{ method: 'loadAnswers', params: { runDir: s.ui.runDir } }] : []),
  render(ctx) {
    const r = ctx.s.ui.runDir ? resource(ctx.s, 'loadAnswers', { runDir: ctx.s.ui.runDir }) : undefined;
    let body: TemplateResult;
    if (!r || r.status === 'loading') body = html`<p class="muted">Loading answers…</p>`;
    else if (r.status === 'error') body = html`<p>Could not read the answers of this run: ${r.message}</p>`;
    else if (!r.value || r.value.records.length === 0)
      body = html`<p>
        No answers in this run. Answers are opt-in: set an endpoint and two different models (spanproof.judge.*), or run
        <code>spanproof generate &lt;run dir&gt; --endpoint URL --generator-model M --judge-model J</code>. See docs/judges.md for exactly what is sent.
      </p>`;
    else body = html`${header(r.value)}${aggregateTable(r.value)}${scatter(r.value, ctx.s.theme)}${items(ctx, r.value)}`;
    return html`<div data-testid="answers">${body}</div>`;
  },
};
