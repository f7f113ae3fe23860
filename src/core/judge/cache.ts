/**
 * Disk cache of endpoint replies (SPEC §14), keyed by (endpoint, model, prompt-version hash, input
 * hash): key = SHA-256 of the JSON array `[endpoint, model, promptHash, inputHash]`, where inputHash is
 * the SHA-256 of the request body that matters (messages, temperature, max tokens). A repeated run with
 * the same inputs sends no request. Files: `<dir>/<key[0..2]>/<key>.json`, written atomically.
 * Only successful replies are cached (not errors or timeouts).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../files';

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

export class ReplyCache {
  constructor(readonly dir: string) {}

  private file(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  get(key: string): CachedReply | null {
    try {
      const v = JSON.parse(readFileSync(this.file(key), 'utf8')) as CachedReply;
      return typeof v.content === 'string' ? v : null;
    } catch {
      return null; // absent or damaged: ask again
    }
  }

  put(key: string, reply: CachedReply): void {
    mkdirSync(join(this.dir, key.slice(0, 2)), { recursive: true });
    writeFileAtomic(this.file(key), JSON.stringify(reply));
  }
}
