/**
 * A fake OpenAI-compatible chat-completions server on 127.0.0.1 (node:http), for the judge tests and
 * benchmark. It logs every request it receives, tracks the most requests in flight at once, and
 * answers with canned but meaningful replies recognised from the prompt:
 * - generation → the text of `answers[question]` (or "I do not know.");
 * - claim extraction → the text split into sentences;
 * - claim verification → a claim is supported when the premise contains it (case-insensitive,
 *   without the final period) — so faithfulness and answer correctness are computable by hand;
 * - boolean correctness → correct when the answer contains the reference (case-insensitive);
 * - 1–5 judges → `scaleScore` (default 4).
 * `script(req)` may override any reply: a status with headers (429 + Retry-After), a hang (timeout),
 * malformed content, a delay.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  /** 1-based arrival number. */
  n: number;
  model: string;
  messages: Array<{ role: string; content: string }>;
  kind: 'generate' | 'claims' | 'verify' | 'boolean' | 'scale' | 'repair' | 'other';
  /** The parsed JSON body. */
  body?: Record<string, unknown>;
  /** HTTP headers as received (lower-case names). */
  headers?: Record<string, string | string[] | undefined>;
}

export type Scripted =
  | { status: number; headers?: Record<string, string>; body?: string }
  | { hang: true }
  | { content: string; delayMs?: number }
  | { delayMs: number }
  | undefined;

export interface FakeServerOptions {
  answers?: Record<string, string>;
  scaleScore?: number | ((req: FakeRequest) => number);
  delayMs?: number;
  script?: (req: FakeRequest) => Scripted;
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export interface FakeServer {
  url: string;
  requests: FakeRequest[];
  maxInFlight: number;
  inFlight: number;
  /** Called on each arrival (after logging). */
  onRequest?: (req: FakeRequest) => void;
  close(): Promise<void>;
}

function kindOf(messages: FakeRequest['messages']): FakeRequest['kind'] {
  const last = messages[messages.length - 1]?.content ?? '';
  if (messages.length > 2 && last.includes('could not be read')) return 'repair';
  const sys = messages.find((m) => m.role === 'system')?.content ?? '';
  if (sys.includes('You answer questions')) return 'generate';
  if (sys.includes('"claims"')) return 'claims';
  if (sys.includes('"verdicts"')) return 'verify';
  if (sys.includes('"correct"')) return 'boolean';
  if (sys.includes('"score"')) return 'scale';
  return 'other';
}

const sentences = (t: string) => t.split(/(?<=\.)\s+/).map((s) => s.trim()).filter((s) => s && !/^i do not know/i.test(s));
const norm = (s: string) => s.toLowerCase().replace(/\.$/, '').trim();

/** The canned reply content for a request (what a well-behaved judge would say). */
export function cannedContent(req: FakeRequest, o: FakeServerOptions): string {
  const user = req.messages.find((m) => m.role === 'user')?.content ?? '';
  const field = (name: string, until: string) => {
    const i = user.indexOf(`${name}`);
    if (i < 0) return '';
    const rest = user.slice(i + name.length);
    const j = until ? rest.indexOf(until) : -1;
    return (j >= 0 ? rest.slice(0, j) : rest).trim();
  };
  switch (req.kind === 'repair' ? kindOf(req.messages.slice(0, 2)) : req.kind) {
    case 'generate': {
      const q = field('Question:', '\n\nAnswer:');
      return o.answers?.[q] ?? 'I do not know.';
    }
    case 'claims':
      return JSON.stringify({ claims: sentences(field('Text:\n', '')) });
    case 'verify': {
      const premise = norm(field('Source text:\n', '\n\nClaims:'));
      const claims = field('Claims:\n', '').split('\n').filter(Boolean).map((l) => l.replace(/^\d+\.\s*/, ''));
      return JSON.stringify({ verdicts: claims.map((c, i) => ({ index: i + 1, supported: premise.includes(norm(c)), reason: 'checked by substring' })) });
    }
    case 'boolean': {
      const ref = field('Reference answer:\n', '\n\nAnswer to check:');
      const ans = field('Answer to check:\n', '');
      return JSON.stringify({ correct: ans.toLowerCase().includes(norm(ref)), reason: 'compared with the reference' });
    }
    case 'scale': {
      const s = typeof o.scaleScore === 'function' ? o.scaleScore(req) : (o.scaleScore ?? 4);
      return JSON.stringify({ score: s, reason: 'canned grade' });
    }
    default:
      return '{}';
  }
}

export async function startFakeServer(o: FakeServerOptions = {}): Promise<FakeServer> {
  const state: FakeServer = { url: '', requests: [], maxInFlight: 0, inFlight: 0, close: async () => {} };
  const open = new Set<ServerResponse>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: { model?: string; messages?: FakeRequest['messages']; [k: string]: unknown } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        /* logged as other */
      }
      const fr: FakeRequest = { n: state.requests.length + 1, model: body.model ?? '', messages: body.messages ?? [], kind: kindOf(body.messages ?? []), headers: req.headers, body };
      state.requests.push(fr);
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      open.add(res);
      let ended = false;
      const finish = (status: number, headers: Record<string, string>, text: string) => {
        if (ended) return;
        ended = true;
        state.inFlight--;
        open.delete(res);
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(text);
      };
      res.on('close', () => {
        if (!ended) {
          ended = true;
          state.inFlight--;
          open.delete(res);
        }
      });
      state.onRequest?.(fr);
      const sc = o.script?.(fr);
      if (sc && 'hang' in sc) return; // never answers; the client times out or aborts
      if (sc && 'status' in sc) {
        setImmediate(() => finish(sc.status, sc.headers ?? {}, sc.body ?? JSON.stringify({ error: { message: `scripted ${sc.status}`, type: 'test' } })));
        return;
      }
      const content = sc && 'content' in sc ? sc.content : cannedContent(fr, o);
      const delay = (sc && 'delayMs' in sc ? sc.delayMs : undefined) ?? o.delayMs ?? 0;
      const reply = JSON.stringify({
        id: `cmpl-${fr.n}`,
        object: 'chat.completion',
        created: 0,
        model: fr.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { ...(o.usage ?? { prompt_tokens: 10, completion_tokens: 5 }), total_tokens: 0 },
      });
      const send = () => finish(200, {}, reply);
      if (delay > 0) setTimeout(send, delay);
      else setImmediate(send);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () =>
    new Promise<void>((r) => {
      for (const res of open) res.destroy();
      server.closeAllConnections?.();
      server.close(() => r());
    });
  return state;
}
