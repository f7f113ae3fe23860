/**
 * Spanproof results panel (runs in the webview). Components from @vscode-elements/elements (imported
 * one by one), charts from Chart.js (+ error bars, matrix). Talks to the host only through the typed
 * protocol (rpc.ts); restores its state after a reload.
 */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-tabs/index.js';
import '@vscode-elements/elements/dist/vscode-tab-header/index.js';
import '@vscode-elements/elements/dist/vscode-tab-panel/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-progress-bar/index.js';
import type { ConfigResult, EvidenceFile, LiveQuestionData, MissDetail, QuestionRecord, RankingEntry, RunData, RunSummary } from '../src/shared/protocol';
import { describeProgress } from '../src/shared/protocol';
import { getState, onNotify, request, send, setState } from './rpc';
import { append, clear, fmt, h } from './dom';
import { CAUSE_ADVICE, CAUSE_ORDER, Chart, baseOptions, palette } from './charts';
import { renderAnswers } from './answers';

// ------------------------------------------------------------------------------------------------
// State

type Tab = 'ranking' | 'matrix' | 'causes' | 'tau' | 'bias' | 'answers' | 'question' | 'history';
const TABS: Array<[Tab, string]> = [
  ['ranking', 'Ranking'],
  ['matrix', 'Matrix'],
  ['causes', 'Causes'],
  ['tau', 'τ sweep'],
  ['bias', 'Bias study'],
  ['answers', 'Answers'],
  ['question', 'Question'],
  ['history', 'History'],
];

interface UiState {
  runDir?: string;
  tab: Tab;
  sort: { key: string; dir: 'ascending' | 'descending' };
  question?: string;
  config?: string;
  compare?: [string, string];
  causeConfig?: string;
  biasAuthor?: string;
  answers?: { config?: string; question?: string };
}

const ui: UiState = { tab: 'ranking', sort: { key: 'rank', dir: 'ascending' }, ...(getState<UiState>() ?? {}) };
let data: RunData | null = null;
let runs: RunSummary[] = [];
let progress: { done: number; total: number; stage: string } | null = null;
let banner: { kind: 'error' | 'info'; text: string } | null = null;
/** A live one-question re-run (host `liveQuestion`, nothing on disk): the Question tab shows it instead of the run's records. */
let live: LiveQuestionData | null = null;
/** Workspace Trust (host `trust` notification): running is disabled in Restricted Mode. */
let trusted = true;
const RESTRICTED_TIP = 'Running an evaluation needs a trusted workspace (Restricted Mode). Use "Manage Workspace Trust" to trust this folder.';
const charts: Chart[] = [];

function save(): void {
  setState(ui);
}

interface Row {
  id: string;
  c: ConfigResult;
  r: RankingEntry | undefined;
  rank: number;
  dominant: string | null;
}

function rows(): Row[] {
  if (!data?.results) return [];
  const byId = new Map((data.ranking ?? []).map((r) => [r.id, r] as const));
  return data.results.configs.map((c) => {
    const r = byId.get(c.id);
    let dominant: string | null = null;
    let best = 0;
    for (const k of CAUSE_ORDER) {
      if ((c.causes[k] ?? 0) > best) {
        best = c.causes[k];
        dominant = k;
      }
    }
    return { id: c.id, c, r, rank: r?.rank ?? c.rank, dominant };
  });
}

function primary(): string {
  return data?.results?.primaryMetric ?? 'hit@5';
}

// ------------------------------------------------------------------------------------------------
// Shell

const app = document.getElementById('app')!;

function destroyCharts(): void {
  while (charts.length) charts.pop()!.destroy();
}

function render(): void {
  destroyCharts();
  clear(app);
  app.setAttribute('aria-busy', 'false');
  append(app, [header(), banner ? h('div', { class: `banner ${banner.kind}`, role: 'alert' }, banner.text) : null, progressView(), tabs()]);
}

function header(): HTMLElement {
  const select = h('vscode-single-select', { 'aria-label': 'Run', class: 'run-select', 'data-testid': 'run-select' });
  for (const r of runs) {
    const o = h('vscode-option', { value: r.dir, ...(r.dir === ui.runDir ? { selected: true } : {}) }, `${r.id} · ${r.status}`);
    select.appendChild(o);
  }
  select.addEventListener('change', () => {
    live = null;
    void openRun((select as unknown as { value: string }).value);
  });
  const run = data?.run;
  const a = data?.results?.acceptance ?? run?.acceptance;
  return h(
    'header',
    { class: 'top' },
    h('h1', {}, 'Spanproof results'),
    runs.length ? select : h('span', { class: 'muted' }, 'No runs yet.'),
    run ? h('vscode-badge', { 'data-testid': 'run-status', class: `status-${run.status}` }, run.status) : null,
    trusted
      ? h('vscode-button', { onclick: () => void request('runEvaluation', {}), 'data-testid': 'run-button' }, 'Run Evaluation')
      : // A disabled button shows no tooltip of its own: the wrapper carries it.
        h('span', { title: RESTRICTED_TIP, 'data-testid': 'run-button-wrap' }, h('vscode-button', { disabled: true, 'aria-disabled': 'true', 'aria-label': `Run Evaluation — ${RESTRICTED_TIP}`, 'data-testid': 'run-button' }, 'Run Evaluation')),
    progress ? h('vscode-button', { secondary: true, onclick: () => void request('cancelEvaluation', {}) }, 'Cancel') : null,
    data ? h('vscode-button', { secondary: true, onclick: () => void request('exportReport', { runDir: ui.runDir!, format: 'html' }) }, 'Export Report…') : null,
    a
      ? h(
          'p',
          { class: 'acceptance', 'data-testid': 'acceptance' },
          `Ground truth: ${a.resolved}/${a.total} questions resolved (${a.moved} moved; ${a.stale.length} stale, ${a.ambiguous.length} ambiguous, ${a.rejected.length} rejected — excluded, never scored as misses). `,
          data?.results ? `${data.results.configs.length} configs · k = ${data.results.k} · τ = ${data.results.tau} · N = ${data.results.poolSize ?? data.results.n}.` : '',
        )
      : null,
  );
}

function progressView(): HTMLElement | null {
  if (!progress) return null;
  const bar = h('vscode-progress-bar', { 'aria-label': 'Evaluation progress' });
  return h('div', { class: 'progress', role: 'status', 'data-testid': 'progress' }, `Running: ${describeProgress(progress)}`, bar);
}

function tabs(): HTMLElement {
  if (!data && live) return h('section', { class: 'tabpanel', 'data-panel': 'question', 'aria-label': 'Question' }, questionView());
  if (!data) {
    return h('section', { class: 'empty' }, runs.length ? 'Select a run.' : 'Run an evaluation (Spanproof: Run Evaluation) to see the ranking here.', historyView());
  }
  // Plain buttons with role=tab: vscode-tabs re-creates ids, and we need stable data-* hooks.
  const list = h('div', { role: 'tablist', class: 'tablist', 'aria-label': 'Result views' });
  const btns: HTMLButtonElement[] = [];
  TABS.forEach(([id, label], i) => {
    const b = h('button', { role: 'tab', 'data-tab': id, 'aria-selected': String(ui.tab === id), tabindex: ui.tab === id ? 0 : -1, class: 'tab' }, label);
    b.addEventListener('click', () => selectTab(id));
    b.addEventListener('keydown', (e) => {
      const k = (e as KeyboardEvent).key;
      const j = k === 'ArrowRight' ? (i + 1) % TABS.length : k === 'ArrowLeft' ? (i + TABS.length - 1) % TABS.length : -1;
      if (j >= 0) {
        selectTab(TABS[j][0]);
        (document.querySelector(`[data-tab="${TABS[j][0]}"]`) as HTMLElement | null)?.focus();
      }
    });
    btns.push(b);
    list.appendChild(b);
  });
  const panel = h('section', { role: 'tabpanel', class: 'tabpanel', 'data-panel': ui.tab, 'aria-label': TABS.find((t) => t[0] === ui.tab)![1] });
  const views: Record<Tab, () => Node> = { ranking: rankingView, matrix: matrixView, causes: causesView, tau: tauView, bias: biasView, answers: answersView, question: questionView, history: historyView };
  panel.appendChild(views[ui.tab]());
  return h('div', {}, list, panel);
}

function selectTab(t: Tab): void {
  ui.tab = t;
  save();
  render();
}

// ------------------------------------------------------------------------------------------------
// Ranking

const COLUMNS: Array<{ key: string; label: string; value: (r: Row) => number | string; num?: boolean }> = [
  { key: 'rank', label: 'Rank', value: (r) => r.rank, num: true },
  { key: 'id', label: 'Config', value: (r) => r.id },
  { key: 'primary', label: 'Primary (95% CI)', value: (r) => r.c.metrics[primary() as 'hit@5']?.mean ?? 0, num: true },
  { key: 'mrr', label: 'MRR', value: (r) => r.c.metrics.mrr?.mean ?? 0, num: true },
  { key: 'ndcg', label: 'nDCG@5', value: (r) => r.c.metrics['ndcg@5']?.mean ?? 0, num: true },
  { key: 'latency', label: 'Latency ms', value: (r) => r.r?.latencyMs ?? 0, num: true },
  { key: 'context', label: 'Context chars', value: (r) => r.c.contextChars, num: true },
  { key: 'score', label: 'Score', value: (r) => r.r?.score ?? 0, num: true },
  { key: 'cause', label: 'Dominant miss cause', value: (r) => r.dominant ?? '' },
];

function rankingView(): Node {
  const rs = rows();
  const col = COLUMNS.find((c) => c.key === ui.sort.key) ?? COLUMNS[0];
  const dir = ui.sort.dir === 'ascending' ? 1 : -1;
  rs.sort((a, b) => {
    const x = col.value(a);
    const y = col.value(b);
    return (x < y ? -1 : x > y ? 1 : 0) * dir || a.rank - b.rank;
  });
  const top = rs.find((r) => r.r?.recommended) ?? rs.find((r) => r.rank === 1);
  const p = primary();
  const chartBox = h('div', { class: 'chart tall' });
  const canvas = h('canvas', { role: 'img', 'aria-label': `${p} with 95% confidence interval per config, in rank order` });
  chartBox.appendChild(canvas);
  const byRank = [...rs].sort((a, b) => a.rank - b.rank);
  const pal = palette();
  charts.push(
    new Chart(canvas, {
      type: 'barWithErrorBars',
      data: {
        labels: byRank.map((r) => `${r.rank}. ${r.id}${r.r?.pareto ? ' ◆' : ''}`),
        datasets: [
          {
            label: `${p} (95% CI)`,
            data: byRank.map((r) => ({ y: r.c.metrics[p as 'hit@5']?.mean ?? 0, yMin: r.c.metrics[p as 'hit@5']?.lo ?? 0, yMax: r.c.metrics[p as 'hit@5']?.hi ?? 0 })),
            backgroundColor: byRank.map((r) => (r.r?.pareto ? pal.series[0] : pal.series[0] + '80')),
            errorBarColor: pal.fg,
            errorBarWhiskerColor: pal.fg,
          },
        ],
      },
      options: {
        ...baseOptions(pal),
        scales: {
          x: { ticks: { color: pal.fg, autoSkip: false, maxRotation: 70, minRotation: 50, font: { size: 10 } }, grid: { color: pal.grid } },
          y: { min: 0, max: 1, ticks: { color: pal.fg }, grid: { color: pal.grid } },
        },
      } as never,
    } as never),
  );

  const table = h('table', { class: 'grid ranking', role: 'grid', 'aria-label': 'Ranked configurations', 'data-testid': 'ranking-table' });
  const thead = h('thead');
  const hr = h('tr');
  for (const c of COLUMNS) {
    const sorted = c.key === ui.sort.key;
    const th = h('th', { scope: 'col', 'aria-sort': sorted ? ui.sort.dir : 'none', class: c.num ? 'num' : '' });
    const b = h('button', { class: 'sort', 'data-sort': c.key, title: `Sort by ${c.label}` }, c.label, sorted ? (ui.sort.dir === 'ascending' ? ' ▲' : ' ▼') : '');
    b.addEventListener('click', () => {
      ui.sort = { key: c.key, dir: sorted && ui.sort.dir === 'ascending' ? 'descending' : 'ascending' };
      save();
      render();
      (document.querySelector(`[data-sort="${c.key}"]`) as HTMLElement | null)?.focus();
    });
    th.appendChild(b);
    hr.appendChild(th);
  }
  thead.appendChild(hr);
  const tbody = h('tbody');
  const focusables: HTMLTableRowElement[] = [];
  rs.forEach((r, i) => {
    const m = r.c.metrics[p as 'hit@5'];
    const ci = h('span', { class: 'ci', 'aria-hidden': 'true' });
    const bar = h('span', { class: 'ci-range' });
    const dot = h('span', { class: 'ci-mean' });
    if (m) {
      bar.style.left = `${m.lo * 100}%`;
      bar.style.width = `${Math.max(0.5, (m.hi - m.lo) * 100)}%`;
      dot.style.left = `${m.mean * 100}%`;
    }
    ci.append(bar, dot);
    const expl = h('tr', { class: 'explanation', hidden: true }, h('td', { colspan: COLUMNS.length }, r.r?.explanation ?? r.c.explanation));
    const tr = h(
      'tr',
      { tabindex: i === 0 ? 0 : -1, 'data-config': r.id, 'aria-expanded': 'false', class: r.r?.recommended ? 'recommended' : '' },
      h('td', { class: 'num' }, r.rank),
      h('td', {}, h('code', {}, r.id), r.r?.pareto ? h('span', { class: 'pareto', title: 'On the Pareto front (quality vs latency vs context)' }, ' ◆ Pareto') : null, r.r?.recommended ? h('span', { class: 'rec' }, ' ★ recommended') : null),
      h('td', { class: 'num' }, m ? `${fmt(m.mean)} [${fmt(m.lo)}, ${fmt(m.hi)}]` : '—', ci),
      h('td', { class: 'num' }, fmt(r.c.metrics.mrr?.mean)),
      h('td', { class: 'num' }, fmt(r.c.metrics['ndcg@5']?.mean)),
      h('td', { class: 'num' }, fmt(r.r?.latencyMs, 1)),
      h('td', { class: 'num' }, Math.round(r.c.contextChars)),
      h('td', { class: 'num' }, fmt(r.r?.score)),
      h('td', {}, r.dominant ? h('span', { class: `cause cause-${r.dominant}` }, `${r.dominant} ×${r.c.causes[r.dominant as 'ranked-too-low']}`) : '—'),
    );
    const toggle = () => {
      expl.hidden = !expl.hidden;
      tr.setAttribute('aria-expanded', String(!expl.hidden));
    };
    tr.addEventListener('click', toggle);
    tr.addEventListener('keydown', (e) => {
      const k = (e as KeyboardEvent).key;
      if (k === 'Enter' || k === ' ') {
        e.preventDefault();
        toggle();
      } else if (k === 'ArrowDown' || k === 'ArrowUp') {
        e.preventDefault();
        const j = Math.max(0, Math.min(focusables.length - 1, i + (k === 'ArrowDown' ? 1 : -1)));
        tr.tabIndex = -1;
        focusables[j].tabIndex = 0;
        focusables[j].focus();
      }
    });
    focusables.push(tr);
    tbody.append(tr, expl);
  });
  table.append(thead, tbody);
  const sigNote = top ? h('p', { class: 'explain-top', 'data-testid': 'top-explanation' }, top.r?.explanation ?? top.c.explanation) : null;
  return h('div', {}, sigNote, h('p', { class: 'muted' }, '◆ = Pareto front (quality vs latency vs context). Enter or click a row for its explanation; arrow keys move between rows.'), chartBox, table);
}

// ------------------------------------------------------------------------------------------------
// Matrix

interface Cell {
  x: string;
  y: string;
  v: string;
}

function recordIndex(): Map<string, QuestionRecord> {
  const m = new Map<string, QuestionRecord>();
  for (const r of data?.questions ?? []) m.set(`${r.question}\u0000${r.config}`, r);
  return m;
}

function questionText(id: string): string {
  return data?.evidence?.questions.find((q) => q.id === id)?.question ?? id;
}

function matrixView(): Node {
  const configs = rows().sort((a, b) => a.rank - b.rank).map((r) => r.id);
  // Ground-truth order (evidence.json keeps it), top-down like the Questions view; then any others.
  const seen = new Set((data?.questions ?? []).map((r) => r.question));
  const qids = [...new Set([...(data?.evidence?.questions ?? []).map((q) => q.id).filter((q) => seen.has(q)), ...seen])];
  const idx = recordIndex();
  const cells: Cell[] = [];
  for (const q of qids)
    for (const c of configs) {
      const r = idx.get(`${q}\u0000${c}`);
      cells.push({ x: c, y: q, v: !r ? 'none' : r.status === 'failed' ? 'failed' : r['hit@5'] === 1 ? 'hit' : (r.cause ?? 'miss') });
    }
  const pal = palette();
  const colorOf = (v: string) => (v === 'hit' ? pal.hit : v === 'failed' || v === 'none' ? pal.failed : (pal.cause[v] ?? pal.failed));
  const box = h('div', { class: 'chart matrix' });
  box.style.height = `${Math.max(240, 60 + qids.length * 16)}px`;
  const canvas = h('canvas', { role: 'img', 'aria-label': 'Question × config matrix coloured by hit or miss cause; the list below has the same content', 'data-testid': 'matrix' });
  box.appendChild(canvas);
  const chart = new Chart(canvas, {
    type: 'matrix',
    data: {
      datasets: [
        {
          label: 'hit / cause',
          data: cells,
          backgroundColor: (ctx: { raw?: Cell }) => colorOf(ctx.raw?.v ?? 'none'),
          borderColor: pal.grid,
          borderWidth: 1,
          width: (ctx: { chart: Chart }) => (ctx.chart.chartArea ? ctx.chart.chartArea.width / Math.max(1, configs.length) - 1 : 10),
          height: (ctx: { chart: Chart }) => (ctx.chart.chartArea ? ctx.chart.chartArea.height / Math.max(1, qids.length) - 1 : 10),
        },
      ],
    },
    options: {
      ...baseOptions(pal),
      plugins: {
        legend: { display: false },
        tooltip: { callbacks: { title: () => '', label: (ctx: { raw: Cell }) => `${questionText(ctx.raw.y)} · ${ctx.raw.x}: ${ctx.raw.v === 'hit' ? 'hit' : `miss — ${ctx.raw.v}`}` } },
      },
      scales: {
        x: { type: 'category', labels: configs, offset: true, ticks: { color: pal.fg, autoSkip: false, maxRotation: 70, minRotation: 50, font: { size: 10 } }, grid: { display: false } },
        y: { type: 'category', labels: qids, offset: true, reverse: false /* category y: first label at the top */, ticks: { color: pal.fg, autoSkip: false, font: { size: 10 } }, grid: { display: false } },
      },
      onClick: (_e: unknown, els: Array<{ index: number }>) => {
        const el = els[0];
        if (el) openDetail(cells[el.index].y, cells[el.index].x);
      },
    } as never,
  } as never);
  charts.push(chart);
  // Test/automation hook: centre of a cell in canvas CSS pixels.
  (window as unknown as { spanproofMatrixCell: (q: string, c: string) => { x: number; y: number } | null }).spanproofMatrixCell = (q, c) => {
    const i = cells.findIndex((x) => x.y === q && x.x === c);
    const el = chart.getDatasetMeta(0).data[i] as unknown as { getCenterPoint?: () => { x: number; y: number } } | undefined;
    return el?.getCenterPoint ? el.getCenterPoint() : null;
  };
  const legend = h(
    'ul',
    { class: 'legend', 'aria-label': 'Legend' },
    [['hit', 'hit@5'], ...CAUSE_ORDER.map((c) => [c, c]), ['failed', 'failed item']].map(([k, label]) => {
      const sw = h('span', { class: 'swatch' });
      sw.style.background = colorOf(k);
      return h('li', {}, sw, label);
    }),
  );
  // Accessible equivalent of the canvas: every miss as a button.
  const misses = cells.filter((c) => c.v !== 'hit' && c.v !== 'none');
  const list = h('ul', { class: 'miss-list', 'aria-label': 'Misses (question × config)', 'data-testid': 'miss-list' });
  for (const m of misses.slice(0, 500)) {
    list.appendChild(
      h('li', {}, h('button', { class: 'link', 'data-question': m.y, 'data-config': m.x, 'data-cause': m.v, title: `${m.y} · ${m.x}: ${m.v}`, onclick: () => openDetail(m.y, m.x) }, `${m.y} · ${m.x}: `, h('span', { class: `cause cause-${m.v}` }, m.v), ` — ${questionText(m.y)}`)),
    );
  }
  return h(
    'div',
    {},
    h('p', { class: 'muted' }, `${qids.length} questions × ${configs.length} configs. Click a cell (or a miss below) for the question detail.`),
    legend,
    box,
    h('h2', {}, `Misses (${misses.length})`),
    list,
  );
}

function openDetail(question: string, config: string): void {
  ui.question = question;
  ui.config = config;
  ui.tab = 'question';
  save();
  render();
  // Start the detail at its top, not at the scroll position the matrix or list had.
  const top = document.querySelector('.tablist');
  if (top) top.scrollIntoView({ block: 'start' });
  else window.scrollTo(0, 0);
}

// ------------------------------------------------------------------------------------------------
// Causes

function causesView(): Node {
  const rs = rows().sort((a, b) => a.rank - b.rank);
  const pal = palette();
  const box = h('div', { class: 'chart tall' });
  const canvas = h('canvas', { role: 'img', 'aria-label': 'Miss causes per config (stacked); the table below has the numbers' });
  box.appendChild(canvas);
  charts.push(
    new Chart(canvas, {
      type: 'bar',
      data: {
        labels: rs.map((r) => r.id),
        datasets: CAUSE_ORDER.map((c) => ({ label: c, data: rs.map((r) => r.c.causes[c] ?? 0), backgroundColor: pal.cause[c] })),
      },
      options: {
        ...baseOptions(pal),
        scales: {
          x: { stacked: true, ticks: { color: pal.fg, autoSkip: false, maxRotation: 70, minRotation: 50, font: { size: 10 } }, grid: { color: pal.grid } },
          y: { stacked: true, ticks: { color: pal.fg, precision: 0 }, grid: { color: pal.grid }, title: { display: true, text: 'misses', color: pal.fg } },
        },
      } as never,
    }),
  );
  const sel = ui.causeConfig ?? rs[0]?.id;
  const pick = h('vscode-single-select', { 'aria-label': 'Config' });
  for (const r of rs) pick.appendChild(h('vscode-option', { value: r.id, ...(r.id === sel ? { selected: true } : {}) }, r.id));
  pick.addEventListener('change', () => {
    ui.causeConfig = (pick as unknown as { value: string }).value;
    save();
    render();
  });
  const recs = (data?.questions ?? []).filter((r) => r.config === sel && r.cause);
  const lists = CAUSE_ORDER.map((c) => {
    const qs = recs.filter((r) => r.cause === c);
    if (!qs.length) return null;
    return h(
      'section',
      { class: 'cause-group' },
      h('h3', {}, h('span', { class: `cause cause-${c}` }, c), ` ×${qs.length}`),
      h('p', { class: 'muted' }, CAUSE_ADVICE[c]),
      h('ul', {}, qs.map((r) => h('li', {}, h('button', { class: 'link', onclick: () => openDetail(r.question, r.config) }, `${r.question} — ${questionText(r.question)}`)))),
    );
  });
  return h('div', {}, box, h('h2', {}, 'Questions under each cause for ', pick), recs.length ? lists : h('p', {}, 'No misses for this config.'));
}

// ------------------------------------------------------------------------------------------------
// τ sweep

function tauView(): Node {
  const rs = rows().sort((a, b) => a.rank - b.rank);
  const taus = [...new Set(rs.flatMap((r) => Object.keys(r.c.tauSweep ?? {})))].sort((a, b) => Number(a) - Number(b));
  const pal = palette();
  const box = h('div', { class: 'chart' });
  const canvas = h('canvas', { role: 'img', 'aria-label': 'hit@k against τ for the five top-ranked configs; the table below has every config' });
  box.appendChild(canvas);
  charts.push(
    new Chart(canvas, {
      type: 'line',
      data: {
        labels: taus,
        datasets: rs.slice(0, 5).map((r, i) => ({
          label: r.id,
          data: taus.map((t) => r.c.tauSweep[t]?.mean ?? null),
          borderColor: pal.series[i % pal.series.length],
          backgroundColor: pal.series[i % pal.series.length],
        })),
      },
      options: {
        ...baseOptions(pal),
        scales: {
          x: { title: { display: true, text: 'τ (coverage threshold)', color: pal.fg }, ticks: { color: pal.fg }, grid: { color: pal.grid } },
          y: { min: 0, max: 1, title: { display: true, text: `hit@${data?.results?.k ?? 5}`, color: pal.fg }, ticks: { color: pal.fg }, grid: { color: pal.grid } },
        },
      } as never,
    }),
  );
  const table = h(
    'table',
    { class: 'grid', 'aria-label': 'τ sweep' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Config'), taus.map((t) => h('th', { scope: 'col', class: 'num' }, `τ = ${t}`)))),
    h('tbody', {}, rs.map((r) => h('tr', {}, h('td', {}, h('code', {}, r.id)), taus.map((t) => h('td', { class: 'num' }, fmt(r.c.tauSweep[t]?.mean)))))),
  );
  return h('div', {}, h('p', { class: 'muted' }, 'How hit@k depends on the coverage threshold τ. A steep drop near 1.0 means chunks cut the evidence.'), box, table);
}

// ------------------------------------------------------------------------------------------------
// Bias study (SPEC §7.5)

const ci = (m: { mean: number; lo: number; hi: number } | undefined, signed = false) =>
  m ? `${signed && m.mean >= 0 ? '+' : ''}${fmt(m.mean)} [${fmt(m.lo)}, ${fmt(m.hi)}]` : '—';

function biasView(): Node {
  const host = h('div', { 'data-testid': 'bias' }, h('p', { class: 'muted' }, 'Computing the bias study…'));
  if (!ui.runDir) return host;
  void request('biasStudy', { runDir: ui.runDir })
    .then((study) => {
      clear(host);
      const pal = palette();
      const thetas = study.thetas.map(String);
      append(host, [
        h(
          'p',
          { class: 'muted' },
          'Chunk-ID ground truth is labelled with one "author" chunker. For each author A, the chunks of A holding the evidence become the relevant IDs; every config is then scored by ID matching (a chunk counts when its IoU with a relevant chunk ≥ θ) and by span alignment. ',
          h('strong', {}, 'Bias'),
          ` = A's advantage under ID matching − its advantage under span alignment (paired 95% CI): the part of A's lead that the labelling creates. k = ${study.k}, τ = ${study.tau}.`,
        ),
      ]);
      const box = h('div', { class: 'chart' });
      const canvas = h('canvas', { role: 'img', 'aria-label': 'Bias per author chunker and θ with 95% CI; the tables below have the numbers' });
      box.appendChild(canvas);
      host.appendChild(box);
      charts.push(
        new Chart(canvas, {
          type: 'barWithErrorBars',
          data: {
            labels: study.authors.map((a) => a.author),
            datasets: thetas.map((t, i) => ({
              label: `θ = ${t}`,
              data: study.authors.map((a) => ({ y: a.bias[t]?.mean ?? 0, yMin: a.bias[t]?.lo ?? 0, yMax: a.bias[t]?.hi ?? 0 })),
              backgroundColor: pal.series[i % pal.series.length],
              errorBarColor: pal.fg,
              errorBarWhiskerColor: pal.fg,
            })),
          },
          options: {
            ...baseOptions(pal),
            scales: {
              x: { title: { display: true, text: 'author chunker (labels the IDs)', color: pal.fg }, ticks: { color: pal.fg }, grid: { color: pal.grid } },
              y: { title: { display: true, text: `bias in hit@${study.k}`, color: pal.fg }, ticks: { color: pal.fg }, grid: { color: pal.grid } },
            },
          } as never,
        } as never),
      );
      host.appendChild(
        h(
          'table',
          { class: 'grid', 'aria-label': 'Author advantage and bias per θ' },
          h('thead', {}, h('tr', {}, ['Author', 'Labelled questions', 'Span advantage', ...thetas.map((t) => `ID advantage θ=${t}`), ...thetas.map((t) => `Bias θ=${t}`)].map((x) => h('th', { scope: 'col' }, x)))),
          h(
            'tbody',
            {},
            study.authors.map((a) =>
              h(
                'tr',
                {},
                h('td', {}, h('code', {}, a.author)),
                h('td', { class: 'num' }, `${a.questions}${a.unlabelled.length ? ` (${a.unlabelled.length} unlabelled)` : ''}`),
                h('td', { class: 'num' }, ci(a.spanAdvantage, true)),
                thetas.map((t) => h('td', { class: 'num' }, ci(a.idAdvantage[t], true))),
                thetas.map((t) => h('td', { class: `num${a.bias[t]?.significant ? ' significant' : ''}` }, ci(a.bias[t], true), a.bias[t]?.significant ? ' *' : '')),
              ),
            ),
          ),
        ),
      );
      host.appendChild(h('p', { class: 'muted' }, '* = the 95% CI excludes 0.'));
      const author = ui.biasAuthor ?? study.authors[0]?.author;
      const pick = h('vscode-single-select', { 'aria-label': 'Author chunker' });
      for (const a of study.authors) pick.appendChild(h('vscode-option', { value: a.author, ...(a.author === author ? { selected: true } : {}) }, a.author));
      pick.addEventListener('change', () => {
        ui.biasAuthor = (pick as unknown as { value: string }).value;
        save();
        render();
      });
      const a = study.authors.find((x) => x.author === author);
      host.appendChild(h('h2', {}, 'Per config, with IDs labelled by ', pick));
      if (a) {
        host.appendChild(
          h(
            'table',
            { class: 'grid', 'aria-label': 'Per-config span and ID hit@k' },
            h('thead', {}, h('tr', {}, ['Config', `span hit@${study.k}`, ...thetas.map((t) => `ID hit@${study.k} θ=${t}`)].map((x) => h('th', { scope: 'col' }, x)))),
            h(
              'tbody',
              {},
              a.configs.map((c) =>
                h('tr', { class: c.isAuthor ? 'recommended' : '' }, h('td', {}, h('code', {}, c.config), c.isAuthor ? ' (author)' : ''), h('td', { class: 'num' }, ci(c.span)), thetas.map((t) => h('td', { class: 'num' }, ci(c.id[t])))),
              ),
            ),
          ),
        );
      }
    })
    .catch((e: Error) => {
      clear(host);
      host.appendChild(h('p', {}, `The bias study is not available for this run: ${e.message}`));
    });
  return host;
}

// ------------------------------------------------------------------------------------------------
// Answers (SPEC §14; the tab's content is webview/answers.ts)

function answersView(): Node {
  const host = h('div', { 'data-testid': 'answers' }, h('p', { class: 'muted' }, 'Loading answers…'));
  if (!ui.runDir) return host;
  void request('loadAnswers', { runDir: ui.runDir })
    .then((answers) =>
      renderAnswers(host, answers, {
        charts,
        reveal: (source, start, end) => void request('revealSpan', { source, start, end }),
        state: ui.answers ?? {},
        onState: (st) => {
          ui.answers = st;
          save();
        },
      }),
    )
    .catch((e: Error) => {
      clear(host);
      host.appendChild(h('p', {}, `Could not read the answers of this run: ${e.message}`));
    });
  return host;
}

// ------------------------------------------------------------------------------------------------
// Question detail

/** What the Question tab shows: the open run's records, or a live one-question re-run's. */
interface QuestionSource {
  qs: EvidenceFile['questions'];
  qids: string[];
  configs: string[];
  idx: Map<string, QuestionRecord>;
  k: number;
}

function questionSource(): QuestionSource {
  if (live) {
    const idx = new Map(live.records.map((r) => [`${r.question}\u0000${r.config}`, r] as const));
    return { qs: live.question ? [live.question] : [], qids: [live.questionId], configs: live.records.map((r) => r.config), idx, k: live.k };
  }
  const qs = data?.evidence?.questions ?? [];
  const qids = qs.length ? qs.map((q) => q.id) : [...new Set((data?.questions ?? []).map((r) => r.question))];
  return { qs, qids, configs: rows().sort((a, b) => a.rank - b.rank).map((r) => r.id), idx: recordIndex(), k: data?.results?.k ?? 5 };
}

function liveNote(l: LiveQuestionData): Node {
  const recs = l.records.filter((r) => r.status === 'ok');
  const hits = recs.filter((r) => r['hit@5'] === 1).length;
  return h(
    'p',
    { class: 'banner info live', role: 'status', 'data-testid': 'live-rerun', 'data-question': l.questionId },
    `Live re-run of ${l.questionId} (not saved as a run): hit@${l.k} in ${hits} of ${recs.length} configs. `,
    data
      ? h('button', { class: 'link', 'data-testid': 'live-back', onclick: () => { live = null; render(); } }, `Back to run ${data.run.id}`)
      : null,
  );
}

function questionView(): Node {
  const { qs, qids, configs, idx, k } = questionSource();
  const qid = live ? live.questionId : (ui.question ?? qids[0]);
  const cfg = ui.config && configs.includes(ui.config) ? ui.config : configs[0];
  const qSel = h('vscode-single-select', { 'aria-label': 'Question', 'data-testid': 'question-select' });
  for (const id of qids) qSel.appendChild(h('vscode-option', { value: id, ...(id === qid ? { selected: true } : {}) }, `${id} — ${qs.find((x) => x.id === id)?.question ?? questionText(id)}`));
  qSel.addEventListener('change', () => {
    live = null; // another question: back to the run's records
    ui.question = (qSel as unknown as { value: string }).value;
    save();
    render();
  });
  const cSel = h('vscode-single-select', { 'aria-label': 'Config' });
  for (const id of configs) cSel.appendChild(h('vscode-option', { value: id, ...(id === cfg ? { selected: true } : {}) }, id));
  cSel.addEventListener('change', () => {
    ui.config = (cSel as unknown as { value: string }).value;
    save();
    render();
  });
  const q = qs.find((x) => x.id === qid);
  const rec = idx.get(`${qid}\u0000${cfg}`);
  const out = h('div', { class: 'detail', 'data-testid': 'question-detail', 'data-question': qid ?? '', 'data-config': cfg ?? '', 'data-live': String(!!live) });
  append(out, [live ? liveNote(live) : null, h('div', { class: 'pickers' }, h('label', {}, 'Question ', qSel), h('label', {}, 'Config ', cSel))]);
  if (!q || !rec) {
    out.appendChild(h('p', {}, 'No record for this question and config.'));
    return out;
  }
  const hit = rec['hit@5'] === 1;
  append(out, [
    h('h2', {}, q.question),
    h(
      'p',
      { class: 'verdict', 'data-testid': 'verdict' },
      rec.status === 'failed'
        ? h('span', { class: 'cause cause-failed' }, `failed: ${String(rec.error ?? 'item failed')}`)
        : hit
          ? h('span', { class: 'hit' }, `✓ hit@${k} (coverage@5 ${fmt(rec['coverage@5'])}, RR ${fmt(rec.rr)})`)
          : [h('span', { class: `cause cause-${rec.cause}`, 'data-testid': 'cause' }, `✗ ${rec.cause}`), ` — ${CAUSE_ADVICE[rec.cause ?? ''] ?? ''}`],
    ),
    h('h3', {}, `Evidence (${q.match === 'any' ? 'any one suffices' : 'all needed'})`),
    h(
      'ul',
      { class: 'evidence' },
      q.spans.map((s) =>
        h('li', {}, h('button', { class: 'link', onclick: () => void request('revealSpan', { source: s.source, start: s.start, end: s.end }) }, `${s.source} [${s.start}, ${s.end})`), h('blockquote', {}, s.text)),
      ),
    ),
  ]);
  const miss = rec.miss as MissDetail | undefined;
  if (!hit && miss) out.appendChild(cutView(miss));
  const list = h('ol', { class: 'results', 'data-testid': 'result-list' });
  rec.results.forEach((r, i) => {
    const inK = i < k;
    const ov = overlap(r, q.spans);
    const li = h(
      'li',
      { class: `${inK ? 'in-k' : 'below-k'}${ov > 0 ? ' has-evidence' : ''}` },
      h(
        'button',
        { class: 'chunk link', 'data-rank': i + 1, 'data-source': r.source, 'data-start': r.start, 'data-end': r.end, onclick: () => void request('revealSpan', { source: r.source, start: r.start, end: r.end }) },
        `#${i + 1} ${r.source} [${r.start}, ${r.end}) · score ${fmt(r.score)}${ov > 0 ? ` · holds ${Math.round(ov * 100)}% of the evidence` : ''}`,
      ),
    );
    if (i === k) list.appendChild(h('li', { class: 'cutoff', 'aria-label': `cut-off k = ${k}` }, `— k = ${k} —`));
    if (inK) {
      const pre = h('pre', { class: 'chunk-text' }, '…');
      li.appendChild(pre);
      void fillHighlighted(pre, r, q.spans);
    }
    list.appendChild(li);
  });
  append(out, [h('h3', {}, `Result list (final order of the candidate pool; first ${k} are returned)`), list]);
  return out;
}

function overlap(r: { source: string; start: number; end: number }, spans: Array<{ source: string; start: number; end: number }>): number {
  let total = 0;
  let got = 0;
  for (const s of spans) {
    total += s.end - s.start;
    if (s.source === r.source) got += Math.max(0, Math.min(s.end, r.end) - Math.max(s.start, r.start));
  }
  return total ? got / total : 0;
}

/** Fill `pre` with the chunk text, evidence parts in <mark>. */
async function fillHighlighted(pre: HTMLElement, r: { source: string; start: number; end: number }, spans: Array<{ source: string; start: number; end: number }>): Promise<void> {
  const got = await request('readSpan', { source: r.source, start: r.start, end: r.end }).catch(() => null);
  clear(pre);
  if (!got) {
    pre.textContent = '(document not available)';
    return;
  }
  const marks = spans.filter((s) => s.source === r.source).map((s) => [Math.max(s.start, r.start) - r.start, Math.min(s.end, r.end) - r.start] as const).filter(([a, b]) => b > a).sort((a, b) => a[0] - b[0]);
  let at = 0;
  for (const [a, b] of marks) {
    if (a > at) pre.append(got.text.slice(at, a));
    pre.append(h('mark', {}, got.text.slice(Math.max(a, at), b)));
    at = Math.max(at, b);
  }
  pre.append(got.text.slice(at));
}

/** "Where the cut fell": the evidence with the best chunk's boundaries drawn inside it. */
function cutView(m: MissDetail): Node {
  const box = h('section', { class: 'cut', 'data-testid': 'cut' });
  const e = m.evidence;
  const c = m.bestChunk;
  append(box, [
    h('h3', {}, 'Where the cut fell'),
    h(
      'p',
      { class: 'muted' },
      c
        ? `Best chunk ${c.source} [${c.start}, ${c.end}) covers ${Math.round(c.coverage * 100)}% of the evidence ${e.source} [${e.start}, ${e.end})${m.bestChunkRank ? `; it is ranked #${m.bestChunkRank}` : '; it is not in the candidate pool'}.`
        : 'No chunk overlaps the evidence.',
    ),
  ]);
  const pre = h('pre', { class: 'chunk-text' }, '…');
  box.appendChild(pre);
  // Window: the evidence with up to 200 characters of the chunk on either side, plus a little context.
  const sameDoc = !!c && c.source === e.source;
  const from = Math.max(0, Math.min(e.start, sameDoc ? Math.max(c.start, e.start - 200) : e.start) - 60);
  const to = Math.max(e.end, sameDoc ? Math.min(c.end, e.end + 200) : e.end) + 60;
  void request('readSpan', { source: e.source, start: from, end: to })
    .then((got) => {
      clear(pre);
      if (!got) return;
      // Walk the text; insert ✂ at chunk boundaries; evidence in <mark>; chunk in <span class=in-chunk>.
      const bounds = new Set<number>();
      if (c && c.source === e.source) {
        bounds.add(c.start);
        bounds.add(c.end);
      }
      const pts = [...new Set([from, e.start, e.end, ...(c && c.source === e.source ? [c.start, c.end] : []), from + got.text.length])].filter((x) => x >= from && x <= from + got.text.length).sort((a, b) => a - b);
      for (let i = 0; i < pts.length - 1; i++) {
        const a = pts[i];
        const b = pts[i + 1];
        if (bounds.has(a)) pre.append(h('span', { class: 'scissors', title: 'chunk boundary' }, '✂'));
        const seg = got.text.slice(a - from, b - from);
        const inEv = a >= e.start && b <= e.end;
        const inChunk = !!c && c.source === e.source && a >= c.start && b <= c.end;
        pre.append(h(inEv ? 'mark' : 'span', { class: inChunk ? 'in-chunk' : 'out-chunk' }, seg));
      }
      if (bounds.has(pts[pts.length - 1])) pre.append(h('span', { class: 'scissors' }, '✂'));
      // Scroll the box (not the page) so the evidence is in view.
      const mark = pre.querySelector('mark') as HTMLElement | null;
      if (mark) pre.scrollTop = Math.max(0, mark.offsetTop - 40); // pre is position: relative
    })
    .catch(() => undefined);
  return box;
}

// ------------------------------------------------------------------------------------------------
// History and compare

function historyView(): Node {
  const table = h(
    'table',
    { class: 'grid', 'aria-label': 'Runs', 'data-testid': 'history' },
    h('thead', {}, h('tr', {}, ['Compare', 'Run', 'Status', 'Started', 'Questions', 'Configs', 'Top config', ''].map((t) => h('th', { scope: 'col' }, t)))),
  );
  const tbody = h('tbody');
  const chosen = new Set(ui.compare ?? []);
  for (const r of runs) {
    const box = h('input', { type: 'checkbox', 'aria-label': `Compare ${r.id}`, ...(chosen.has(r.dir) ? { checked: true } : {}) }) as HTMLInputElement;
    box.addEventListener('change', () => {
      if (box.checked) chosen.add(r.dir);
      else chosen.delete(r.dir);
      const two = [...chosen].slice(-2);
      ui.compare = two.length === 2 ? [two[0], two[1]] : undefined;
      save();
      if (ui.compare) render();
    });
    tbody.appendChild(
      h(
        'tr',
        { 'data-run': r.id, class: r.dir === ui.runDir ? 'current' : '' },
        h('td', {}, box),
        h('td', {}, h('code', {}, r.id)),
        h('td', {}, h('vscode-badge', { class: `status-${r.status}` }, r.status)),
        h('td', {}, r.startedAt),
        h('td', { class: 'num' }, r.questions ?? '—'),
        h('td', { class: 'num' }, r.configs ?? '—'),
        h('td', {}, r.top ?? '—'),
        h('td', {}, h('vscode-button', { secondary: true, onclick: () => void openRun(r.dir) }, 'Open')),
      ),
    );
  }
  table.appendChild(tbody);
  const out = h('div', {}, h('p', { class: 'muted' }, 'Tick two runs to compare them.'), table);
  if (ui.compare) {
    const host = h('div', { class: 'compare', 'data-testid': 'compare' }, 'Loading comparison…');
    out.appendChild(host);
    void compareView(host, ui.compare[0], ui.compare[1]);
  }
  return out;
}

async function compareView(host: HTMLElement, a: string, b: string): Promise<void> {
  try {
    const [A, B] = await Promise.all([request('loadRun', { runDir: a }), request('loadRun', { runDir: b })]);
    const p = A.results?.primaryMetric ?? 'hit@5';
    const mb = new Map((B.results?.configs ?? []).map((c) => [c.id, c] as const));
    const ids = [...new Set([...(A.results?.configs ?? []).map((c) => c.id), ...mb.keys()])];
    clear(host);
    append(host, [
      h('h2', {}, `Compare ${A.run.id} (A) with ${B.run.id} (B) on ${p}`),
      h(
        'table',
        { class: 'grid' },
        h('thead', {}, h('tr', {}, ['Config', 'A', 'B', 'B − A', 'rank A', 'rank B'].map((t) => h('th', { scope: 'col' }, t)))),
        h(
          'tbody',
          {},
          ids.map((id) => {
            const x = A.results?.configs.find((c) => c.id === id);
            const y = mb.get(id);
            const mx = x?.metrics[p as 'hit@5']?.mean;
            const my = y?.metrics[p as 'hit@5']?.mean;
            const d = mx !== undefined && my !== undefined ? my - mx : undefined;
            return h('tr', {}, h('td', {}, h('code', {}, id)), h('td', { class: 'num' }, fmt(mx)), h('td', { class: 'num' }, fmt(my)), h('td', { class: `num ${d && d > 0 ? 'up' : d && d < 0 ? 'down' : ''}` }, d === undefined ? '—' : `${d >= 0 ? '+' : ''}${d.toFixed(3)}`), h('td', { class: 'num' }, x?.rank ?? '—'), h('td', { class: 'num' }, y?.rank ?? '—'));
          }),
        ),
      ),
    ]);
  } catch (e) {
    host.textContent = `Could not compare: ${(e as Error).message}`;
  }
}

// ------------------------------------------------------------------------------------------------
// Loading

async function refreshRuns(): Promise<void> {
  runs = await request('listRuns', {});
}

async function openRun(dir: string): Promise<void> {
  try {
    data = await request('loadRun', { runDir: dir });
    ui.runDir = dir;
    banner = data.run.status === 'failed' && data.run.error ? { kind: 'error', text: `This run failed: ${data.run.error.message}` } : null;
    if (data.run.status === 'cancelled') banner = { kind: 'info', text: 'This run was cancelled; its partial results are not scored.' };
    save();
  } catch (e) {
    banner = { kind: 'error', text: `Could not open the run: ${(e as Error).message}` };
  }
  render();
}

onNotify((n) => {
  switch (n.event) {
    case 'runsChanged':
      runs = n.data;
      render();
      break;
    case 'showRun': {
      live = null;
      const tab = n.data.tab;
      void refreshRuns().then(async () => {
        if (tab) ui.tab = tab; // openRun renders with it (and saves it)
        await openRun(n.data.runDir);
      });
      break;
    }
    case 'progress':
      progress = n.data;
      render();
      break;
    case 'runFinished':
      progress = null;
      if (n.data.runDir) live = null; // a new saved run replaces a live re-run
      if (n.data.status !== 'succeeded') banner = { kind: n.data.status === 'failed' ? 'error' : 'info', text: `Evaluation ${n.data.status}. Earlier runs are intact.` };
      void refreshRuns().then(() => (n.data.runDir ? openRun(n.data.runDir) : render()));
      break;
    case 'liveQuestion':
      live = n.data;
      ui.tab = 'question';
      ui.question = n.data.questionId;
      save();
      render();
      (document.querySelector('[data-testid="live-rerun"]') as HTMLElement | null)?.scrollIntoView({ block: 'start' });
      break;
    case 'trust':
      trusted = n.data.trusted;
      render();
      break;
    case 'workerCrashed':
      progress = null;
      banner = { kind: 'error', text: `The evaluation worker crashed: ${n.data.message}` };
      render();
      break;
  }
});

// Redraw charts when the theme changes (body class changes: vscode-light / vscode-dark / vscode-high-contrast).
new MutationObserver(() => render()).observe(document.body, { attributes: true, attributeFilter: ['class'] });

void (async () => {
  send({ type: 'ready' });
  await refreshRuns().catch(() => undefined);
  if (ui.runDir && runs.some((r) => r.dir === ui.runDir)) await openRun(ui.runDir);
  else if (runs.find((r) => r.status === 'succeeded')) await openRun(runs.find((r) => r.status === 'succeeded')!.dir);
  else render();
})();
