/**
 * Question tab: one question × one config — the hit or the miss cause with its advice, the evidence
 * (click opens the document at the span), where the cut fell, and the final result list with the
 * first k chunks' text and the evidence highlighted. After "Run Evaluation for This Question" it shows
 * that live re-run (records from the host, nothing on disk) instead of the open run's records.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { CAUSE_ADVICE } from '../../src/core/attribution';
import type { Cause } from '../../src/core/types';
import type { EvidenceFile, MissDetail, QuestionRecord } from '../../src/shared/protocol';
import { fmt, sentence } from '../format';
import { recordValue, type RunModel } from '../model';
import { resource, type Need, type PanelState } from '../state';
import { cutView, cutWindow } from './cut';
import type { TabContext, TabModule } from './registry';

type Evidence = EvidenceFile['questions'][number];

/** What the tab shows: the selected question and config of the run, or of a live re-run. */
interface Detail {
  questions: Array<{ id: string; text: string }>;
  configs: string[];
  qid: string | undefined;
  config: string | undefined;
  q: Evidence | undefined;
  rec: QuestionRecord | undefined;
  k: number;
  live: boolean;
}

function detail(s: PanelState, m: RunModel | null): Detail {
  if (s.live) {
    const l = s.live;
    const configs = l.records.map((r) => r.config);
    const config = s.ui.config && configs.includes(s.ui.config) ? s.ui.config : configs[0];
    const q = l.question ?? undefined;
    return { questions: [{ id: l.questionId, text: q?.question ?? l.questionId }], configs, qid: l.questionId, config, q, rec: l.records.find((r) => r.config === config), k: l.k, live: true };
  }
  const evidence = s.data?.evidence?.questions ?? [];
  const ids = evidence.length ? evidence.map((q) => q.id) : (m?.questionIds ?? []);
  const configs = m?.rows.map((r) => r.id) ?? [];
  const qid = s.ui.question && ids.includes(s.ui.question) ? s.ui.question : ids[0];
  const config = s.ui.config && configs.includes(s.ui.config) ? s.ui.config : configs[0];
  return {
    questions: ids.map((id) => ({ id, text: m?.questionText(id) ?? id })),
    configs,
    qid,
    config,
    q: evidence.find((q) => q.id === qid),
    rec: qid && config ? m?.record(qid, config) : undefined,
    k: m?.k ?? s.data?.results?.k ?? 0,
    live: false,
  };
}

const hitAt = (rec: QuestionRecord, k: number) => recordValue(rec, `hit@${k}`) === 1;

/** The document reads the detail shows: the text of the first k results, and the cut window of a miss. */
function spanNeeds(d: Detail): Need[] {
  if (!d.q || !d.rec) return [];
  const needs: Need[] = d.rec.results.slice(0, d.k).map((r) => ({ method: 'readSpan', params: { source: r.source, start: r.start, end: r.end } }));
  const miss = d.rec.miss as MissDetail | undefined;
  if (miss && !hitAt(d.rec, d.k)) needs.push({ method: 'readSpan', params: cutWindow(miss) });
  return needs;
}

/** Share of the evidence (all spans, code units) inside result `r`. */
function overlap(r: { source: string; start: number; end: number }, spans: Evidence['spans']): number {
  let total = 0;
  let got = 0;
  for (const s of spans) {
    total += s.end - s.start;
    if (s.source === r.source) got += Math.max(0, Math.min(s.end, r.end) - Math.max(s.start, r.start));
  }
  return total ? got / total : 0;
}

/** The chunk text with the evidence parts in <mark>. */
function highlighted(text: string, r: { source: string; start: number; end: number }, spans: Evidence['spans']): Array<TemplateResult | string> {
  const marks = spans
    .filter((s) => s.source === r.source)
    .map((s) => [Math.max(s.start, r.start) - r.start, Math.min(s.end, r.end) - r.start] as const)
    .filter(([a, b]) => b > a)
    .sort((a, b) => a[0] - b[0]);
  const out: Array<TemplateResult | string> = [];
  let at = 0;
  for (const [a, b] of marks) {
    if (a > at) out.push(text.slice(at, a));
    out.push(html`<mark>${text.slice(Math.max(a, at), b)}</mark>`);
    at = Math.max(at, b);
  }
  out.push(text.slice(at));
  return out;
}

function spanText(s: PanelState, params: { source: string; start: number; end: number }): string | null | undefined {
  const r = resource(s, 'readSpan', params);
  return !r || r.status === 'loading' ? undefined : r.status === 'error' ? null : (r.value?.text ?? null);
}

function outcome(rec: QuestionRecord, k: number): TemplateResult {
  if (rec.status === 'failed') return html`<span class="cause cause-failed">failed: ${String(rec.error ?? 'item failed')}</span>`;
  if (hitAt(rec, k)) return html`<span class="hit">✓ hit@${k} (coverage@${k} ${fmt(recordValue(rec, `coverage@${k}`))}, RR ${fmt(rec.rr)})</span>`;
  const advice = rec.cause ? CAUSE_ADVICE[rec.cause as Cause] : undefined;
  return html`<span class="cause cause-${rec.cause}" data-testid="cause">✗ ${rec.cause}</span>${advice ? ` — ${sentence(advice)}.` : ''}`;
}

function resultList({ s, act }: TabContext, d: Detail, q: Evidence, rec: QuestionRecord): TemplateResult {
  const k = d.k;
  return html`<h3>Result list (final order of the candidate pool; first ${k} are returned)</h3>
    <ol class="results" data-testid="result-list">
      ${rec.results.map((r, i) => {
        const ov = overlap(r, q.spans);
        const text = i < k ? spanText(s, { source: r.source, start: r.start, end: r.end }) : undefined;
        return html`${i === k ? html`<li class="cutoff" aria-label="cut-off k = ${k}">— k = ${k} —</li>` : nothing}
          <li class="${i < k ? 'in-k' : 'below-k'}${ov > 0 ? ' has-evidence' : ''}">
            <button class="chunk link" data-rank=${i + 1} data-source=${r.source} data-start=${r.start} data-end=${r.end} @click=${() => act.reveal(r.source, r.start, r.end)}>
              #${i + 1} ${r.source} [${r.start}, ${r.end}) · score ${fmt(r.score)}${ov > 0 ? ` · holds ${Math.round(ov * 100)}% of the evidence` : ''}
            </button>
            ${i < k ? html`<pre class="chunk-text">${text === undefined ? '…' : text === null ? '(document not available)' : highlighted(text, r, q.spans)}</pre>` : nothing}
          </li>`;
      })}
    </ol>`;
}

function liveNote(ctx: TabContext): TemplateResult | typeof nothing {
  const l = ctx.s.live;
  if (!l) return nothing;
  const ok = l.records.filter((r) => r.status === 'ok');
  const hits = ok.filter((r) => hitAt(r, l.k)).length;
  return html`<p class="banner info live" role="status" data-testid="live-rerun" data-question=${l.questionId}>
    Live re-run of ${l.questionId} (not saved as a run): hit@${l.k} in ${hits} of ${ok.length} configs.
    ${ctx.s.data ? html`<button class="link" data-testid="live-back" @click=${() => ctx.act.leaveLive()}>Back to run ${ctx.s.data.run.id}</button>` : nothing}
  </p>`;
}

export const questionTab: TabModule = {
  id: 'question',
  label: 'Question',
  needs: (s, m) => spanNeeds(detail(s, m)),
  render(ctx) {
    const d = detail(ctx.s, ctx.m);
    const { act } = ctx;
    const pick = (e: Event) => (e.target as HTMLElement & { value: string }).value;
    return html`<div class="detail" data-testid="question-detail" data-question=${d.qid ?? ''} data-config=${d.config ?? ''} data-live=${String(d.live)}>
      ${liveNote(ctx)}
      <div class="pickers">
        <label>Question
          <vscode-single-select aria-label="Question" data-testid="question-select" @change=${(e: Event) => pick(e) !== d.qid && (act.leaveLive(), act.ui({ question: pick(e) }))}>
            ${d.questions.map((q) => html`<vscode-option value=${q.id} ?selected=${q.id === d.qid}>${q.id} — ${q.text}</vscode-option>`)}
          </vscode-single-select>
        </label>
        <label>Config
          <vscode-single-select aria-label="Config" @change=${(e: Event) => act.ui({ config: pick(e) })}>
            ${d.configs.map((c) => html`<vscode-option value=${c} ?selected=${c === d.config}>${c}</vscode-option>`)}
          </vscode-single-select>
        </label>
      </div>
      ${!d.q || !d.rec
        ? html`<p>No record for this question and config.</p>`
        : html`<h2>${d.q.question}</h2>
            <p class="verdict" data-testid="verdict">${outcome(d.rec, d.k)}</p>
            <h3>Evidence (${d.q.match === 'any' ? 'any one suffices' : 'all needed'})</h3>
            <ul class="evidence">
              ${d.q.spans.map((sp) => html`<li><button class="link" @click=${() => act.reveal(sp.source, sp.start, sp.end)}>${sp.source} [${sp.start}, ${sp.end})</button><blockquote>${sp.text}</blockquote></li>`)}
            </ul>
            ${d.rec.miss && !hitAt(d.rec, d.k) ? cutView(d.rec.miss as MissDetail, spanText(ctx.s, cutWindow(d.rec.miss as MissDetail))) : nothing}
            ${resultList(ctx, d, d.q, d.rec)}`}
    </div>`;
  },
};
