/**
 * The webview side of the typed host protocol (src/shared/protocol.ts): `ready` handshake,
 * request/response by `seq`, notifications, and persisted UI state (`vscode.setState`).
 */
import type { HostToWebview, WebviewMethods as CoreMethods, WebviewToHost } from '../src/shared/protocol';
import type { AnswersWebviewMethods } from '../src/shared/answers';
import { isHostToWebview } from '../src/shared/protocol';

interface VsCodeApi {
  postMessage(m: unknown): void;
  getState(): unknown;
  setState(s: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();
let seq = 0;
const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
type Notify = Extract<HostToWebview, { type: 'notify' }>;
const listeners: Array<(n: Notify) => void> = [];

window.addEventListener('message', (ev: MessageEvent) => {
  const m: unknown = ev.data;
  if (!isHostToWebview(m)) return;
  if (m.type === 'response') {
    const p = pending.get(m.seq);
    if (!p) return;
    pending.delete(m.seq);
    if (m.ok) p.resolve(m.result);
    else p.reject(Object.assign(new Error(m.error.message), { code: m.error.code }));
  } else for (const l of listeners) l(m);
});

export function send(m: WebviewToHost): void {
  api.postMessage(m);
}

/** The panel's requests: the core protocol plus the Answers tab's `loadAnswers` (src/shared/answers.ts). */
export type WebviewMethods = CoreMethods & AnswersWebviewMethods;
export type WebviewMethod = keyof WebviewMethods;

export function request<M extends WebviewMethod>(method: M, params: WebviewMethods[M]['params']): Promise<WebviewMethods[M]['result']> {
  const s = ++seq;
  return new Promise((resolve, reject) => {
    pending.set(s, { resolve: resolve as (v: unknown) => void, reject });
    send({ type: 'request', seq: s, method, params } as WebviewToHost);
  });
}

export function onNotify(l: (n: Notify) => void): void {
  listeners.push(l);
}

export function getState<T>(): T | undefined {
  return api.getState() as T | undefined;
}
export function setState<T>(s: T): void {
  api.setState(s);
  send({ type: 'state', state: s });
}
