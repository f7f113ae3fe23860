/**
 * Downloading one file from the Hugging Face hub (or a mirror speaking its `resolve` URLs) to disk,
 * streamed, resumable and verified: `GET {hub}/{repo}/resolve/{revision}/{path}` with `undici`
 * (redirects to the hub's CDN followed; nothing but public files is fetched, so no credential is sent),
 * through `HTTPS_PROXY` / `HTTP_PROXY` unless `NO_PROXY` matches (undici's EnvHttpProxyAgent).
 *
 * Bytes go to `<dest>.part`; a `.part` left by an interrupted pull is continued with
 * `Range: bytes=<n>-` (a 200 reply restarts it). There is no whole-response deadline (models are
 * hundreds of MB): the wait for headers and the gap between two body chunks are limited instead
 * (`idleTimeoutMs`). The SHA-256 is computed while writing; only a file of the pinned size and hash is
 * renamed to `dest`.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import type { Dispatcher } from 'undici';
import { undici } from '../../net/sdk';

/** Why a download failed; `resumable` keeps the `.part` file for the next pull. */
export class DownloadFailure extends Error {
  constructor(
    readonly kind: 'not-found' | 'refused' | 'http' | 'network' | 'timeout' | 'hash' | 'size' | 'disk' | 'cancelled',
    message: string,
    readonly resumable: boolean,
  ) {
    super(message);
    this.name = 'DownloadFailure';
  }
}

/** Proxy settings as the environment variables give them (upper- or lower-case). */
export interface ProxyEnv {
  HTTPS_PROXY?: string;
  HTTP_PROXY?: string;
  NO_PROXY?: string;
  https_proxy?: string;
  http_proxy?: string;
  no_proxy?: string;
}

/** `url` without `user:password@` (for messages). */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, '$1');
}

/**
 * The dispatcher for downloads: a proxy agent when `env` names a proxy (NO_PROXY honoured per host,
 * also after redirects), else a plain agent. `idleTimeoutMs` bounds the wait for headers and between
 * body chunks.
 */
export function downloadDispatcher(env: ProxyEnv, idleTimeoutMs: number): Dispatcher {
  const httpsProxy = env.HTTPS_PROXY ?? env.https_proxy ?? '';
  const httpProxy = env.HTTP_PROXY ?? env.http_proxy ?? '';
  const timeouts = { headersTimeout: idleTimeoutMs, bodyTimeout: idleTimeoutMs };
  if (!httpsProxy && !httpProxy) return new (undici().Agent)(timeouts);
  // EnvHttpProxyAgent announces itself as experimental on stderr once; the CLI should not print that.
  const emit = process.emitWarning;
  process.emitWarning = (() => {}) as typeof process.emitWarning;
  try {
    return new (undici().EnvHttpProxyAgent)({ ...timeouts, httpProxy, httpsProxy, noProxy: env.NO_PROXY ?? env.no_proxy ?? '' });
  } finally {
    process.emitWarning = emit;
  }
}

export interface FileDownload {
  url: string;
  /** Final path; bytes are written to `${dest}.part` first. */
  dest: string;
  sha256: string;
  size: number;
  dispatcher: Dispatcher;
  signal?: AbortSignal;
  /** Called with the bytes of this file on disk so far (resumed bytes included). */
  onBytes?: (bytes: number) => void;
}

async function sizeOf(p: string): Promise<number> {
  try {
    return (await stat(p)).size;
  } catch {
    return -1;
  }
}

async function hashFile(p: string, h: Hash): Promise<void> {
  for await (const chunk of createReadStream(p)) h.update(chunk as Buffer);
}

function networkFailure(e: unknown, url: string, signal?: AbortSignal): DownloadFailure {
  if (signal?.aborted) return new DownloadFailure('cancelled', 'cancelled', true);
  if (e instanceof DownloadFailure) return e;
  const err = e as NodeJS.ErrnoException;
  if (err.code === 'ENOSPC' || err.code === 'EDQUOT') return new DownloadFailure('disk', `the disk is full (${err.code})`, false);
  if (err.code === 'EACCES' || err.code === 'EROFS' || err.code === 'EPERM') return new DownloadFailure('disk', `cannot write the model folder (${err.code})`, false);
  if (e instanceof undici().errors.HeadersTimeoutError || e instanceof undici().errors.BodyTimeoutError) return new DownloadFailure('timeout', `${redactUrl(url)} stopped sending data (${err.code})`, true);
  const cause = (e as { cause?: { code?: string } }).cause;
  return new DownloadFailure('network', `${redactUrl(url)}: ${err.code ?? cause?.code ?? (e as Error).message}`, true);
}

/**
 * Downloads one file (see the module comment). Resolves when `dest` holds exactly `size` bytes with
 * SHA-256 `sha256`. Rejects with a {@link DownloadFailure}: `not-found` (404), `refused` (401/403:
 * gated or private), `http`, `network`/`timeout` (resumable: the `.part` stays), `size`/`hash` (the
 * `.part` is deleted), `disk` (ENOSPC/EACCES; the `.part` is deleted), `cancelled` (resumable).
 */
export async function downloadFile(d: FileDownload): Promise<void> {
  const part = `${d.dest}.part`;
  let have = await sizeOf(part);
  if (have > d.size) {
    await rm(part, { force: true });
    have = -1;
  }
  const h = createHash('sha256');
  try {
    if (have === d.size) {
      await hashFile(part, h); // complete but not yet verified (a pull stopped between the last byte and the rename)
    } else {
      have = await fetchInto(d, part, Math.max(0, have), h);
    }
    if (have !== d.size) throw new DownloadFailure('size', `${redactUrl(d.url)} sent ${have} bytes, the catalogue pins ${d.size}`, false);
    const got = h.digest('hex');
    if (got !== d.sha256) throw new DownloadFailure('hash', `${redactUrl(d.url)} has SHA-256 ${got}, the catalogue pins ${d.sha256}`, false);
    await rename(part, d.dest);
  } catch (e) {
    const f = networkFailure(e, d.url, d.signal);
    if (!f.resumable) await rm(part, { force: true });
    throw f;
  }
}

/** GETs `d.url` from byte `from` (Range) into `part`; returns the bytes now in `part`, hashed into `h`. */
async function fetchInto(d: FileDownload, part: string, from: number, h: Hash): Promise<number> {
  const res = await undici().request(d.url, {
    dispatcher: d.dispatcher,
    method: 'GET',
    maxRedirections: 5,
    signal: d.signal,
    headers: { 'user-agent': 'spanproof', ...(from > 0 ? { range: `bytes=${from}-` } : {}) },
  });
  // The body may fail (a dropped connection) while the file is opened below, before it is read: the
  // read loop rethrows that error, this listener only keeps it from being an unhandled 'error' event.
  res.body.on('error', () => {});
  const s = res.statusCode;
  const resumed = s === 206 && from > 0 && String(res.headers['content-range'] ?? '').startsWith(`bytes ${from}-`);
  if (s !== 200 && !resumed) {
    await res.body.dump().catch(() => {});
    if (from > 0 && (s === 416 || s === 206)) return fetchInto(d, part, 0, h); // the server cannot continue this part: start over
    if (s === 404) throw new DownloadFailure('not-found', `${redactUrl(d.url)} is not on the hub (HTTP 404)`, false);
    if (s === 401 || s === 403) throw new DownloadFailure('refused', `${redactUrl(d.url)} refused (HTTP ${s}: a gated or private repository)`, false);
    throw new DownloadFailure('http', `${redactUrl(d.url)} answered HTTP ${s}`, s >= 500 || s === 429);
  }
  if (resumed) await hashFile(part, h);
  const fh = await open(part, resumed ? 'a' : 'w');
  let bytes = resumed ? from : 0;
  try {
    d.onBytes?.(bytes);
    for await (const chunk of res.body) {
      const b = chunk as Buffer;
      bytes += b.length;
      if (bytes > d.size) throw new DownloadFailure('size', `${redactUrl(d.url)} sends more than the ${d.size} bytes the catalogue pins`, false);
      await fh.write(b);
      h.update(b);
      d.onBytes?.(bytes);
    }
    await fh.sync();
  } finally {
    await fh.close();
  }
  return bytes;
}
