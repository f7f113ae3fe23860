/**
 * Host-side client of the grid worker, used by the extension (the CLI runs the grid in its own thread,
 * ./inProcess.ts, through the same base): starts `dist/worker.js` (next to the bundle that imports
 * this) in a worker_threads Worker, sends typed requests with correlation ids (src/shared/protocol.ts),
 * delivers progress, cancels, and turns a worker crash into a rejected promise (never a host crash).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { SpanproofError, type SpanproofErrorCode } from '../core/errors';
import { isLogMessage, isProgressMessage, isResponseMessage, type ErrorPayload, type GridRunParams, type GridRunResult, type HostToWorker, type ProgressMessage, type WorkerMethod, type WorkerMethods } from '../shared/protocol';

/**
 * `$SPANPROOF_WORKER` when set (tests point it at src/worker/main.ts), else `dist/worker.js` beside
 * the running bundle (dist/cli.js, dist/extension.js), else the repo's dist/worker.js (when running
 * from sources under tsx).
 */
export function defaultWorkerPath(): string {
  if (process.env.SPANPROOF_WORKER) return resolve(process.env.SPANPROOF_WORKER);
  const beside = join(__dirname, 'worker.js');
  if (existsSync(beside)) return beside;
  return resolve(__dirname, '..', '..', 'dist', 'worker.js');
}

/** Rebuilds a SpanproofError from a payload (the message already names file/field/fix). */
export function errorFromPayload(p: ErrorPayload): SpanproofError {
  const e = new SpanproofError(p.code as SpanproofErrorCode, p.message);
  Object.assign(e, { file: p.file, field: p.field, fix: p.fix, runDir: p.runDir });
  if (p.stack) e.stack = p.stack;
  return e;
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  onProgress?: (p: ProgressMessage) => void;
}

export interface GridClientOptions {
  /** Path of the worker script; default {@link defaultWorkerPath}. */
  workerPath?: string;
  /** execArgv of the worker (e.g. `['--import', 'tsx']` to run src/worker/main.ts in tests). */
  execArgv?: string[];
  onLog?: (level: string, message: string) => void;
}

/**
 * What both grid clients share: correlation ids, the pending requests, delivery of the handler's
 * messages (progress, response, log) and cancel by signal. A subclass says where messages go.
 */
export abstract class GridClientBase {
  private nextId = 1;
  protected readonly pending = new Map<number, Pending>();

  constructor(protected readonly opts: { onLog?: (level: string, message: string) => void } = {}) {}

  /** Sends a message to the grid's request handler (src/worker/handler.ts). */
  protected abstract post(m: HostToWorker): void;

  /** Delivers one message of the handler to its pending request (or to `onLog`). */
  protected deliver(m: unknown): void {
    if (isProgressMessage(m)) this.pending.get(m.id)?.onProgress?.(m);
    else if (isResponseMessage(m)) {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m.result);
      else p.reject(errorFromPayload(m.error));
    } else if (isLogMessage(m)) this.opts.onLog?.(m.level, m.message);
  }

  /** Sends a request; `signal` aborting sends a cancel for it. */
  request<M extends WorkerMethod>(method: M, params: WorkerMethods[M]['params'], opts: { onProgress?: (p: ProgressMessage) => void; signal?: AbortSignal } = {}): Promise<WorkerMethods[M]['result']> {
    const id = this.nextId++;
    return new Promise((resolvePromise, reject) => {
      this.pending.set(id, { resolve: resolvePromise as (v: unknown) => void, reject, onProgress: opts.onProgress });
      try {
        this.post({ kind: 'request', id, method, params } as HostToWorker);
      } catch (e) {
        this.pending.delete(id);
        reject(e as Error);
        return;
      }
      if (opts.signal) {
        const onAbort = () => this.cancel(id);
        if (opts.signal.aborted) onAbort();
        else opts.signal.addEventListener('abort', onAbort, { once: true });
      }
    });
  }

  /**
   * Runs the grid. Rejects with SpanproofError('cancelled') when cancelled (its `runDir` is the run
   * directory, status `cancelled`), ('worker-crashed') when a worker thread died during the run.
   */
  run(params: GridRunParams, opts: { onProgress?: (p: ProgressMessage) => void; signal?: AbortSignal } = {}): Promise<GridRunResult> {
    return this.request('grid.run', params, opts);
  }

  /** Cancels request `id` (the grid stops within a second and answers with code `cancelled`). */
  abstract cancel(id: number): void;

  /** Releases the grid's host (pending requests are rejected or cancelled). */
  abstract dispose(): Promise<void>;
}

/** The grid in a worker_threads Worker (the extension: the extension host never blocks). */
export class GridClient extends GridClientBase {
  private worker: Worker | null = null;

  constructor(protected override readonly opts: GridClientOptions = {}) {
    super(opts);
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const path = this.opts.workerPath ?? defaultWorkerPath();
    if (!existsSync(path)) throw new SpanproofError('internal', `the worker script is missing: ${path}.`, { fix: 'run `npm run build`.' });
    // A TypeScript entry (tests, running from sources) is loaded through tsx's CommonJS hook.
    const w = path.endsWith('.ts')
      ? new Worker(`require('tsx/cjs'); require(${JSON.stringify(path)});`, { eval: true, execArgv: this.opts.execArgv })
      : new Worker(path, { execArgv: this.opts.execArgv });
    w.on('message', (m: unknown) => this.deliver(m));
    const failAll = (e: Error) => {
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
      this.worker = null;
    };
    w.on('error', (e) => failAll(new SpanproofError('worker-crashed', `the grid worker crashed: ${e.message}`, { cause: e })));
    w.on('exit', (code) => {
      if (this.pending.size) failAll(new SpanproofError('worker-crashed', `the grid worker exited (code ${code}) during a request.`));
      this.worker = null;
    });
    this.worker = w;
    return w;
  }

  protected post(m: HostToWorker): void {
    this.start().postMessage(m);
  }

  /** Cancels request `id` (the worker stops within a second and answers with code `cancelled`). */
  cancel(id: number): void {
    if (this.worker) this.worker.postMessage({ kind: 'cancel', id } satisfies HostToWorker);
  }

  /** Stops the worker thread (pending requests are rejected). */
  async dispose(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }
}
