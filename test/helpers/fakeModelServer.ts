/**
 * A fake model endpoint on 127.0.0.1 for the endpoint-model tests: OpenAI-compatible
 * `POST /v1/embeddings` and the common `POST /v1/rerank` shape (Cohere/Jina/vLLM), or TEI's
 * `{query, texts}` → `[{index, score}]` with `tei: true`.
 *
 * It embeds deterministically with a hashed bag of words ({@link bagOfWords}): lower-cased letter/digit
 * runs, each added (+1 or −1 by a hash bit) to bucket FNV-1a(word) mod `dim`. Rerank scores are the cosine
 * of the two bags. So retrieval quality is real (lexical overlap) and a test can compute the expected
 * vectors and rankings itself. `script(req)` may override any reply (429 + Retry-After, a hang, a
 * malformed body); every request is logged for counting.
 */
import { fnv1a } from './chunking';
import { startJsonServer, type JsonReply, type JsonRequest } from './jsonServer';

export interface FakeModelServer {
  /** Base URL `http://127.0.0.1:<port>/v1`. */
  url: string;
  requests: JsonRequest[];
  readonly maxInFlight: number;
  close(): Promise<void>;
}

export interface FakeModelServerOptions {
  /** Vector length (default 64). */
  dim?: number;
  /** Answer rerank in TEI's shape and refuse `documents` with a 422 asking for `texts`. */
  tei?: boolean;
  /** Overrides a reply; return undefined for the normal one. */
  script?: (req: JsonRequest) => JsonReply | undefined;
  /** Delay of normal replies, ms. */
  delayMs?: number;
}

/** The hashed bag-of-words vector of `text` (not normalised): see the module comment. */
export function bagOfWords(text: string, dim: number): number[] {
  const v = new Array<number>(dim).fill(0);
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const h = fnv1a(w);
    v[h % dim] += h & 0x80000000 ? -1 : 1;
  }
  return v;
}

/** Cosine of two vectors (0 when either is all zeros). */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  return aa === 0 || bb === 0 ? 0 : ab / Math.sqrt(aa * bb);
}

export async function startFakeModelServer(o: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  const dim = o.dim ?? 64;
  const srv = await startJsonServer((r): JsonReply => {
    const scripted = o.script?.(r);
    if (scripted) return scripted;
    const b = r.body as { model?: string; input?: unknown; query?: string; documents?: string[]; texts?: string[] };
    if (r.path === '/v1/embeddings') {
      const input = Array.isArray(b.input) ? (b.input as string[]) : [String(b.input)];
      const data = input.map((t, index) => ({ object: 'embedding', index, embedding: bagOfWords(t, dim) }));
      return { json: { object: 'list', model: b.model, data, usage: { prompt_tokens: input.length, total_tokens: input.length } }, delayMs: o.delayMs };
    }
    if (r.path === '/v1/rerank') {
      if (o.tei && !b.texts) return { status: 422, body: JSON.stringify({ error: 'Failed to deserialize the JSON body into the target type: missing field `texts`', error_type: 'Validation' }) };
      const docs = (o.tei ? b.texts : b.documents) ?? [];
      const q = bagOfWords(b.query ?? '', dim);
      const scored = docs.map((d, index) => ({ index, s: cosine(q, bagOfWords(d, dim)) })).sort((x, y) => y.s - x.s);
      if (o.tei) return { json: scored.map(({ index, s }) => ({ index, score: s })), delayMs: o.delayMs };
      return { json: { id: `rr-${r.n}`, results: scored.map(({ index, s }) => ({ index, relevance_score: s })) }, delayMs: o.delayMs };
    }
    return { status: 404, body: JSON.stringify({ error: { message: `no route ${r.path}` } }) };
  });
  return {
    url: `${srv.origin}/v1`,
    requests: srv.requests,
    get maxInFlight() {
      return srv.maxInFlight;
    },
    close: () => srv.close(),
  };
}
