/**
 * Why an HTTP exchange under the network rules ({@link createFetch}) produced no usable response.
 * Messages name the origin (credentials redacted) and never contain a key or a request body.
 */
export type NetErrorKind =
  /** The whole response (headers and body) did not arrive within the deadline. */
  | 'deadline'
  /** The response body is larger than the cap (Content-Length or bytes read). */
  | 'too-large'
  /** A redirect that the rules do not follow (another origin for API calls, https → http, too many). */
  | 'redirect'
  /** A URL the rules refuse (not http/https, or credentials in it). */
  | 'bad-url'
  /** An HTTP error status from {@link HttpClient} (status set). */
  | 'http'
  /** The body is not the JSON it should be. */
  | 'bad-json';

export class NetError extends Error {
  constructor(
    readonly kind: NetErrorKind,
    message: string,
    /** HTTP status for kind `http`. */
    readonly status?: number,
    /** Retry-After of an HTTP error reply, ms (kind `http`). */
    readonly retryAfterMs?: number | null,
  ) {
    super(message);
    this.name = 'NetError';
  }
}

/** The NetError in `e` or in its `cause` chain (the `openai` package wraps fetch errors), else undefined. */
export function findNetError(e: unknown): NetError | undefined {
  for (let x: unknown = e, depth = 0; x && typeof x === 'object' && depth < 5; x = (x as { cause?: unknown }).cause, depth++) {
    if (x instanceof NetError) return x;
  }
  return undefined;
}
