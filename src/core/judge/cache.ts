/**
 * Disk cache of endpoint replies (SPEC §14), keyed by (endpoint, model, prompt-version hash, input
 * hash): key = SHA-256 of the JSON array `[endpoint, model, promptHash, inputHash]`, where inputHash is
 * the SHA-256 of the request body that matters (messages, temperature, max tokens). A repeated run with
 * the same inputs sends no request. Files: `<dir>/<key[0..2]>/<key>.json`, written atomically.
 * Only successful replies are cached (not errors or timeouts).
 *
 * A file is `{"format": 2, "sha", content, finishReason, refusal, promptTokens, completionTokens}`;
 * `sha` = {@link replyChecksum} of the key and the reply. A reply edited after it was written (a fresh
 * user's finding: an edited judge reply was used as the judge's verdict) or a damaged file is not
 * used: the request is sent again and the file rewritten, with one `warning:` line per file through
 * {@link onReplyCacheWarning}. A file of format 1 (no `sha`, written before this check) is still used —
 * a paid reply is not thrown away — and one of a newer format is neither used nor overwritten.
 */
import { createHash } from 'node:crypto';
import { MAX_DATA_FILE_BYTES, readRegularTextSync } from '../files/read';
import { join } from 'node:path';
import { newerFormat, writeFileAtomic } from '../files';
import { makeDirs } from '../files/dirs';

const FORMAT = 2;

export interface CachedReply {
  content: string;
  finishReason: string | null;
  refusal: string | null;
  promptTokens: number;
  completionTokens: number;
}

export function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

export function cacheKey(endpoint: string, model: string, promptHash: string, inputHash: string): string {
  return sha256(JSON.stringify([endpoint, model, promptHash, inputHash]));
}

/** The checksum of a cached reply: SHA-256 over the format, the key and the reply's fields in a fixed order (independent of JSON formatting). */
export function replyChecksum(key: string, r: CachedReply): string {
  return sha256(JSON.stringify([`spanproof-judge-reply/${FORMAT}`, key, r.content, r.finishReason, r.refusal, r.promptTokens, r.completionTokens]));
}

let warn: ((line: string) => void) | null = null;

/** Where the reply cache says that a file could not be used (the CLI: a `warning:` line on stderr); null = nowhere. */
export function onReplyCacheWarning(sink: ((line: string) => void) | null): void {
  warn = sink;
}

const isReply = (v: Partial<CachedReply>): v is CachedReply =>
  typeof v.content === 'string' && (v.finishReason === null || typeof v.finishReason === 'string') && (v.refusal === null || v.refusal === undefined || typeof v.refusal === 'string')
  && Number.isFinite(v.promptTokens) && Number.isFinite(v.completionTokens);

export class ReplyCache {
  /** Files of a newer format: not used, never overwritten. */
  private readonly keep = new Set<string>();
  /** Files already warned about (one line per file). */
  private readonly warned = new Set<string>();

  constructor(readonly dir: string) {}

  private file(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  private notice(file: string, line: string): void {
    if (this.warned.has(file)) return;
    this.warned.add(file);
    warn?.(line);
  }

  get(key: string): CachedReply | null {
    const file = this.file(key);
    let text: string;
    try {
      text = readRegularTextSync(file, MAX_DATA_FILE_BYTES);
    } catch {
      return null; // absent: ask
    }
    let v: Partial<CachedReply> & { format?: unknown; sha?: unknown };
    try {
      v = JSON.parse(text) as typeof v;
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('not an object');
    } catch {
      this.notice(file, `the judge reply cache ${file} was damaged (not valid JSON — truncated or garbled); the request is sent again.`);
      return null;
    }
    const newer = newerFormat(v, FORMAT, 'format');
    if (newer !== null) {
      this.keep.add(file);
      this.notice(file, `the judge reply cache ${file} was written by a newer Spanproof (format ${newer}); not used and left as it is — update Spanproof to use it.`);
      return null;
    }
    const { format, sha } = v;
    if (!isReply(v)) {
      this.notice(file, `the judge reply cache ${file} was damaged (not a cached reply); the request is sent again.`);
      return null;
    }
    const reply: CachedReply = { content: v.content, finishReason: v.finishReason, refusal: v.refusal ?? null, promptTokens: v.promptTokens, completionTokens: v.completionTokens };
    if (format === undefined && sha === undefined) return reply; // format 1, written before the checksum
    if (format !== FORMAT || sha !== replyChecksum(key, reply)) {
      this.notice(file, `the judge reply cache ${file} was edited (its reply does not match its checksum — changed after Spanproof wrote it); the request is sent again.`);
      return null;
    }
    return reply;
  }

  put(key: string, reply: CachedReply): void {
    const file = this.file(key);
    if (this.keep.has(file)) return;
    makeDirs(join(this.dir, key.slice(0, 2)));
    const r: CachedReply = { content: reply.content, finishReason: reply.finishReason, refusal: reply.refusal, promptTokens: reply.promptTokens, completionTokens: reply.completionTokens };
    writeFileAtomic(file, JSON.stringify({ format: FORMAT, sha: replyChecksum(key, r), ...r }));
  }
}
