/**
 * The grid's request handler, the one definition of how requests are served (src/shared/protocol.ts),
 * for both hosts of the grid: the worker thread (./main.ts, the extension's — never block the
 * extension host) and the CLI's own thread (./inProcess.ts, no second isolate: issue #13).
 * - `request` → runs the method, streams `progress` (at least every 250 ms: throttled sends plus a
 *   200 ms heartbeat while the engine yields; every stage change at once; the newest progress is
 *   flushed before the response), then exactly one `response`;
 * - `cancel` → aborts that request's signal; the engine stops at its next yield (≤ ~40 ms of work);
 * - `shutdown` → aborts every request and releases the ONNX sessions.
 * Models, pair caches and chunker stages stay resident between requests (a one-question re-run after
 * a full run reuses them) and are released after 5 minutes without a request — unless the request
 * says `resident: false` (the CLI's one-shot run: nothing is kept, so peak memory stays lower).
 */
import '../core/ortEnv'; // first: disables onnxruntime's telemetry before it loads
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isSpanproofError } from '../core/errors';
import { diskFullError } from '../core/fsErrors';
import { VERSION } from '../core/version';
import { runGrid } from '../core/grid/run';
import { withInjectionStudy } from '../core/safety/study';
import { ResidentState } from '../core/grid/resident';
import { writeRunProfile } from '../core/runs';
import { profileWanted, startProfile } from './profile';
import { gridThreads, workerChunkerThreads } from './chunkerPool';
import { isCancelMessage, isShutdownMessage, isWorkerRequest, type ErrorPayload, type ProgressMessage, type WorkerRequest, type WorkerToHost } from '../shared/protocol';

/**
 * Exposes V8's collector to the engine, which runs it between chunker stages (peak memory ≈ live set
 * instead of accumulated garbage; measured 580 → 445 MB peak RSS on the FastAPI grid). A fresh
 * context created after the flag is set carries `gc`.
 */
export function exposeGc(): void {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as (() => void) | undefined;
    if (typeof gc === 'function' && !(globalThis as { gc?: unknown }).gc) (globalThis as { gc?: () => void }).gc = gc;
  } catch {
    // not fatal: the run only uses more memory
  }
}

function toPayload(error: unknown): ErrorPayload {
  // A full disk while writing the run or a cache: the user's to fix (exit 2), not a crash.
  const e = diskFullError(error, 'free some space on that disk, or write the run and the caches elsewhere (spanproof run --out DIR / --runs-dir DIR / --cache-dir DIR).');
  if (isSpanproofError(e)) return { code: e.code, message: e.message, file: e.file, field: e.field, fix: e.fix, runDir: e.runDir, stack: e.stack };
  const err = e instanceof Error ? e : new Error(String(e));
  return { code: 'internal', message: err.message, stack: err.stack };
}

export interface RequestHandler {
  /** Serves one host message (request, cancel or shutdown); anything else is ignored. `closed` runs after a shutdown released the state. */
  dispatch(msg: unknown, closed?: () => void): void;
}

/** A handler whose responses, progress and log lines go to `send` (a port, or the in-thread client). */
export function createRequestHandler(send: (m: WorkerToHost) => void): RequestHandler {
  const controllers = new Map<number, AbortController>();
  /** Models, pair caches and chunker stages kept between requests; released after IDLE_MS without a request. */
  const resident = new ResidentState();
  const IDLE_MS = 5 * 60 * 1000;
  let idleTimer: NodeJS.Timeout | null = null;
  function armIdleRelease(): void {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => { if (controllers.size === 0) void resident.release(); }, IDLE_MS);
    idleTimer.unref();
  }

  async function handle(req: WorkerRequest): Promise<void> {
    const ac = new AbortController();
    controllers.set(req.id, ac);
    let last: ProgressMessage | null = null;
    let sentMsg: ProgressMessage | null = null;
    let lastSent = 0;
    const emit = (force = false) => {
      if (!last) return;
      const now = Date.now();
      // A new stage is sent at once (a few dozen per run); within a stage at most every 100 ms.
      if (force || now - lastSent >= 100 || last.stage !== sentMsg?.stage) {
        lastSent = now;
        sentMsg = last;
        send(last);
      }
    };
    /** The newest progress, if the throttle held it back: a short run still shows its last stage before the response. */
    const flush = () => {
      if (last && last !== sentMsg) emit(true);
    };
    const heartbeat = setInterval(() => emit(true), 200);
    try {
      if (req.method === 'ping') {
        send({ kind: 'response', id: req.id, ok: true, method: 'ping', result: { pid: process.pid, version: VERSION } });
        return;
      }
      if (req.method === 'grid.run') {
        const profiler = profileWanted(req.params.profile) ? await startProfile() : null;
        const hooks = {
          signal: ac.signal,
          onProgress: (p: { done: number; total: number; stage: string }) => {
            last = { kind: 'progress', id: req.id, done: p.done, total: p.total, stage: p.stage };
            emit();
          },
          onLog: (level: 'info' | 'warn', message: string) => send({ kind: 'log', level, message }),
        };
        // The injection exposure study (issue #17) runs after the run, on a planted copy (never resident).
        // A one-shot run (the CLI) runs chunkers in a second thread too (issue #13); a resident one keeps
        // its stages here, and a profiled one stays in this thread (the profile then has every stage).
        const chunkerThreads = req.params.resident === false && !profiler && gridThreads() > 1 ? workerChunkerThreads() : undefined;
        const result = await withInjectionStudy(req.params, await runGrid(req.params, { resident: req.params.resident === false ? undefined : resident, chunkerThreads, ...hooks }), hooks);
        const profile = await profiler?.stop();
        if (profile && result.runDir) writeRunProfile(result.runDir, profile);
        flush();
        send({ kind: 'response', id: req.id, ok: true, method: 'grid.run', result });
        return;
      }
      throw new Error(`unknown method ${(req as { method: string }).method}`);
    } catch (e) {
      const error = toPayload(e);
      send({ kind: 'response', id: req.id, ok: false, method: req.method, error } as WorkerToHost);
    } finally {
      clearInterval(heartbeat);
      controllers.delete(req.id);
      armIdleRelease();
    }
  }

  return {
    dispatch(msg, closed) {
      if (isCancelMessage(msg)) controllers.get(msg.id)?.abort();
      else if (isShutdownMessage(msg)) {
        for (const c of controllers.values()) c.abort();
        if (idleTimer) clearTimeout(idleTimer);
        void resident.release().finally(() => closed?.());
      } else if (isWorkerRequest(msg)) void handle(msg);
    },
  };
}
