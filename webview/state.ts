/**
 * The panel's state: what the host sent (runs, the open run, progress, trust, a live re-run), the UI
 * choices persisted with `vscode.setState` (run, tab, sort, selections), and the results of requests
 * the tabs need (`res`, keyed by method and params; filled by actions.ts, never by a render).
 */
import type { LiveQuestionData, RunData, RunSummary, WebviewMethod, WebviewParams, WebviewResult } from '../src/shared/protocol';

export type SortDir = 'ascending' | 'descending';

/** Persisted UI choices (restored after a reload). Keys are added freely; older saved states lack some. */
export interface UiState {
  runDir?: string;
  tab: string;
  sort: { key: string; dir: SortDir };
  /** Config id of the ranking row that takes Tab focus (roving tabindex). */
  focusRow?: string;
  /** Config ids whose explanation row is open. */
  expanded?: string[];
  question?: string;
  config?: string;
  compare?: [string, string];
  /** A single ticked run in History, waiting for a second one to compare with. */
  compareTicked?: string;
  causeConfig?: string;
  biasAuthor?: string;
  answers?: { config?: string; question?: string };
}

export interface Banner {
  kind: 'error' | 'info';
  text: string;
}

/** The result of one request: pending, its value, or its error message. */
export type Resource<T> = { status: 'loading' } | { status: 'ok'; value: T } | { status: 'error'; message: string };

/** A request a tab needs for what it shows. */
export type Need = { [M in WebviewMethod]: { method: M; params: WebviewParams<M> } }[WebviewMethod];

export interface PanelState {
  ui: UiState;
  runs: RunSummary[];
  /** The open run (null before one is opened). */
  data: RunData | null;
  progress: { done: number; total: number; stage: string } | null;
  banner: Banner | null;
  /** A live one-question re-run (host `liveQuestion`, nothing on disk): the Question tab shows it instead of the run's records. */
  live: LiveQuestionData | null;
  /** Workspace Trust (host `trust`): running is disabled in Restricted Mode. */
  trusted: boolean;
  /** Bumped on every theme change (charts read colours from the theme). */
  theme: number;
  /** False until the first run list arrived (aria-busy). */
  started: boolean;
  res: Readonly<Record<string, Resource<unknown>>>;
}

export const DEFAULT_UI: UiState = { tab: 'ranking', sort: { key: 'rank', dir: 'ascending' } };

export function initialState(saved: Partial<UiState> | undefined): PanelState {
  return { ui: { ...DEFAULT_UI, ...(saved ?? {}) }, runs: [], data: null, progress: null, banner: null, live: null, trusted: true, theme: 0, started: false, res: {} };
}

const keyOf = (method: string, params: unknown): string => `${method} ${JSON.stringify(params)}`;

/** Cache key of a request. */
export function needKey(n: Need): string {
  return keyOf(n.method, n.params);
}

/** The cached result of a request (undefined: not requested yet). */
export function resource<M extends WebviewMethod>(s: PanelState, method: M, params: WebviewParams<M>): Resource<WebviewResult<M>> | undefined {
  return s.res[keyOf(method, params)] as Resource<WebviewResult<M>> | undefined;
}
