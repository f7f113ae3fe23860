/**
 * The HTTP core of the fake servers on 127.0.0.1 (port 0) that tests start: it logs every request
 * (1-based arrival number, method, path, parsed JSON body, headers), tracks the most requests in
 * flight at once, and answers with what `handle` returns — a JSON reply, a status with headers
 * (429 + Retry-After), a hang (the client times out or aborts), optionally after a delay.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface JsonRequest {
  /** 1-based arrival number. */
  n: number;
  method: string;
  /** URL path without the query, e.g. `/v1/embeddings`. */
  path: string;
  /** The parsed JSON body ({} when absent or not JSON). */
  body: Record<string, unknown>;
  /** HTTP headers as received (lower-case names). */
  headers: Record<string, string | string[] | undefined>;
}

export type JsonReply =
  | { status: number; headers?: Record<string, string>; body?: string; delayMs?: number }
  | { json: unknown; delayMs?: number }
  | { hang: true };

export interface JsonServer<R extends JsonRequest = JsonRequest> {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  origin: string;
  requests: R[];
  maxInFlight: number;
  inFlight: number;
  close(): Promise<void>;
}

/**
 * Starts the server. `toRequest` may enrich the logged request (it runs before `handle`).
 * Resolves once it listens.
 */
export async function startJsonServer<R extends JsonRequest>(handle: (req: R) => JsonReply, toRequest: (base: JsonRequest) => R = (b) => b as R): Promise<JsonServer<R>> {
  const state: JsonServer<R> = { origin: '', requests: [], maxInFlight: 0, inFlight: 0, close: async () => {} };
  const open = new Set<ServerResponse>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        /* not JSON: logged with an empty body */
      }
      const r = toRequest({ n: state.requests.length + 1, method: req.method ?? '', path: (req.url ?? '').split('?')[0], body, headers: req.headers });
      state.requests.push(r);
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      open.add(res);
      let ended = false;
      const done = () => {
        if (ended) return false;
        ended = true;
        state.inFlight--;
        open.delete(res);
        return !res.destroyed;
      };
      res.on('close', () => void done());
      const reply = handle(r);
      if ('hang' in reply) return; // never answers
      const send = () => {
        if (!done()) return;
        if ('json' in reply) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(reply.json));
        } else {
          res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
          res.end(reply.body ?? JSON.stringify({ error: { message: `scripted ${reply.status}`, type: 'test' } }));
        }
      };
      if (reply.delayMs && reply.delayMs > 0) setTimeout(send, reply.delayMs);
      else setImmediate(send);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((r) => {
      for (const res of open) res.destroy();
      server.closeAllConnections?.();
      server.close(() => r());
    });
  return state;
}
