/**
 * The "Answers" tab of the results panel (SPEC §12, §14): models and prompt versions, the ledger, a
 * table of judge aggregates per config (mean [95% CI], measured/total), the retrieval-vs-answer scatter
 * plot (coverage@5 vs answer quality, Pearson r per config and pooled), and per question the answer,
 * its context and every judge score with its reason — unmeasured items marked with why.
 *
 * Standalone: `renderAnswers(root, data, hooks)` builds everything under `root`; the panel calls it
 * with the result of the `loadAnswers` request (src/shared/answers.ts). Charts it creates are pushed
 * to `hooks.charts` so the panel destroys them with its own.
 */
import { ScatterController } from 'chart.js';
import { JUDGE_METRICS, type AnswerRecord, type AnswersData, type JudgeMetric, type JudgeScore } from '../src/shared/answers';
import { Chart, baseOptions, palette } from './charts';
import { clear, fmt, h } from './dom';

Chart.register(ScatterController);

export interface AnswersHooks {
  /** Charts created here (the panel destroys them on re-render). */
  charts: Chart[];
  /** Open the document at a context span (host `revealSpan`). */
  reveal?: (source: string, start: number, end: number) => void;
  /** Persisted selection. */
  state: { config?: string; question?: string };
  onState?: (s: { config?: string; question?: string }) => void;
}

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
function ordered(obj: object): JudgeMetric[] {
  return JUDGE_METRICS.filter((m) => m in obj);
}

function scoreCell(s: JudgeScore | undefined): HTMLElement {
  if (!s) return h('span', { class: 'muted' }, '—');
  if ('unmeasured' in s) return h('span', { class: 'unmeasured', title: s.reason }, 'unmeasured');
  const digits = Number.isInteger(s.score) ? 0 : 2;
  return h('span', { title: s.reason }, s.score.toFixed(digits), s.spread !== undefined ? h('span', { class: 'muted' }, ` (spread ${fmt(s.spread, 2)}, agreement ${fmt(s.agreement, 2)})`) : null);
}

function header(d: AnswersData): HTMLElement {
  const s = d.summary;
  const l = d.ledger;
  return h(
    'section',
    { class: 'answers-header' },
    s
      ? h('p', {}, `Generator `, h('b', {}, s.generatorModel), `, judge `, h('b', {}, s.judgeModel), ` at ${s.endpoint}`, s.repeats > 1 ? ` — ${s.repeats} repeats per judgement` : '', s.status === 'cancelled' ? ' — cancelled: answers finished before the cancel' : s.status === 'failed' ? ` — failed: ${s.error ?? 'see ledger.json'} (answers finished before the failure)` : '')
      : h('p', {}, 'The run has answers but no aggregates (the generation did not finish).'),
    s?.sameModel ? h('p', { class: 'warning', role: 'alert' }, 'The same model generated and judged these answers: judges favour their own output.') : null,
    l
      ? h('p', { class: 'muted' }, `Ledger: ${l.requests} request(s), ${l.cachedResponses} from the cache, ${l.promptTokens} prompt + ${l.completionTokens} completion tokens${l.cost !== undefined ? `, cost ${l.cost.toFixed(4)}` : ''}; ${Object.entries(l.byModel).map(([m, c]) => `${m}: ${c.requests} req, mean ${c.requests ? Math.round(c.latencyMs / c.requests) : 0} ms`).join('; ')}.`)
      : null,
    s ? h('details', {}, h('summary', {}, 'Prompt versions'), h('ul', {}, Object.entries(s.prompts).map(([id, v]) => h('li', {}, h('code', {}, v), ` (${id})`)))) : null,
  );
}

function aggregateTable(d: AnswersData): HTMLElement | null {
  const s = d.summary;
  if (!s || s.configs.length === 0) return null;
  const metrics = ordered(s.configs[0].metrics);
  return h(
    'table',
    { class: 'answers-agg' },
    h('caption', {}, 'Judge scores per config: mean of measured items [95% bootstrap CI], measured/total'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'metric'), s.configs.map((c) => h('th', { scope: 'col' }, c.id)))),
    h(
      'tbody',
      {},
      metrics.map((m) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, METRIC_LABEL[m] ?? m),
          s.configs.map((c) => {
            const a = c.metrics[m];
            return h('td', {}, a.mean === null ? '—' : `${fmt(a.mean, 2)} [${fmt(a.lo, 2)}, ${fmt(a.hi, 2)}]`, h('span', { class: a.measured < a.total ? 'unmeasured' : 'muted' }, ` ${a.measured}/${a.total}`));
          }),
        ),
      ),
      h('tr', {}, h('th', { scope: 'row' }, `r(coverage@5, ${s.correlation.y})`), s.configs.map((c) => h('td', {}, c.correlation.r === null ? '—' : `${fmt(c.correlation.r, 2)} [${fmt(c.correlation.lo, 2)}, ${fmt(c.correlation.hi, 2)}]`, h('span', { class: 'muted' }, ` n=${c.correlation.n}`)))),
    ),
  );
}

function scatter(d: AnswersData, hooks: AnswersHooks): HTMLElement | null {
  const s = d.summary;
  if (!s) return null;
  const y = s.correlation.y;
  const p = palette();
  const canvas = h('canvas', { role: 'img', 'aria-label': `coverage@5 against ${y} per question and config` });
  const wrap = h('figure', { class: 'answers-scatter' }, h('div', { style: 'position:relative;height:280px' }, canvas), h('figcaption', {}, `Retrieval quality (coverage@5) vs answer quality (${y}). Pooled r = ${fmt(s.correlation.pooled.r, 2)} [${fmt(s.correlation.pooled.lo, 2)}, ${fmt(s.correlation.pooled.hi, 2)}], n = ${s.correlation.pooled.n}.`));
  const datasets = s.configs.map((c, i) => ({
    label: `${c.id} (r ${fmt(c.correlation.r, 2)})`,
    data: d.records
      .filter((r) => r.config === c.id && r['coverage@5'] !== null && r.judges[y] && !('unmeasured' in r.judges[y]!))
      .map((r) => ({ x: r['coverage@5'] as number, y: (r.judges[y] as { score: number }).score })),
    backgroundColor: p.series[i % p.series.length],
    pointRadius: 4,
  }));
  queueMicrotask(() => {
    hooks.charts.push(
      new Chart(canvas, {
        type: 'scatter',
        data: { datasets },
        options: { ...baseOptions(p), scales: { x: { min: 0, max: 1, title: { display: true, text: 'coverage@5', color: p.fg }, ticks: { color: p.fg }, grid: { color: p.grid } }, y: { title: { display: true, text: y, color: p.fg }, ticks: { color: p.fg }, grid: { color: p.grid } } } } as never,
      }),
    );
  });
  return wrap;
}

function detail(d: AnswersData, rec: AnswerRecord, hooks: AnswersHooks): HTMLElement {
  return h(
    'section',
    { class: 'answer-detail' },
    h('h3', {}, d.questions[rec.question] ?? rec.question, h('span', { class: 'muted' }, ` — ${rec.config}`)),
    rec.answer === null ? h('p', { class: 'unmeasured' }, `No answer: ${rec.error ?? 'generation failed'}`) : h('blockquote', { class: 'answer' }, rec.answer),
    h(
      'p',
      {},
      'Context given to the generator: ',
      rec.contexts.map((c, i) =>
        h('a', { href: '#', onclick: ((ev: Event) => { ev.preventDefault(); hooks.reveal?.(c.source, c.start, c.end); }) as EventListener }, `[${i + 1}] ${c.source}:${c.start}–${c.end}`, ' '),
      ),
      h('span', { class: 'muted' }, ` coverage@5 ${fmt(rec['coverage@5'], 2)}`),
    ),
    h(
      'table',
      { class: 'answer-judges' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'metric'), h('th', { scope: 'col' }, 'score'), h('th', { scope: 'col' }, 'reason'))),
      h(
        'tbody',
        {},
        ordered(rec.judges).map((m) => {
          const s = rec.judges[m]!;
          const claims = 'claims' in s && s.claims ? h('ul', { class: 'claims' }, s.claims.map((c) => h('li', { class: c.supported ? 'supported' : 'unsupported' }, c.supported ? '✓ ' : '✗ ', c.claim, h('span', { class: 'muted' }, ` — ${c.reason}`)))) : null;
          return h('tr', {}, h('th', { scope: 'row' }, METRIC_LABEL[m] ?? m), h('td', {}, scoreCell(s)), h('td', {}, s.reason, claims));
        }),
      ),
    ),
  );
}

/** Renders the Answers tab into `root` (cleared first). `data` null = the run has no answers. */
export function renderAnswers(root: HTMLElement, data: AnswersData | null, hooks: AnswersHooks): void {
  clear(root);
  if (!data || data.records.length === 0) {
    root.appendChild(
      h('p', {}, 'No answers in this run. Answers are opt-in: set an endpoint and two different models (spanproof.judge.*), or run ', h('code', {}, 'spanproof generate <run dir> --endpoint URL --generator-model M --judge-model J'), '. See docs/judges.md for exactly what is sent.'),
    );
    return;
  }
  root.appendChild(header(data));
  const agg = aggregateTable(data);
  if (agg) root.appendChild(agg);
  const sc = scatter(data, hooks);
  if (sc) root.appendChild(sc);

  const configs = [...new Set(data.records.map((r) => r.config))];
  const config = hooks.state.config && configs.includes(hooks.state.config) ? hooks.state.config : configs[0];
  const recs = data.records.filter((r) => r.config === config);
  const question = hooks.state.question && recs.some((r) => r.question === hooks.state.question) ? hooks.state.question : recs[0]?.question;
  const pick = (next: { config?: string; question?: string }) => {
    hooks.state = { ...hooks.state, ...next };
    hooks.onState?.(hooks.state);
    renderAnswers(root, data, hooks);
  };
  const select = h('select', { 'aria-label': 'config', onchange: ((ev: Event) => pick({ config: (ev.target as HTMLSelectElement).value, question: undefined })) as EventListener }, configs.map((c) => h('option', { value: c, selected: c === config }, c)));
  const list = h(
    'ul',
    { class: 'answer-list', role: 'listbox', 'aria-label': 'questions' },
    recs.map((r) => {
      const unmeasured = Object.values(r.judges).filter((s) => s && 'unmeasured' in s).length;
      return h(
        'li',
        { role: 'option', tabindex: 0, 'aria-selected': r.question === question ? 'true' : 'false', class: r.question === question ? 'selected' : '', onclick: (() => pick({ question: r.question })) as EventListener, onkeydown: ((ev: KeyboardEvent) => { if (ev.key === 'Enter' || ev.key === ' ') pick({ question: r.question }); }) as EventListener },
        data.questions[r.question] ?? r.question,
        unmeasured ? h('span', { class: 'unmeasured' }, ` ${unmeasured} unmeasured`) : null,
      );
    }),
  );
  const rec = recs.find((r) => r.question === question);
  root.appendChild(h('section', { class: 'answers-items' }, h('label', {}, 'Config ', select), h('div', { class: 'answers-split' }, list, rec ? detail(data, rec, hooks) : null)));
}
