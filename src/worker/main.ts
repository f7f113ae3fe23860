/**
 * The grid worker (worker_threads entry, bundled to dist/worker.js), the extension's host of the grid:
 * the request handler (./handler.ts — the same one the CLI runs in its own thread) behind this
 * thread's message port. `shutdown` releases the ONNX sessions and closes the port so the thread exits.
 */
import '../core/ortEnv'; // first: disables onnxruntime's telemetry before it loads
import { parentPort } from 'node:worker_threads';
import { createRequestHandler, exposeGc } from './handler';

exposeGc();

const port = parentPort;
if (!port) throw new Error('spanproof worker: must run in a worker_threads Worker');

const handler = createRequestHandler((m) => port.postMessage(m));
port.on('message', (msg: unknown) => handler.dispatch(msg, () => port.close()));
