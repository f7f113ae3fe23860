/**
 * A fake OpenAI-compatible chat-completions server on 127.0.0.1 (node:http), for the judge tests and
 * benchmark. It logs every request it receives, tracks the most requests in flight at once, and
 * answers with canned but meaningful replies recognised from the prompt:
 * - generation → the text of `answers[question]` (or "I do not know.");
 * - claim extraction → the text split into sentences;
 * - claim verification → a claim is supported when the premise contains it (case-insensitive,
 *   without the final period) — so faithfulness and answer correctness are computable by hand;
 * - boolean correctness → correct when the answer contains the reference (case-insensitive);
 * - 1–5 judges → `scaleScore` (default 4);
 * - question drafting (src/core/draft) → `draft(info)` with the passage parsed out of the request
 *   (default: one question per sentence of the passage, quoting it verbatim).
 * `script(req)` may override any reply: a status with headers (429 + Retry-After), a hang (timeout),
 * malformed content, a delay.
 */
import { startJsonServer, type JsonReply, type JsonRequest } from './jsonServer';

export interface FakeRequest {
  /** 1-based arrival number. */
  n: number;
  model: string;
  messages: Array<{ role: string; content: string }>;
  kind: 'generate' | 'claims' | 'verify' | 'boolean' | 'scale' | 'draft' | 'repair' | 'other';
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

/** What a drafting request asked: the passage exactly as sent between its delimiter lines. */
export interface DraftAsk {
  source: string;
  heading: string;
  passage: string;
  /** Questions asked for. */
  n: number;
  req: FakeRequest;
}

export interface FakeServerOptions {
  /** Reply content for a drafting request (default `defaultDraftReply`). */
  draft?: (ask: DraftAsk) => string;
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
  if (sys.includes('"questions"')) return 'draft';
  if (sys.includes('"correct"')) return 'boolean';
  if (sys.includes('"score"')) return 'scale';
  return 'other';
}

/** The passage, source, heading and question count of a drafting request. */
export function draftAsk(req: FakeRequest): DraftAsk {
  const sys = req.messages.find((m) => m.role === 'system')?.content ?? '';
  const user = req.messages.find((m) => m.role === 'user')?.content ?? '';
  const m = /\n<<<(PASSAGE\d*)\n([\s\S]*)\n\1>>>$/.exec(user);
  return {
    source: /^Document: (.*)$/m.exec(user)?.[1] ?? '',
    heading: /^Section: (.*)$/m.exec(user)?.[1] ?? '',
    passage: m?.[2] ?? '',
    n: Number(/at most (\d+) question/.exec(sys)?.[1] ?? 1),
    req,
  };
}

/** A well-behaved drafting reply: one question per sentence (of ≥ 20 characters) of the passage, up to n, each quoting its sentence verbatim. */
export function defaultDraftReply(a: DraftAsk): string {
  const picked = a.passage.split(/(?<=[.!?])\s+/).map((s) => s.trim()).filter((s) => s.length >= 20 && !s.startsWith('#')).slice(0, a.n);
  return JSON.stringify({ questions: picked.map((s, i) => ({ question: `Question ${i + 1} about ${a.source}: what is said in "${s.slice(0, 30)}"?`, answer: s.slice(0, 60), evidence: [{ quote: s }] })) });
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
    case 'draft':
      return (o.draft ?? defaultDraftReply)(draftAsk(req.kind === 'repair' ? { ...req, messages: req.messages.slice(0, 2) } : req));
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
  const srv = await startJsonServer<FakeRequest & JsonRequest>(
    (fr): JsonReply => {
      state.onRequest?.(fr);
      const sc = o.script?.(fr);
      if (sc && 'hang' in sc) return { hang: true }; // never answers; the client times out or aborts
      if (sc && 'status' in sc) return { status: sc.status, headers: sc.headers, body: sc.body };
      const content = sc && 'content' in sc ? sc.content : cannedContent(fr, o);
      const delayMs = (sc && 'delayMs' in sc ? sc.delayMs : undefined) ?? o.delayMs ?? 0;
      const json = {
        id: `cmpl-${fr.n}`,
        object: 'chat.completion',
        created: 0,
        model: fr.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { ...(o.usage ?? { prompt_tokens: 10, completion_tokens: 5 }), total_tokens: 0 },
      };
      return { json, delayMs };
    },
    (base) => {
      const body = base.body as { model?: string; messages?: FakeRequest['messages'] };
      const messages = body.messages ?? [];
      return { ...base, model: body.model ?? '', messages, kind: kindOf(messages) };
    },
  );
  // The log and the in-flight counters live in the core server; FakeServer shows them.
  Object.defineProperties(state, {
    requests: { get: () => srv.requests },
    maxInFlight: { get: () => srv.maxInFlight },
    inFlight: { get: () => srv.inFlight },
  });
  state.url = `${srv.origin}/v1`;
  state.close = () => srv.close();
  return state;
}
