/**
 * Persisted reranker pair scores: one JSON file per scorer under `<dir>/rerank/<scorer slug>.json`,
 * `{"kind": "spanproof-rerank-scores", "version": 1, "scorerId", "scores": {key: score}}` with keys
 * from `rerankCacheKey` (scorer id, sha256(query), sha256(chunk text)). Loaded once; `flush()` writes
 * it back atomically when something changed. A damaged or foreign file is ignored (starts empty).
 * At most {@link RERANK_CACHE_MAX} pairs are kept: the file is written oldest first and the oldest
 * pairs are dropped beyond the limit (a re-scored pair moves to the end).
 */
import { readFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RerankCache } from '../retrieval/rerank';
import { writeFileAtomic } from '../files';
import { slugOf } from './embeddings';

const KIND = 'spanproof-rerank-scores';

/** Pairs kept per scorer file (~150 bytes each on disk). */
export const RERANK_CACHE_MAX = 100_000;

/**
 * A persisted string → finite number map in one JSON file (`{kind, version: 1, scorerId, scores}`),
 * newest entries last, at most `max` kept. Counts hits and misses of `get`. Base of the rerank score
 * and context token caches.
 */
export class PersistentNumberMap {
  private readonly scores = new Map<string, number>();
  private dirty = false;
  hits = 0;
  misses = 0;

  protected constructor(readonly file: string, readonly scorerId: string, private readonly kind: string, private readonly max: number) {
    try {
      const j = JSON.parse(readFileSync(file, 'utf8')) as { kind?: unknown; version?: unknown; scorerId?: unknown; scores?: unknown };
      if (j.kind === kind && j.version === 1 && j.scorerId === scorerId && j.scores && typeof j.scores === 'object') {
        for (const [k, v] of Object.entries(j.scores as Record<string, unknown>)) if (typeof v === 'number' && Number.isFinite(v)) this.scores.set(k, v);
      }
    } catch { /* absent or damaged: start empty */ }
  }

  get size(): number {
    return this.scores.size;
  }

  get(key: string): number | undefined {
    const v = this.scores.get(key);
    if (v === undefined) this.misses++;
    else this.hits++;
    return v;
  }

  set(key: string, v: number): void {
    if (!Number.isFinite(v)) return; // JSON cannot hold NaN/Infinity; such scores are simply recomputed
    if (this.scores.get(key) !== v) {
      this.scores.delete(key); // re-insert at the end: newest last
      this.scores.set(key, v);
      this.dirty = true;
    }
  }

  /** Writes the file atomically if anything changed. Returns false when the write failed (read-only disk). */
  flush(): boolean {
    if (!this.dirty) return true;
    try {
      mkdirSync(join(this.file, '..'), { recursive: true });
      const excess = this.scores.size - this.max;
      if (excess > 0) {
        let i = 0;
        for (const k of this.scores.keys()) {
          if (i++ >= excess) break;
          this.scores.delete(k);
        }
      }
      const scores = Object.fromEntries(this.scores);
      writeFileAtomic(this.file, JSON.stringify({ kind: this.kind, version: 1, scorerId: this.scorerId, scores }), { durable: false });
      this.dirty = false;
      return true;
    } catch {
      return false;
    }
  }
}

/** A {@link RerankCache} backed by one file per scorer under `<dir>/rerank/`. */
export class PersistentRerankCache extends PersistentNumberMap implements RerankCache {
  /** Opens (or starts) the score file of `scorerId` under `<dir>/rerank/`. Never throws on a damaged file. */
  static open(dir: string, scorerId: string): PersistentRerankCache {
    return new PersistentRerankCache(join(dir, 'rerank', `${slugOf(scorerId)}.json`), scorerId, KIND, RERANK_CACHE_MAX);
  }
}

/** Context token counts kept per tokenizer file. */
export const TOKEN_COUNT_CACHE_MAX = 200_000;

/**
 * Context token counts (SPEC §7.1: tokens of a merged result interval) under
 * `<dir>/tokens/<embedder slug>.json`, keyed by the caller (the grid uses
 * `<document SHA-256>:<start>:<end>`, UTF-16 offsets), so a warm run does not re-tokenise them.
 */
export class TokenCountCache extends PersistentNumberMap {
  /** Opens (or starts) the count file of `embedderId` (its tokenizer) under `<dir>/tokens/`. Never throws on a damaged file. */
  static open(dir: string, embedderId: string): TokenCountCache {
    return new TokenCountCache(join(dir, 'tokens', `${slugOf(embedderId)}.json`), embedderId, 'spanproof-token-counts', TOKEN_COUNT_CACHE_MAX);
  }
}
