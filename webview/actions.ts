/**
 * Everything that changes the panel's state: UI choices (persisted), opening runs, the host's
 * notifications, and the requests the visible tab needs. Requests are sent here — from event handlers
 * and from `fetchNeeds` after a state change — never from a render, which only reads `state.res`.
 */
import type { WebviewMethod, WebviewNotifications, WebviewParams } from '../src/shared/protocol';
import { onNotifications, persistState, request, sendReady } from './ipc';
import { runModel } from './model';
import type { Store } from './store';
import { needKey, type Need, type PanelState, type UiState } from './state';
import { tabById } from './tabs/registry';

export class Actions {
  constructor(private readonly store: Store<PanelState>) {
    store.subscribe((s, prev) => {
      if (s.ui !== prev.ui) persistState(s.ui);
      this.fetchNeeds(s);
    });
  }

  private get s(): PanelState {
    return this.store.state;
  }

  /** Merges UI choices (persisted with vscode.setState). */
  ui(patch: Partial<UiState>): void {
    this.store.set((s) => ({ ui: { ...s.ui, ...patch } }));
  }

  selectTab(tab: string): void {
    this.ui({ tab });
  }

  /** Question detail of (question, config), scrolled to its top. */
  openDetail(question: string, config: string): void {
    this.store.set((s) => ({ live: null, ui: { ...s.ui, question, config, tab: 'question' } }));
    void this.afterRender(() => {
      const top = document.querySelector('.tablist');
      if (top) top.scrollIntoView({ block: 'start' });
      else window.scrollTo(0, 0);
    });
  }

  /** Leave a live re-run and show the open run's records again. */
  leaveLive(): void {
    this.store.set({ live: null });
  }

  /** Fire-and-forget host commands (from event handlers). */
  command<M extends 'revealSpan' | 'runEvaluation' | 'cancelEvaluation' | 'exportReport'>(method: M, params: WebviewParams<M>): void {
    void request(method, params).catch((e: Error) => this.store.set({ banner: { kind: 'error', text: e.message } }));
  }

  reveal(source: string, start: number, end: number): void {
    this.command('revealSpan', { source, start, end });
  }

  async openRun(dir: string): Promise<void> {
    try {
      const data = await request('loadRun', { runDir: dir });
      const banner =
        data.run.status === 'cancelled'
          ? { kind: 'info' as const, text: 'This run was cancelled; its partial results are not scored.' }
          : data.run.status === 'interrupted'
            ? { kind: 'error' as const, text: `This run was interrupted: ${data.run.error?.message ?? 'its process ended before it finished.'}` }
            : data.run.status === 'failed' && data.run.error
              ? { kind: 'error' as const, text: `This run failed: ${data.run.error.message}` }
              : null;
      this.store.set((s) => ({ data, banner, ui: { ...s.ui, runDir: dir } }));
    } catch (e) {
      this.store.set({ banner: { kind: 'error', text: `Could not open the run: ${(e as Error).message}` } });
    }
  }

  async refreshRuns(): Promise<void> {
    const runs = await request('listRuns', {});
    this.store.set({ runs, started: true });
  }

  /** Theme changed (body class): charts recompute their colours and update in place. */
  themeChanged(): void {
    this.store.set((s) => ({ theme: s.theme + 1 }));
  }

  /** Starts the panel: notification handlers, the `ready` handshake, then the run it showed before a reload (or the latest succeeded one). */
  async start(): Promise<void> {
    onNotifications(this.notifications());
    sendReady();
    await this.refreshRuns().catch(() => this.store.set({ started: true }));
    const { runs, ui } = this.s;
    const dir = ui.runDir && runs.some((r) => r.dir === ui.runDir) ? ui.runDir : runs.find((r) => r.status === 'succeeded')?.dir;
    if (dir) await this.openRun(dir);
  }

  private notifications(): { [E in keyof WebviewNotifications]: (d: WebviewNotifications[E]) => void } {
    return {
      runsChanged: (runs) => this.store.set({ runs }),
      showRun: ({ runDir, tab }) => {
        this.store.set((s) => ({ live: null, res: {}, ui: tab ? { ...s.ui, tab } : s.ui }));
        void this.refreshRuns().then(() => this.openRun(runDir));
      },
      progress: (progress) => this.store.set({ progress }),
      runFinished: ({ runDir, status }) => {
        this.store.set((s) => ({
          progress: null,
          live: runDir ? null : s.live, // a new saved run replaces a live re-run
          banner: status === 'succeeded' ? s.banner : { kind: status === 'failed' ? 'error' : 'info', text: `Evaluation ${status}. Earlier runs are intact.` },
        }));
        void this.refreshRuns().then(() => (runDir ? this.openRun(runDir) : undefined));
      },
      liveQuestion: (live) => {
        this.store.set((s) => ({ live, ui: { ...s.ui, tab: 'question', question: live.questionId } }));
        void this.afterRender(() => document.querySelector('[data-testid="live-rerun"]')?.scrollIntoView({ block: 'start' }));
      },
      trust: ({ trusted }) => this.store.set({ trusted }),
      workerCrashed: ({ message }) => this.store.set({ progress: null, banner: { kind: 'error', text: `The evaluation worker crashed: ${message}` } }),
    };
  }

  /** Sends the requests the visible tab needs that are not cached or in flight. */
  private fetchNeeds(s: PanelState): void {
    const needs = tabById(s.ui.tab)?.needs?.(s, runModel(s.data)) ?? [];
    for (const n of needs) {
      const key = needKey(n);
      if (s.res[key]) continue;
      this.store.set((x) => ({ res: { ...x.res, [key]: { status: 'loading' } } }));
      void this.load(n, key);
    }
  }

  private async load(n: Need, key: string): Promise<void> {
    try {
      const value: unknown = await request(n.method as WebviewMethod, n.params as WebviewParams<WebviewMethod>);
      this.store.set((x) => ({ res: { ...x.res, [key]: { status: 'ok', value } } }));
    } catch (e) {
      this.store.set((x) => ({ res: { ...x.res, [key]: { status: 'error', message: (e as Error).message } } }));
    }
  }

  /** Runs `f` after the panel has rendered the current state. */
  private afterRender(f: () => void): Promise<void> {
    const app = document.querySelector('sp-results') as (HTMLElement & { updateComplete?: Promise<unknown> }) | null;
    return Promise.resolve(app?.updateComplete).then(f);
  }
}
