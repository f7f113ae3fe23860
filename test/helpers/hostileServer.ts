/**
 * Hostile HTTP servers on 127.0.0.1 (port 0) for the network-hardening tests (#16 items 3, 11, 12):
 * each route misbehaves in one way a real attacker or a broken proxy does — a body that trickles one
 * byte per interval, an endless body, a redirect to another origin, a reply of a given size. Every
 * request is logged with its headers and body so a test can assert what reached which server.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoggedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Behaviour = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface HostileServer {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  origin: string;
  requests: LoggedRequest[];
  /** Bytes written to all responses so far (to show a client stopped reading). */
  bytesSent: number;
  close(): Promise<void>;
}

/** Starts a server whose every request is answered by `behave`. */
export async function startHostileServer(behave: Behaviour): Promise<HostileServer> {
  const state: HostileServer = { origin: '', requests: [], bytesSent: 0, close: async () => {} };
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const write = res.write.bind(res);
      res.write = ((chunk: string | Buffer, ...rest: unknown[]) => {
        state.bytesSent += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
        return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof res.write;
      (res as ServerResponse & { timers?: Set<NodeJS.Timeout> }).timers = timers;
      behave(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((r) => {
      for (const t of timers) clearInterval(t);
      server.closeAllConnections?.();
      server.close(() => r());
    });
  return state;
}

/** A chat-completions JSON reply whose message content is `content`. */
export function chatReply(content: string): string {
  return JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
}

/** Sends the headers at once, then `text` one byte every `everyMs` (a trickling body). */
export const trickle = (text: string, everyMs: number): Behaviour => (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  let i = 0;
  const t = setInterval(() => {
    if (res.destroyed) return clearInterval(t);
    if (i >= text.length) {
      clearInterval(t);
      res.end();
      return;
    }
    res.write(text[i++]);
  }, everyMs);
  (res as ServerResponse & { timers?: Set<NodeJS.Timeout> }).timers?.add(t);
};

/** A JSON reply that never ends: the opening of a chat reply, then 64 KiB chunks of spaces for ever. */
export const endless = (): Behaviour => (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = ' '.repeat(65536);
  res.write('{"choices":[{"message":{"role":"assistant","content":"');
  const pump = () => {
    while (!res.destroyed && res.write(chunk)) {
      /* fill the socket buffer */
    }
    if (!res.destroyed) res.once('drain', pump);
  };
  pump();
};

/** Answers with status `status` and a Location header pointing at `location`. */
export const redirect = (status: number, location: string): Behaviour => (_req, res) => {
  res.writeHead(status, { location, 'content-type': 'text/plain' });
  res.end('moved');
};

/** Answers 200 with a chat reply whose content is `content`. */
export const reply = (content: string): Behaviour => (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(chatReply(content));
};
