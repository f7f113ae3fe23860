/**
 * The grid in the caller's own thread, for the CLI (issue #13): the same request handler as the
 * worker (./handler.ts) and the same client interface as GridClient (./client.ts), without a second
 * isolate and a second compiled copy of the core — measured ≈ 40 MB of RSS and ≈ 0.15 s of CPU at
 * start-up (docs/results.md). The engine yields to the event loop every ~40 ms (RunProgress.tick),
 * so SIGINT/SIGTERM handlers, the progress heartbeat and the progress bar still run during the grid.
 * The extension keeps the Worker: its host must never block.
 */
import { GridClientBase } from './client';
import { createRequestHandler, exposeGc, type RequestHandler } from './handler';
import type { HostToWorker } from '../shared/protocol';

export class InProcessGridClient extends GridClientBase {
  private handler: RequestHandler | null = null;

  protected post(m: HostToWorker): void {
    if (!this.handler) {
      exposeGc();
      this.handler = createRequestHandler((out) => this.deliver(out));
    }
    this.handler.dispatch(m);
  }

  /** Cancels request `id` (the engine stops at its next yield and answers with code `cancelled`). */
  cancel(id: number): void {
    this.handler?.dispatch({ kind: 'cancel', id } satisfies HostToWorker);
  }

  /** Aborts every pending request and releases the models the handler holds. */
  async dispose(): Promise<void> {
    const h = this.handler;
    this.handler = null;
    if (h) await new Promise<void>((done) => h.dispatch({ kind: 'shutdown' } satisfies HostToWorker, done));
  }
}
