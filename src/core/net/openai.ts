/**
 * The one place an `openai` package client is made (judges, drafting, endpoint embedders, safety
 * judges): every request goes through {@link createFetch} (whole-response deadline, size cap,
 * same-origin redirects only, explicit User-Agent), the SDK's own retries are off (callers retry with
 * ./retry so each HTTP request is counted), and the SDK's platform headers (OS, CPU, Node version) are
 * not sent.
 *
 * Endpoints: any OpenAI-compatible base URL — OpenAI (`https://api.openai.com/v1`), Ollama
 * (`http://localhost:11434/v1`), LM Studio, vLLM — and Azure OpenAI: `https://<resource>.openai.azure.com/openai/v1`
 * (key in the `api-key` header) or the resource root through `AzureOpenAI` (deployment = model name,
 * API version from `SPANPROOF_AZURE_API_VERSION`, default 2024-10-21). A base URL with
 * `user:password@` is sent as HTTP Basic authentication (never in the URL) when no API key is given.
 */
import type { OpenAI } from 'openai';
import { openaiSdk } from './sdk';
import { SpanproofError } from '../errors';
import { createFetch, DEFAULT_TIMEOUT_MS, USER_AGENT, type NetPolicy } from './fetch';
import { redactUrl } from './redact';

const AZURE_HOST = /\.(openai\.azure\.com|cognitiveservices\.azure\.com|services\.ai\.azure\.com)$/i;
const QUIET = ['x-stainless-os', 'x-stainless-arch', 'x-stainless-runtime', 'x-stainless-runtime-version', 'x-stainless-lang', 'x-stainless-package-version', 'x-stainless-retry-count', 'x-stainless-timeout'];

export interface OpenAIClientOptions {
  /** Base URL (setting `judge.endpoint` or the feature's own). */
  endpoint: string;
  /** API key; local servers need none. */
  apiKey?: string;
  /** The network rules (deadline, cap, redirects); defaults as {@link createFetch}. */
  policy?: NetPolicy;
  /** Setting name shown in errors about the URL (default `judge.endpoint`). */
  field?: string;
}

/**
 * An `openai` client for `endpoint` under the network rules. Throws SpanproofError('bad-input') when
 * the endpoint is not an http(s) URL or carries both `user:password@` and an API key (the message
 * shows the URL redacted).
 */
export function openAIClient(o: OpenAIClientOptions): OpenAI {
  const field = o.field ?? 'judge.endpoint';
  let url: URL;
  try {
    url = new URL(o.endpoint);
  } catch {
    throw new SpanproofError('bad-input', `endpoint "${redactUrl(o.endpoint)}" is not a URL.`, { field, fix: 'use a base URL such as http://localhost:11434/v1 (Ollama) or https://api.openai.com/v1.' });
  }
  if (!/^https?:$/.test(url.protocol)) throw new SpanproofError('bad-input', `endpoint "${redactUrl(o.endpoint)}" is not an http(s) URL.`, { field, fix: 'use a base URL such as http://localhost:11434/v1 (Ollama) or https://api.openai.com/v1.' });
  const headers: Record<string, string | null> = Object.fromEntries(QUIET.map((h) => [h, null]));
  headers['User-Agent'] = o.policy?.userAgent ?? USER_AGENT;
  if (url.username || url.password) {
    if (o.apiKey) throw new SpanproofError('bad-input', `endpoint "${redactUrl(o.endpoint)}" carries a user name and password, and an API key is set too.`, { field, fix: 'give one: remove user:password@ from the URL, or unset the API key.' });
    headers.Authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  // A query in the base URL (a proxy's `?api_key=…`, `?api-version=…`) goes on every request as the
  // SDK's defaultQuery: the SDK appends the route to baseURL as text, which put `/chat/completions`
  // inside the query (`?api_key=Q%2Fchat%2Fcompletions`).
  const defaultQuery = url.search ? Object.fromEntries(url.searchParams) : undefined;
  url.search = '';
  const key = o.apiKey || 'no-key';
  const timeout = (o.policy?.timeoutMs ?? DEFAULT_TIMEOUT_MS) + 5000; // ours fires first, with a clearer error
  const fetch = createFetch({ ...o.policy, stream: false });
  const azure = AZURE_HOST.test(url.hostname);
  if (azure && !/\/openai\/v1\/?$/.test(url.pathname)) {
    return new (openaiSdk().AzureOpenAI)({ endpoint: url.origin, apiKey: key, apiVersion: process.env.SPANPROOF_AZURE_API_VERSION || '2024-10-21', maxRetries: 0, timeout, fetch, defaultHeaders: headers });
  }
  const base = url.href.replace(/\/$/, '') === o.endpoint.replace(/\/$/, '') ? o.endpoint : url.href;
  return new (openaiSdk().OpenAI)({ baseURL: base, apiKey: key, maxRetries: 0, timeout, fetch, defaultHeaders: { ...headers, ...(azure ? { 'api-key': key } : {}) }, ...(defaultQuery ? { defaultQuery } : {}) });
}
