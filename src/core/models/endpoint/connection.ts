/**
 * One model endpoint (SPEC §5.3 "Endpoint models"): the `openai` client for its base URL, the request
 * limiter, the retry policy and the ledger shared by every embedder and reranker that uses it, so that
 * the concurrency limit and the request counts hold for the whole run.
 */
import type { OpenAI } from 'openai';
import { SpanproofError } from '../../errors';
import { modelEndpointFix } from './hint';
import { Ledger } from '../../judge/ledger';
import { RequestLimiter, openAIClient } from '../../net';
import type { LedgerCounters } from '../../judge/types';
import { DEFAULT_POLICY, type EndpointPolicy, type RequestContext } from './request';

export interface EndpointOptions {
  /** Base URL, e.g. `http://localhost:11434/v1` (Ollama), `https://api.openai.com/v1`, `https://api.cohere.com/v2`. */
  endpoint: string;
  /** API key (`SPANPROOF_API_KEY` in the CLI, SecretStorage in VS Code); never from settings files. Local servers need none. */
  apiKey?: string;
  /** Limits and retries; missing fields take {@link DEFAULT_POLICY}. */
  policy?: Partial<EndpointPolicy>;
  /** The setting or flag named in configuration errors (default `--endpoint`). */
  field?: string;
}

/** The ledger of a model endpoint as written to the run directory (`models-ledger.json`). */
export interface ModelLedgerFile extends LedgerCounters {
  endpoint: string;
  byModel: Record<string, LedgerCounters>;
}

/**
 * `url` without `user:password@` (what may be shown, written and hashed).
 * Throws SpanproofError('bad-input') naming `field` when `url` is not an http(s) URL.
 */
export function endpointDisplay(url: string, field = '--endpoint'): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new SpanproofError('bad-input', `endpoint "${url.replace(/\/\/[^/@]*@/, '//…@')}" is not a URL.`, { field, fix: 'use a base URL such as http://localhost:11434/v1 (Ollama) or https://api.openai.com/v1.' });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new SpanproofError('bad-input', `endpoint "${u.protocol}//${u.host}…" is not http or https.`, { field, fix: 'use an http:// or https:// base URL.' });
  }
  u.username = '';
  u.password = '';
  return u.toString().replace(/\/+$/, '');
}

export class ModelEndpoint {
  /** The base URL without credentials and without a trailing slash. */
  readonly endpoint: string;
  readonly ledger: Ledger;
  readonly limiter: RequestLimiter;
  readonly policy: EndpointPolicy;
  readonly api: OpenAI;
  readonly field: string;
  private readonly state = { reached: false };

  /** Throws SpanproofError('bad-input') for a missing or non-http(s) URL, or one carrying `user:password@`. */
  constructor(opts: EndpointOptions) {
    this.field = opts.field ?? '--endpoint';
    if (!opts.endpoint) throw new SpanproofError('bad-input', 'an endpoint model needs an endpoint.', { field: this.field, fix: modelEndpointFix('http://localhost:11434/v1') });
    this.endpoint = endpointDisplay(opts.endpoint, this.field);
    if (new URL(opts.endpoint).username || new URL(opts.endpoint).password) {
      throw new SpanproofError('bad-input', `the endpoint URL ${this.endpoint} carries a user name or password.`, { field: this.field, fix: 'remove user:password@ from the URL and give the key in SPANPROOF_API_KEY (CLI) or the VS Code key store.' });
    }
    this.policy = { ...DEFAULT_POLICY, ...opts.policy };
    // core/net rules (deadline over the whole response, no cross-origin redirects); embedding batches are
    // larger than chat replies, so the reply cap is 64 MB here instead of the 1 MB default.
    this.api = openAIClient({ endpoint: this.endpoint, apiKey: opts.apiKey, policy: { timeoutMs: this.policy.timeoutMs, maxResponseBytes: 64_000_000 }, field: this.field });
    this.ledger = new Ledger(this.endpoint);
    this.limiter = new RequestLimiter(this.policy.concurrency, 0);
  }

  /** The context of one request to `route` for `model`. */
  context(route: string, model: string, signal?: AbortSignal): RequestContext {
    return { endpoint: this.endpoint, route, model, ledger: this.ledger, limiter: this.limiter, policy: this.policy, field: this.field, state: this.state, signal };
  }

  /** Requests, cached inputs, prompt tokens, latency, failures, retries and waits, in total and per model. */
  ledgerFile(): ModelLedgerFile {
    const { endpoint, byModel, requests, cachedResponses, promptTokens, completionTokens, latencyMs, failures, retries, waitedMs } = this.ledger.snapshot({ status: 'succeeded', items: { done: 0, total: 0 }, sameModel: false });
    return { endpoint, requests, cachedResponses, promptTokens, completionTokens, latencyMs, failures, retries, waitedMs, byModel };
  }
}
