/**
 * The chunker thread (worker_threads entry, bundled to dist/chunker-thread.js): the second thread of a
 * grid run (issue #13), serving the chunkers the engine hands it (src/core/grid/parallel.ts) with its
 * own models and caches. Messages are {@link ChunkerThreadMessage}s: `run` one chunker, `cancel` the
 * one in flight, `close` (release the models, then the thread exits).
 */
import '../core/ortEnv'; // first: disables onnxruntime's telemetry before it loads
import { parentPort, workerData } from 'node:worker_threads';
import { openChunkerThreadServer, type ChunkerThreadInit } from '../core/grid/parallel';
import { exposeGc } from './handler';
import { toChunkerThreadError, type ChunkerThreadMessage, type ChunkerThreadReply } from './chunkerProtocol';

exposeGc();

const port = parentPort;
if (!port) throw new Error('spanproof chunker thread: must run in a worker_threads Worker');

const ac = new AbortController();
const server = openChunkerThreadServer(workerData as ChunkerThreadInit, ac.signal);
const send = (m: ChunkerThreadReply) => port.postMessage(m);
server.ready.then(() => send({ kind: 'ready' }), (e: unknown) => send({ kind: 'unusable', error: toChunkerThreadError(e) }));

port.on('message', (m: ChunkerThreadMessage) => {
  if (m.kind === 'cancel') ac.abort();
  else if (m.kind === 'close') {
    ac.abort();
    void server.close().finally(() => port.close());
  } else if (m.kind === 'run') {
    server.run(m.job, (units) => send({ kind: 'units', units })).then(
      (result) => send({ kind: 'done', result }),
      (e: unknown) => send({ kind: 'failed', error: toChunkerThreadError(e) }),
    );
  }
});
