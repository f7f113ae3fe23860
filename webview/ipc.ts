/**
 * The webview side of the typed host protocol (src/shared/protocol.ts): the `ready` handshake, typed
 * requests (a method's params and result come from `WebviewMethods`), a typed notification handler
 * table, and persisted UI state (`vscode.setState`).
 */
import { isHostToWebview, type WebviewEvent, type WebviewMethod, type WebviewNotifications, type WebviewParams, type WebviewResult, type WebviewToHost } from '../src/shared/protocol';

interface VsCodeApi {
  postMessage(m: WebviewToHost): void;
  getState(): unknown;
  setState(s: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** One handler per host notification. */
export type NotificationHandlers = { [E in WebviewEvent]: (data: WebviewNotifications[E]) => void };

const api = acquireVsCodeApi();
let seq = 0;
const pending = new Map<number, { resolve: (v: never) => void; reject: (e: Error) => void }>();
let handlers: NotificationHandlers | null = null;

function deliver<E extends WebviewEvent>(h: NotificationHandlers, event: E, data: WebviewNotifications[E]): void {
  h[event](data);
}

window.addEventListener('message', (ev: MessageEvent) => {
  const m: unknown = ev.data;
  if (!isHostToWebview(m)) return;
  if (m.type === 'response') {
    const p = pending.get(m.seq);
    if (!p) return;
    pending.delete(m.seq);
    if (m.ok) p.resolve(m.result as never);
    else p.reject(Object.assign(new Error(m.error.message), { code: m.error.code }));
  } else if (handlers && Object.hasOwn(handlers, m.event)) deliver(handlers, m.event, m.data);
});

/** Sends a request; resolves with the method's result, rejects with the host's error (message and `code`). */
export function request<M extends WebviewMethod>(method: M, params: WebviewParams<M>): Promise<WebviewResult<M>> {
  const s = ++seq;
  return new Promise<WebviewResult<M>>((resolve, reject) => {
    pending.set(s, { resolve, reject });
    // The union of request messages is correlated by M; TypeScript cannot see it through the generic.
    api.postMessage({ type: 'request', seq: s, method, params } as WebviewToHost);
  });
}

/** Installs the notification handlers (one table; a later call replaces it). */
export function onNotifications(h: NotificationHandlers): void {
  handlers = h;
}

/** Tells the host the webview listens: it then sends what it held back. */
export function sendReady(): void {
  api.postMessage({ type: 'ready' });
}

export function restoredState<T>(): Partial<T> | undefined {
  return (api.getState() as Partial<T> | null) ?? undefined;
}
export function persistState<T>(s: T): void {
  api.setState(s);
}
