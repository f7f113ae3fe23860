/**
 * Every message between the host (CLI or extension host), the grid worker (worker_threads) and the
 * results webview. One file, typed, so the three sides cannot drift (pattern: vscode-eslint
 * `customMessages.ts`, gitlens `ipc.ts`).
 *
 * Host ⇄ worker: requests carry a numeric correlation `id`; the worker answers each with exactly one
 * `response` (ok or error), streams `progress` for it at least every 250 ms while it runs, and stops
 * within one second after a `cancel` for that id (the response is then an error with code
 * `cancelled` carrying the run directory in `runDir`, whose run.json status is `cancelled`). A worker that
 * dies or exits during a request rejects it on the host with code `worker-crashed`.
 *
 * Host ⇄ webview: the webview sends `ready` first; the host holds messages until then. Requests carry
 * a `seq` echoed by the `response` (typed per method by `WebviewMethods`; the host answers them from a
 * `WebviewHandlers` table through `dispatchWebviewRequest`); `notify` messages are unsolicited.
 *
 * Pure types plus type guards; no Node or vscode imports, so the webview bundle can use it.
 */
import type { GridRunParams, GridRunResult } from '../core/grid/types';
import type { EvidenceFile, QuestionRecord, RunData, RunStatus, RunSummary } from '../core/runs/types';
import type { BiasStudy } from '../core/bias';
import type { AnswersWebviewMethods } from './answers';

export type { RankedConfig, RankingFile, TimedVerdict, Verdict } from '../core/ranking/types';
export type { DominantCause } from '../core/ranking/cause';
export type { EvidenceStatus } from '../core/ranking/verdict';
export type {
  AcceptanceReport,
  ConfigResult,
  MeanCI,
  QuestionRecord,
  RankedSpan,
  RankingEntry,
  ResultsFile,
  RunFile,
  RunStatus,
  RunSummary,
  TimingsFile,
  MissDetail,
  EvidenceFile,
  RunData,
} from '../core/runs/types';
export type { GridRunParams, GridRunResult } from '../core/grid/types';

// ------------------------------------------------------------------------------------------------
// Host ⇄ worker

/** The worker's request methods and their params/results. */
export interface WorkerMethods {
  'grid.run': { params: GridRunParams; result: GridRunResult };
  ping: { params: Record<string, never>; result: { pid: number; version: string } };
}
export type WorkerMethod = keyof WorkerMethods;

export type WorkerRequest = {
  [M in WorkerMethod]: { kind: 'request'; id: number; method: M; params: WorkerMethods[M]['params'] };
}[WorkerMethod];

export interface CancelMessage {
  kind: 'cancel';
  /** The id of the request to cancel. */
  id: number;
}
export interface ShutdownMessage {
  kind: 'shutdown';
}
export type HostToWorker = WorkerRequest | CancelMessage | ShutdownMessage;

/** Serialisable error (SpanproofError fields survive structured clone this way). */
export interface ErrorPayload {
  code: string;
  message: string;
  file?: string;
  field?: string;
  fix?: string;
  /** The run directory of a run that stopped (cancelled: its run.json says `cancelled`). */
  runDir?: string;
  stack?: string;
}

/** Progress of a request: `done` of `total` work items in `stage`. */
export interface ProgressMessage {
  kind: 'progress';
  id: number;
  done: number;
  total: number;
  /** `load` | `resolve` | `chunk:<chunker>` | `embed:<chunker>` | `retrieve:<chunker>` | `rerank:<chunker>` | `metrics` | `write`. */
  stage: string;
  detail?: string;
}
export type ResponseMessage = {
  [M in WorkerMethod]:
    | { kind: 'response'; id: number; ok: true; method: M; result: WorkerMethods[M]['result'] }
    | { kind: 'response'; id: number; ok: false; method: M; error: ErrorPayload };
}[WorkerMethod];
export interface LogMessage {
  kind: 'log';
  level: 'info' | 'warn' | 'error';
  message: string;
}
export type WorkerToHost = ProgressMessage | ResponseMessage | LogMessage;

function isObj(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null;
}
export function isWorkerRequest(x: unknown): x is WorkerRequest {
  return isObj(x) && x.kind === 'request' && typeof x.id === 'number' && typeof x.method === 'string';
}
export function isCancelMessage(x: unknown): x is CancelMessage {
  return isObj(x) && x.kind === 'cancel' && typeof x.id === 'number';
}
export function isShutdownMessage(x: unknown): x is ShutdownMessage {
  return isObj(x) && x.kind === 'shutdown';
}
export function isProgressMessage(x: unknown): x is ProgressMessage {
  return isObj(x) && x.kind === 'progress' && typeof x.id === 'number' && typeof x.done === 'number' && typeof x.total === 'number';
}
export function isResponseMessage(x: unknown): x is ResponseMessage {
  return isObj(x) && x.kind === 'response' && typeof x.id === 'number' && typeof x.ok === 'boolean';
}
export function isLogMessage(x: unknown): x is LogMessage {
  return isObj(x) && x.kind === 'log' && typeof x.message === 'string';
}

// ------------------------------------------------------------------------------------------------
// Host ⇄ webview (results panel)

/**
 * Requests the webview makes (method → params and result); the host answers each with one `response`
 * carrying the same `seq`. The host implements them as a `WebviewHandlers` table, so a method without
 * a handler, or a handler returning the wrong type, does not compile.
 */
export interface WebviewMethods extends AnswersWebviewMethods {
  listRuns: { params: Record<string, never>; result: RunSummary[] };
  loadRun: { params: { runDir: string }; result: RunData };
  /** Text of a document range (for showing a chunk with the evidence highlighted); null when the document is not readable. */
  readSpan: { params: { source: string; start: number; end: number }; result: { text: string } | null };
  /** Open the document at the span in an editor. */
  revealSpan: { params: { source: string; start: number; end: number }; result: null };
  runEvaluation: { params: { questionIds?: string[] }; result: null };
  cancelEvaluation: { params: Record<string, never>; result: null };
  exportReport: { params: { runDir: string; format: 'md' | 'html' | 'csv' }; result: { file: string } | null };
  /** The chunk-ID bias study (SPEC §7.5) of a run kept with chunks: `<runDir>/bias.json`, computed and cached on first request. */
  biasStudy: { params: { runDir: string }; result: BiasStudy };
}
export type WebviewMethod = keyof WebviewMethods;
export type WebviewParams<M extends WebviewMethod> = WebviewMethods[M]['params'];
export type WebviewResult<M extends WebviewMethod> = WebviewMethods[M]['result'];

export type WebviewRequest = {
  [M in WebviewMethod]: { type: 'request'; seq: number; method: M; params: WebviewParams<M> };
}[WebviewMethod];

export type WebviewToHost = { type: 'ready' } | WebviewRequest;

/** The response to a request of method M: its `method` and `seq`, and M's result type or an error. */
export type WebviewResponse<M extends WebviewMethod = WebviewMethod> =
  | { type: 'response'; seq: number; method: M; ok: true; result: WebviewResult<M> }
  | { type: 'response'; seq: number; method: M; ok: false; error: ErrorPayload };

/** Unsolicited messages from the host (event → data). */
export interface WebviewNotifications {
  runsChanged: RunSummary[];
  /** `tab`: the results tab to select for that run (e.g. 'answers' after Generate and Judge Answers); absent = keep the current tab. */
  showRun: { runDir: string; tab?: ResultsTab };
  progress: { done: number; total: number; stage: string };
  runFinished: { runDir: string | null; status: RunStatus };
  workerCrashed: { message: string };
  /** Workspace Trust: in Restricted Mode (`trusted: false`) running is disabled; sent on attach and when trust is granted. */
  trust: { trusted: boolean };
  /** A one-question re-run (writeRun: false): shown in the Question tab, marked as not saved as a run. */
  liveQuestion: LiveQuestionData;
}
export type WebviewEvent = keyof WebviewNotifications;
export type WebviewNotification = {
  [E in WebviewEvent]: { type: 'notify'; event: E; data: WebviewNotifications[E] };
}[WebviewEvent];

export type HostToWebview = WebviewResponse | WebviewNotification;

/** The host's implementation of every request: one handler per method, typed by WebviewMethods. */
export type WebviewHandlers = { [M in WebviewMethod]: (params: WebviewParams<M>) => Promise<WebviewResult<M>> | WebviewResult<M> };

/**
 * Runs `req` through `handlers` and builds its response (never throws: a handler's error becomes an
 * `ok: false` response with the error's `code`, default `internal`, and message).
 */
export async function dispatchWebviewRequest(handlers: WebviewHandlers, req: WebviewRequest): Promise<WebviewResponse> {
  return answer(handlers, req.method, req.seq, req.params);
}

async function answer<M extends WebviewMethod>(handlers: WebviewHandlers, method: M, seq: number, params: WebviewParams<M>): Promise<WebviewResponse<M>> {
  const handler: WebviewHandlers[M] | undefined = Object.hasOwn(handlers, method) ? handlers[method] : undefined;
  if (!handler) return { type: 'response', seq, method, ok: false, error: { code: 'bad-request', message: `unknown request method "${String(method)}"` } };
  try {
    const result: WebviewResult<M> = await handler(params);
    return { type: 'response', seq, method, ok: true, result };
  } catch (e) {
    const code = isObj(e) && typeof e.code === 'string' ? e.code : 'internal';
    return { type: 'response', seq, method, ok: false, error: { code, message: e instanceof Error ? e.message : String(e) } };
  }
}

/**
 * Records of a live one-question re-run for the Question tab (nothing on disk). `question` is the
 * resolved question with its evidence text (as in evidence.json), null when it no longer resolves;
 * `records`: one per config, in ranking order of the grid (`results.configs` order); `k` = results.k.
 */
export interface LiveQuestionData {
  questionId: string;
  question: EvidenceFile['questions'][number] | null;
  records: QuestionRecord[];
  k: number;
}

export function isWebviewToHost(x: unknown): x is WebviewToHost {
  return isObj(x) && (x.type === 'ready' || (x.type === 'request' && typeof x.seq === 'number' && typeof x.method === 'string'));
}
/** Tabs of the results panel the host may select (`showRun`); the webview's tab registry (webview/tabs/registry.ts) may have more. */
export type ResultsTab = 'ranking' | 'matrix' | 'causes' | 'tau' | 'bias' | 'injection' | 'answers' | 'question' | 'history';

export function isHostToWebview(x: unknown): x is HostToWebview {
  return isObj(x) && ((x.type === 'response' && typeof x.seq === 'number') || (x.type === 'notify' && typeof x.event === 'string'));
}

/**
 * Words for a progress `stage` of the grid engine (src/core/grid/engine.ts: `load`, `embed:questions`,
 * `chunk:<chunker>`, `index:<chunker>`, `embed:<chunker>`, `retrieve:<chunker>`, `score:<chunker>`,
 * `metrics`, `write`, `done`), for the progress notification, status bar and results panel.
 * Unknown stages are returned unchanged.
 */
export function describeStage(stage: string): string {
  const i = stage.indexOf(':');
  const head = i < 0 ? stage : stage.slice(0, i);
  const arg = i < 0 ? '' : stage.slice(i + 1);
  const of = arg ? ` (${arg})` : '';
  switch (head) {
    case 'load':
    case 'start':
      return 'Loading corpus and ground truth…';
    case 'embed':
      return arg === 'questions' ? 'Embedding questions…' : `Embedding chunks${of}…`;
    case 'chunk':
    case 'index':
      return `Chunking and indexing${of}…`;
    case 'retrieve':
      return `Retrieving${of}…`;
    case 'score':
      return `Scoring${of}…`;
    case 'metrics':
      return 'Computing metrics…';
    case 'write':
      return 'Writing run…';
    case 'done':
      return 'Done';
    default:
      return stage;
  }
}

/** "Chunking and indexing (fixed)… 12% (170/1395)": the stage in words, percent, and done/total work units. */
export function describeProgress(p: { done: number; total: number; stage: string }): string {
  const pct = p.total > 0 ? Math.floor((100 * p.done) / p.total) : 0;
  return `${describeStage(p.stage)} ${pct}% (${p.done}/${p.total})`;
}
