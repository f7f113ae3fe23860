/**
 * `<sp-results>`: the panel's shell (header with run picker, status, Run/Cancel/Export, acceptance;
 * banner; progress; tab list; the visible tab from the registry). Rendered by lit into the light DOM
 * (so media/results.css applies) from the store's state on every change; lit diffs the DOM, so a
 * progress tick only rewrites the progress line and keyboard focus, scroll and charts survive.
 */
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { describeProgress } from '../src/shared/protocol';
import type { Actions } from './actions';
import { runModel, type RunModel } from './model';
import type { Store } from './store';
import type { PanelState } from './state';
import { TABS, tabById, type TabContext } from './tabs/registry';

const RESTRICTED_TIP = 'Running an evaluation needs a trusted workspace (Restricted Mode). Use "Manage Workspace Trust" to trust this folder.';

export class SpResults extends LitElement {
  store!: Store<PanelState>;
  act!: Actions;
  private unsubscribe: (() => void) | undefined;
  private focused: HTMLElement | null = null;
  /** The last element focused inside the panel (focus returns there when VS Code gives the panel the focus back). */
  private lastFocused: HTMLElement | null = null;
  private readonly onFocusIn = (e: FocusEvent) => {
    if (e.target instanceof HTMLElement) this.lastFocused = e.target;
  };
  private readonly onWindowFocus = () => {
    const a = document.activeElement;
    if ((a === null || a === document.body) && this.lastFocused?.isConnected) this.lastFocused.focus({ preventScroll: true });
  };

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.unsubscribe = this.store.subscribe(() => this.requestUpdate());
    this.addEventListener('focusin', this.onFocusIn);
    window.addEventListener('focus', this.onWindowFocus);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
    this.removeEventListener('focusin', this.onFocusIn);
    window.removeEventListener('focus', this.onWindowFocus);
  }

  protected override willUpdate(_changed: PropertyValues): void {
    const a = document.activeElement;
    this.focused = a instanceof HTMLElement && a !== document.body && this.contains(a) ? a : null;
  }

  /** A keyed list that moved the focused row (e.g. a new run re-ordered the ranking) blurs it: give it its focus back. */
  protected override updated(_changed: PropertyValues): void {
    document.getElementById('app')?.setAttribute('aria-busy', String(!this.store.state.started));
    const f = this.focused;
    if (f && f.isConnected && document.activeElement !== f && (document.activeElement === document.body || document.activeElement === null)) f.focus({ preventScroll: true });
  }

  protected override render(): TemplateResult {
    const s = this.store.state;
    const m = runModel(s.data);
    return html`${this.header(s, m)}
      ${s.banner ? html`<div class="banner ${s.banner.kind}" role="alert">${s.banner.text}</div>` : nothing}
      ${s.progress
        ? html`<div class="progress" role="status" data-testid="progress">Running: ${describeProgress(s.progress)}<vscode-progress-bar aria-label="Evaluation progress"></vscode-progress-bar></div>`
        : nothing}
      ${this.body(s, m)}`;
  }

  private header(s: PanelState, m: RunModel | null): TemplateResult {
    const run = s.data?.run;
    const a = s.data?.results?.acceptance ?? run?.acceptance;
    const r = m?.results;
    return html`<header class="top">
      <h1>Spanproof results</h1>
      ${s.runs.length
        ? html`<vscode-single-select aria-label="Run" class="run-select" data-testid="run-select" @change=${(e: Event) => this.pickRun(e)}>
            ${s.runs.map((x) => html`<vscode-option value=${x.dir} ?selected=${x.dir === s.ui.runDir}>${x.id} · ${x.status}</vscode-option>`)}
          </vscode-single-select>`
        : html`<span class="muted">No runs yet.</span>`}
      ${run ? html`<vscode-badge data-testid="run-status" data-run=${run.id} class="status-${run.status}">${run.status}</vscode-badge>` : nothing}
      ${s.trusted
        ? html`<vscode-button data-testid="run-button" @click=${() => this.act.command('runEvaluation', {})}>Run Evaluation</vscode-button>`
        : // A disabled button shows no tooltip of its own: the wrapper carries it.
          html`<span title=${RESTRICTED_TIP} data-testid="run-button-wrap"><vscode-button disabled aria-disabled="true" aria-label="Run Evaluation — ${RESTRICTED_TIP}" data-testid="run-button">Run Evaluation</vscode-button></span>`}
      ${s.progress ? html`<vscode-button secondary @click=${() => this.act.command('cancelEvaluation', {})}>Cancel</vscode-button>` : nothing}
      ${s.data && s.ui.runDir ? html`<vscode-button secondary @click=${() => this.act.command('exportReport', { runDir: s.ui.runDir!, format: 'html' })}>Export Report…</vscode-button>` : nothing}
      ${a
        ? html`<p class="acceptance" data-testid="acceptance">
            Ground truth: ${a.resolved}/${a.total} questions resolved (${a.moved} moved; ${a.stale.length} stale, ${a.ambiguous.length} ambiguous, ${a.rejected.length} rejected —
            excluded, never scored as misses). ${r ? `${r.configs.length} configs · k = ${r.k} · τ = ${r.tau} · N = ${r.poolSize ?? r.n}.` : ''}
          </p>`
        : nothing}
    </header>`;
  }

  private pickRun(e: Event): void {
    const dir = (e.target as HTMLElement & { value: string }).value;
    if (dir === this.store.state.ui.runDir) return;
    this.act.leaveLive();
    void this.act.openRun(dir);
  }

  private body(s: PanelState, m: RunModel | null): TemplateResult {
    const ctx: TabContext = { s, m, act: this.act };
    if (!s.data && s.live) return html`<section class="tabpanel" data-panel="question" aria-label="Question">${tabById('question')!.render(ctx)}</section>`;
    if (!s.data) {
      return html`<section class="empty">${s.runs.length ? 'Select a run.' : 'Run an evaluation (Spanproof: Run Evaluation) to see the ranking here.'} ${tabById('history')!.render(ctx)}</section>`;
    }
    const active = tabById(s.ui.tab) ?? TABS[0];
    // Plain buttons with role=tab: vscode-tabs re-creates ids, and the e2e tests need stable data-* hooks.
    return html`<div>
      <div role="tablist" class="tablist" aria-label="Result views" @keydown=${(e: KeyboardEvent) => this.tabKey(e)}>
        ${TABS.map(
          (t) => html`<button role="tab" class="tab" data-tab=${t.id} aria-selected=${String(t === active)} tabindex=${t === active ? 0 : -1} @click=${() => this.act.selectTab(t.id)}>${t.label}</button>`,
        )}
      </div>
      <section role="tabpanel" class="tabpanel" data-panel=${active.id} aria-label=${active.label}>${active.render(ctx)}</section>
    </div>`;
  }

  /** ←/→ (wrapping), Home/End move between tabs and select them. */
  private tabKey(e: KeyboardEvent): void {
    const i = TABS.findIndex((t) => t.id === (tabById(this.store.state.ui.tab) ?? TABS[0]).id);
    const n = TABS.length;
    const j = e.key === 'ArrowRight' ? (i + 1) % n : e.key === 'ArrowLeft' ? (i + n - 1) % n : e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : -1;
    if (j < 0) return;
    e.preventDefault();
    this.act.selectTab(TABS[j].id);
    this.querySelector<HTMLElement>(`[data-tab="${TABS[j].id}"]`)?.focus();
  }
}
if (!customElements.get('sp-results')) customElements.define('sp-results', SpResults);
