/**
 * The check that a URL the user gave (`--endpoint`, `--retriever-url`, `modelEndpoint.url`) is an
 * http:// or https:// URL — made when the flag or setting is read, before anything is printed,
 * sent or run.
 */
import { SpanproofError } from '../errors';
import { redactUrl } from './redact';

/** True for an absolute http:// or https:// URL. */
export function isHttpUrl(url: string): boolean {
  try {
    return /^https?:$/.test(new URL(url).protocol);
  } catch {
    return false;
  }
}

/**
 * `url` when it is an http(s) URL.
 * @throws SpanproofError('bad-input') naming `field` (the flag or setting), the URL (redacted) and an
 *   example (`example`, default an Ollama base URL).
 */
export function assertHttpUrl(url: string, field: string, example = 'http://localhost:11434/v1 (Ollama) or https://api.openai.com/v1'): string {
  if (isHttpUrl(url)) return url;
  const shown = redactUrl(url);
  throw new SpanproofError('bad-input', `${field} "${shown}" is not an http:// or https:// URL.`, { field, fix: `give a full URL such as ${example}.` });
}
