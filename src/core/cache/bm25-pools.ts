/**
 * Candidate-list caches: the top-n lists a retriever gave for each question over one chunk set, so a
 * warm run of the same questions over the same chunks neither reads the index back nor searches it.
 *
 * - BM25 ({@link Bm25PoolCache}, `<dir>/bm25-pools/<key>.json`, key = {@link bm25CacheKey} of the
 *   chunks: the format tag, the BM25 parameters and every chunk text). Issue #13: on the FastAPI grid
 *   the warm run's MiniSearch `loadJS` and 45 searches per chunker were ≈ 1.5 s of its ≈ 4.5 s CPU,
 *   most of the rest garbage collection of their result objects.
 * - Exact dense search ({@link DensePoolCache}, `<dir>/dense-pools/<key>.json`, key =
 *   {@link densePoolKey}: the BM25 key of the same chunks and the embedder id). With every question
 *   remembered a warm run neither reads the chunk embeddings (one cache file per document) nor
 *   searches them (≈ 190 ms of a ≈ 1 s warm FastAPI run). An entry is what the search gave for the
 *   question's embedding when it was computed, as the embedding cache keeps a document's vectors from
 *   the batch that computed them.
 *
 * Another chunker, parameter, embedder or document never reads a file of another. The format:
 *
 *   {"kind": "spanproof-bm25-pools" | "spanproof-dense-pools", "version": 1, "key": K, "sha": H,
 *    "entries": [[query, n, ms, [chunk…], [score…]], …]}
 *
 * An entry is the list the search for (query, n) returned (chunk indexes and scores as JSON writes
 * doubles, so they read back bit for bit) and the ms that search took (reported again as the
 * query's latency; for dense, the query's share of the batch search, without its embedding). It
 * answers a request for `m ≤ n` hits by its first `m` (the list is sorted by the total order of
 * `compareHits`, so that is what a search for `m` returns), and any `m` when it holds fewer than `n`
 * hits (then it holds every candidate there is).
 * `H` is the hex SHA-256 of the kind, version, key and the entries' JSON: a file edited by hand, cut
 * short or garbled is not used (one `notice` line; the lists are recomputed and the file rewritten),
 * one of a newer format is not used and never overwritten. At most {@link BM25_POOLS_MAX} entries per
 * file (oldest dropped) and the newest {@link BM25_CACHE_KEEP} files per folder are kept. Never throws
 * for cache trouble (unreadable, read-only disk).
 *
 * Search code that changes a list for the same chunks and query must change `bm25CacheKey`'s
 * format tag (the BM25 cache version), which retires these files with the index files.
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync, unlinkSync } from 'node:fs';
import { MAX_DATA_FILE_BYTES, readRegularTextSync } from '../files/read';
import { join } from 'node:path';
import type { Hit } from '../retrieval/hit';
import type { CandidateListCache } from '../retrieval/retrieve';
import { newerFormat, writeFileAtomic } from '../files';
import { BM25_CACHE_KEEP } from './bm25';
import { makeDirs } from '../files/dirs';

const VERSION = 1;

/** What tells one list cache from the other: its folder, the `kind` in its files and its name in notices. */
interface ListCacheKind {
  folder: string;
  kind: string;
  label: string;
}
const BM25_LISTS: ListCacheKind = { folder: 'bm25-pools', kind: 'spanproof-bm25-pools', label: 'BM25 list cache' };
const DENSE_LISTS: ListCacheKind = { folder: 'dense-pools', kind: 'spanproof-dense-pools', label: 'dense list cache' };

/**
 * The key of the dense list file of `embedderId`'s exact search over the chunks whose BM25 key is
 * `bm25Key` ({@link bm25CacheKey}, which covers every chunk text): 64 hex digits.
 */
export function densePoolKey(bm25Key: string, embedderId: string): string {
  return createHash('sha256').update(`${DENSE_LISTS.kind}/${VERSION}\0${embedderId}\0${bm25Key}`).digest('hex');
}
/** Questions remembered per index file (a few hundred bytes each). */
export const BM25_POOLS_MAX = 20_000;

interface Entry {
  n: number;
  ms: number;
  hits: Hit[];
}

type Row = [string, number, number, number[], number[]];

const checksum = (kind: string, key: string, entriesJson: string): string => createHash('sha256').update(`${kind}/${VERSION}\0${key}\0${entriesJson}`).digest('hex');

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** The entries of a parsed file, or why it is unusable ('damaged: …', 'edited: …', 'newer: N'). */
function readEntries(j: unknown, key: string, kind: string): Map<string, Entry> | string {
  if (typeof j !== 'object' || j === null || Array.isArray(j)) return 'damaged: not a cache object';
  const o = j as { kind?: unknown; version?: unknown; key?: unknown; sha?: unknown; entries?: unknown };
  if (o.kind !== kind) return `damaged: not a ${kind} file`;
  const newer = newerFormat(o, VERSION, 'version');
  if (newer !== null) return `newer: ${newer}`;
  if (o.version !== VERSION) return 'damaged: unknown version';
  if (o.key !== key) return 'damaged: made for another index';
  if (!Array.isArray(o.entries)) return 'damaged: no "entries" list';
  if (o.sha !== checksum(kind, key, JSON.stringify(o.entries))) return 'edited: its lists do not match its checksum — changed after Spanproof wrote it';
  const out = new Map<string, Entry>();
  for (const r of o.entries as unknown[]) {
    if (!Array.isArray(r) || r.length !== 5) return 'damaged: an entry is not [query, n, ms, chunks, scores]';
    const [q, n, ms, chunks, scores] = r as unknown[];
    if (typeof q !== 'string' || !isCount(n) || typeof ms !== 'number' || !Array.isArray(chunks) || !Array.isArray(scores) || chunks.length !== scores.length || chunks.length > n) {
      return 'damaged: an entry is not [query, n, ms, chunks, scores]';
    }
    if (!chunks.every(isCount) || !scores.every((s) => typeof s === 'number')) return 'damaged: a chunk index or score is not a number';
    out.set(q, { n, ms, hits: (chunks as number[]).map((chunk, i) => ({ chunk, score: (scores as number[])[i] })) });
  }
  return out;
}

/** The remembered lists of one retriever over one chunk set (see the file comment). */
class PoolListCache implements CandidateListCache {
  private entries = new Map<string, Entry>();
  private dirty = false;
  readonly file: string;
  /** A newer-format file: not used, never overwritten. */
  private readonly keep: boolean = false;
  /** One line when the file could not be used (damaged or edited: recomputed; newer: left alone), else null. */
  readonly notice: string | null = null;

  protected constructor(private readonly of: ListCacheKind, dir: string, private readonly key: string, private readonly chunkCount: number) {
    this.file = join(dir, of.folder, `${key}.json`);
    const file = this.file;
    let text: string;
    try {
      text = readRegularTextSync(file, MAX_DATA_FILE_BYTES);
    } catch {
      return; // absent or unreadable: start empty
    }
    let got: Map<string, Entry> | string;
    try {
      got = readEntries(JSON.parse(text), key, of.kind);
    } catch {
      got = 'damaged: not valid JSON — truncated or garbled';
    }
    if (typeof got !== 'string' && [...got.values()].some((e) => e.hits.some((h) => h.chunk >= chunkCount))) got = 'damaged: a chunk index beyond the index';
    if (typeof got !== 'string') this.entries = got;
    else if (got.startsWith('newer: ')) {
      this.keep = true;
      this.notice = `the ${of.label} ${file} was written by a newer Spanproof (format ${got.slice(7)}); not used and left as it is — update Spanproof to use it.`;
    } else {
      this.notice = `the ${of.label} ${file} was ${got.replace(/^(damaged|edited): /, '$1 (')}); it is rebuilt.`;
      this.dirty = true;
    }
  }

  /** Whether {@link get} answers `query` for `n` hits. */
  has(query: string, n: number): boolean {
    const e = this.entries.get(query);
    return e !== undefined && (n <= e.n || e.hits.length < e.n);
  }

  /** The top-`n` list of `query` (best first) and the ms its search took, when remembered. */
  get(query: string, n: number): { hits: Hit[]; ms: number } | undefined {
    if (!this.has(query, n)) return undefined;
    const e = this.entries.get(query)!;
    return { hits: e.hits.slice(0, n), ms: e.ms };
  }

  /** Remembers the list a search for `n` hits of `query` returned, and its time (ms). */
  set(query: string, n: number, hits: readonly Hit[], ms: number): void {
    if (this.keep || !Number.isFinite(ms) || hits.some((h) => !Number.isFinite(h.score))) return;
    const had = this.entries.get(query);
    if (had && had.n >= n) return;
    this.entries.delete(query); // newest last
    this.entries.set(query, { n, ms, hits: hits.map((h) => ({ chunk: h.chunk, score: h.score })) });
    this.dirty = true;
  }

  /** Writes the file atomically if anything changed and prunes old files. Returns false when the write failed. */
  flush(): boolean {
    if (!this.dirty || this.keep) return true;
    try {
      const dir = join(this.file, '..');
      makeDirs(dir);
      const excess = this.entries.size - BM25_POOLS_MAX;
      if (excess > 0) for (const q of [...this.entries.keys()].slice(0, excess)) this.entries.delete(q);
      const rows: Row[] = [...this.entries].map(([q, e]) => [q, e.n, e.ms, e.hits.map((h) => h.chunk), e.hits.map((h) => h.score)]);
      const entriesJson = JSON.stringify(rows);
      const text = `{"kind":${JSON.stringify(this.of.kind)},"version":${VERSION},"key":${JSON.stringify(this.key)},"sha":${JSON.stringify(checksum(this.of.kind, this.key, entriesJson))},"entries":${entriesJson}}`;
      writeFileAtomic(this.file, text, { durable: false });
      this.dirty = false;
      pruneFiles(dir);
      return true;
    } catch {
      return false;
    }
  }
}

/** The remembered BM25 lists of one index. */
export class Bm25PoolCache extends PoolListCache {
  /**
   * Opens (or starts) the list file of the index with cache key `key` (see {@link bm25CacheKey})
   * over `chunkCount` chunks, under `<dir>/bm25-pools/`. Never throws.
   */
  static open(dir: string, key: string, chunkCount: number): Bm25PoolCache {
    return new Bm25PoolCache(BM25_LISTS, dir, key, chunkCount);
  }
}

/** The remembered exact-dense lists of one embedder over one chunk set. */
export class DensePoolCache extends PoolListCache {
  /**
   * Opens (or starts) the list file with key `key` ({@link densePoolKey}) over `chunkCount` chunks,
   * under `<dir>/dense-pools/`. Never throws.
   */
  static open(dir: string, key: string, chunkCount: number): DensePoolCache {
    return new DensePoolCache(DENSE_LISTS, dir, key, chunkCount);
  }
}

function pruneFiles(dir: string): void {
  const files = readdirSync(dir).filter((n) => n.endsWith('.json')).map((n) => ({ p: join(dir, n), t: statSync(join(dir, n)).mtimeMs })).sort((a, b) => b.t - a.t);
  for (const f of files.slice(BM25_CACHE_KEEP)) unlinkSync(f.p);
}
