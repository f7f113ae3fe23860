/**
 * Persisted reranker pair scores: one JSON file per scorer under `<dir>/rerank/<scorer slug>.json`,
 * `{"kind": "spanproof-rerank-scores", "version": 2, "scorerId", "sha", "scores": {key: score}}` with keys
 * from `rerankCacheKey` (scorer id, sha256(query), sha256(chunk text)). Loaded once; `flush()` writes
 * it back atomically when something changed. At most {@link RERANK_CACHE_MAX} pairs are kept: the
 * file is written oldest first and the oldest pairs are dropped beyond the limit (a re-scored pair
 * moves to the end).
 *
 * `sha` is {@link numberMapChecksum} of the kind, the scorer id and every pair (issue #16: a hand-edited
 * score file used to change the rankings silently). A damaged file (not JSON, not this kind, a score
 * that is not a finite number) or an edited one (its checksum does not match) is not used: the map
 * starts empty, is recomputed and rewritten, with one line in {@link PersistentNumberMap.notice}.
 * A file of the older format 1 (no checksum) is recomputed without a notice (an upgrade); one of a
 * newer format is not used and never overwritten.
 */
import { createHash } from 'node:crypto';
import { MAX_DATA_FILE_BYTES, readRegularTextSync } from '../files/read';
import { join } from 'node:path';
import type { RerankCache } from '../retrieval/rerank';
import { newerFormat, writeFileAtomic } from '../files';
import { slugOf } from './embeddings';
import { makeDirs } from '../files/dirs';

const KIND = 'spanproof-rerank-scores';
const VERSION = 2;

/**
 * The checksum of a persisted number map: hex SHA-256 over `<kind>/2`, the owner id and every
 * `key U+0000 value` line in file order (values as JSON writes them) — independent of JSON formatting.
 */
export function numberMapChecksum(kind: string, ownerId: string, entries: Iterable<readonly [string, number]>): string {
  const h = createHash('sha256').update(`${kind}/${VERSION}\0${ownerId}\0`);
  for (const [k, v] of entries) h.update(`${k}\0${JSON.stringify(v)}\n`);
  return h.digest('hex');
}

/** The pairs of a parsed file `j`, or why it is unusable ('damaged: …', 'edited: …', 'newer: N', 'older'). */
function readPairs(j: unknown, kind: string, ownerId: string): Map<string, number> | string {
  if (typeof j !== 'object' || j === null || Array.isArray(j)) return 'damaged: not a cache object';
  const o = j as { kind?: unknown; version?: unknown; scorerId?: unknown; sha?: unknown; scores?: unknown };
  if (o.kind !== kind) return `damaged: not a ${kind} file`;
  const newer = newerFormat(o, VERSION, 'version');
  if (newer !== null) return `newer: ${newer}`;
  if (o.version === 1) return 'older';
  if (o.version !== VERSION) return 'damaged: unknown version';
  if (o.scorerId !== ownerId) return 'damaged: made for another model';
  if (typeof o.scores !== 'object' || o.scores === null || Array.isArray(o.scores)) return 'damaged: no "scores" object';
  const pairs = new Map<string, number>();
  for (const [k, v] of Object.entries(o.scores as Record<string, unknown>)) {
    if (typeof v !== 'number' || !Number.isFinite(v)) return 'damaged: a value that is not a finite number';
    pairs.set(k, v);
  }
  if (o.sha !== numberMapChecksum(kind, ownerId, pairs)) return 'edited: its values do not match its checksum — changed after Spanproof wrote it';
  return pairs;
}

/** Pairs kept per scorer file (~150 bytes each on disk). */
export const RERANK_CACHE_MAX = 100_000;

/**
 * A persisted string → finite number map in one JSON file (`{kind, version: 2, scorerId, sha, scores}`),
 * newest entries last, at most `max` kept. Counts hits and misses of `get`. Base of the rerank score
 * and context token caches. A damaged or edited file is not used (see the file comment); `notice` says so.
 */
export class PersistentNumberMap {
  private scores = new Map<string, number>();
  /** Entries set since the file was read or {@link takeFresh} last ran (another thread's share of a run, merged into the writer's map). */
  private fresh = new Map<string, number>();
  private dirty = false;
  /** A newer-format file: not used, never overwritten. */
  private readonly keep: boolean = false;
  hits = 0;
  misses = 0;
  /** One line when the file could not be used (damaged or edited: recomputed; newer format: left alone), else null. */
  notice: string | null = null;

  /** @param label what the file is, for the notice ("rerank-score cache"). */
  protected constructor(readonly file: string, readonly scorerId: string, private readonly kind: string, private readonly max: number, label: string) {
    let text: string;
    try {
      text = readRegularTextSync(file, MAX_DATA_FILE_BYTES);
    } catch {
      return; // absent or unreadable: start empty
    }
    let got: Map<string, number> | string;
    try {
      got = readPairs(JSON.parse(text), kind, scorerId);
    } catch {
      got = 'damaged: not valid JSON — truncated or garbled';
    }
    if (got instanceof Map) this.scores = got;
    else if (got.startsWith('newer: ')) {
      this.keep = true;
      this.notice = `the ${label} ${file} was written by a newer Spanproof (format ${got.slice(7)}); not used and left as it is — update Spanproof to use it.`;
    } else if (got !== 'older') {
      this.notice = `the ${label} ${file} was ${got.replace(/^(damaged|edited): /, '$1 (')}); it is rebuilt.`;
      this.dirty = true; // rewritten whole even when nothing new is scored
    }
  }

  /** The notice (see {@link notice}) once: a resident worker reuses the map, and says it only in the run that read the file. */
  takeNotice(): string | null {
    const n = this.notice;
    this.notice = null;
    return n;
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
      this.fresh.set(key, v);
      this.dirty = true;
    }
  }

  /**
   * The entries {@link set} changed since the last call (or since the file was read), in the order they
   * were set, and forgets them: a chunker worker thread sends these to the thread that writes the file
   * (src/core/grid/parallel.ts), so one file has one writer.
   */
  takeFresh(): Array<[string, number]> {
    const out = [...this.fresh];
    this.fresh.clear();
    return out;
  }

  /** Writes the file atomically if anything changed. Returns false when the write failed (read-only disk). */
  flush(): boolean {
    if (!this.dirty || this.keep) return true;
    try {
      makeDirs(join(this.file, '..'));
      const excess = this.scores.size - this.max;
      if (excess > 0) {
        let i = 0;
        for (const k of this.scores.keys()) {
          if (i++ >= excess) break;
          this.scores.delete(k);
        }
      }
      const scores = Object.fromEntries(this.scores);
      const sha = numberMapChecksum(this.kind, this.scorerId, Object.entries(scores));
      writeFileAtomic(this.file, JSON.stringify({ kind: this.kind, version: VERSION, scorerId: this.scorerId, sha, scores }), { durable: false });
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
    return new PersistentRerankCache(join(dir, 'rerank', `${slugOf(scorerId)}.json`), scorerId, KIND, RERANK_CACHE_MAX, 'rerank-score cache');
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
    return new TokenCountCache(join(dir, 'tokens', `${slugOf(embedderId)}.json`), embedderId, 'spanproof-token-counts', TOKEN_COUNT_CACHE_MAX, 'token-count cache');
  }
}
