/**
 * An external retriever behind a URL (issue #18, `--retriever-url`): `POST URL {"id","question","k"}`
 * → `{"results": [...]}` per question, through src/core/net (`HttpClient`: the whole-response
 * deadline `timeoutMs` per request, a reply cap, same-origin redirects only, at most `concurrency`
 * requests in flight, retries of 408/409/429/5xx and timeouts with Retry-After honoured). A question
 * whose request still fails is a failed item with the (redacted) reason; `totalTimeoutMs` bounds all
 * of them (later requests fail with that reason).
 */
import { HttpClient, cancelled, redactText, redactUrl } from '../net';
import { isSpanproofError } from '../errors';
import { RESULTS_SCHEMA, issueText, type ExternalAnswer, type ExternalRequest } from './protocol';

export interface UrlOptions {
  timeoutMs: number;
  totalTimeoutMs: number;
  concurrency: number;
  retries: number;
  signal?: AbortSignal;
  onAnswer?: () => void;
  /** Tests: the wait between retries. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Reply cap: 8 MB (a long list of passages with their texts). */
const MAX_REPLY_BYTES = 8 * 1024 * 1024;

/** Queries `url` once per request (in parallel up to `concurrency`). Throws SpanproofError('cancelled') when `signal` aborts. */
export async function queryRetrieverUrl(url: string, requests: readonly ExternalRequest[], o: UrlOptions): Promise<{ answers: Map<string, ExternalAnswer>; failure: string | null }> {
  const client = new HttpClient({ timeoutMs: o.timeoutMs, maxResponseBytes: MAX_REPLY_BYTES, concurrency: o.concurrency, retries: o.retries, sleep: o.sleep });
  const total = AbortSignal.timeout(o.totalTimeoutMs);
  const signal = o.signal ? AbortSignal.any([o.signal, total]) : total;
  const answers = new Map<string, ExternalAnswer>();
  await Promise.all(requests.map(async (r) => {
    try {
      const reply = await client.postJson<unknown>(url, r, { signal });
      const p = RESULTS_SCHEMA.safeParse(reply.json);
      answers.set(r.id, p.success ? { items: p.data.results } : { error: `invalid reply from ${redactUrl(url)} (${issueText(p.error)})` });
    } catch (e) {
      if (o.signal?.aborted) throw cancelled();
      const why = total.aborted && isSpanproofError(e) && e.code === 'cancelled' ? `not answered within ${o.totalTimeoutMs} ms (external.totalTimeoutMs)` : redactText((e as Error).message);
      answers.set(r.id, { error: why });
    }
    o.onAnswer?.();
  }));
  const failed = requests.filter((r) => 'error' in answers.get(r.id)!);
  return { answers, failure: failed.length ? `${failed.length} of ${requests.length} requests to ${redactUrl(url)} failed; first: ${(answers.get(failed[0].id) as { error: string }).error}` : null };
}
