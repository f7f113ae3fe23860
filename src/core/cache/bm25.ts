/**
 * BM25 index cache: `<dir>/bm25/<key>.json`, the JSON of `Bm25Index.toJSON()`, keyed by the
 * SHA-256 of the index format and every chunk text (so any change of chunker, params or document
 * gives a new key and a stale index can never be read). Format 3 is MiniSearch's JSON (`MiniSearch.toJSON`,
 * read back with `MiniSearch.loadJS`); files of format 2 (the own postings of d6088d6) get other keys,
 * so they are never read and are pruned as the newest entries replace them. Measured on the FastAPI docs: reading an
 * index back takes ~0.06–0.13 s against ~0.17–0.37 s to build it in a fresh process (tokenisation
 * included) — see docs/retrieval.md. Atomic writes; damaged files are ignored and rebuilt; only the
 * newest {@link BM25_CACHE_KEEP} entries are kept.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Chunk } from '../types';
import { Bm25Index, BM25_PARAMS, type Bm25BuildOptions } from '../retrieval/bm25';
import { writeFileAtomic } from '../files';

/** Entries kept in `<dir>/bm25` (one per chunker configuration in use, plus some history). */
export const BM25_CACHE_KEEP = 12;

/** The cache key of a BM25 index over `chunks`: hex SHA-256 of the format tag and the chunk texts. */
export function bm25CacheKey(chunks: readonly Chunk[]): string {
  const h = createHash('sha256').update(`spanproof-bm25/3/minisearch/${JSON.stringify(BM25_PARAMS)}\0`);
  for (const c of chunks) h.update(c.text, 'utf8').update('\0');
  return h.digest('hex');
}

/**
 * The BM25 index over `chunks`: read from `<cacheDir>/bm25/` when a valid entry exists, else built
 * and stored. `hit` says which. Never throws for cache trouble (unreadable, damaged, read-only disk).
 */
export function loadOrBuildBm25(chunks: readonly Chunk[], cacheDir: string): { index: Bm25Index; hit: boolean } {
  const file = bm25File(chunks, cacheDir);
  const cached = readCached(file, chunks.length);
  if (cached) return { index: cached, hit: true };
  const index = Bm25Index.build(chunks);
  store(file, index);
  return { index, hit: false };
}

/**
 * As {@link loadOrBuildBm25}, but a build goes through {@link Bm25Index.buildAsync} (yielding through
 * `opts.onYield`, which may throw to cancel; that error propagates and nothing is stored).
 */
export async function loadOrBuildBm25Async(chunks: readonly Chunk[], cacheDir: string, opts: Bm25BuildOptions = {}): Promise<{ index: Bm25Index; hit: boolean }> {
  const file = bm25File(chunks, cacheDir);
  const cached = readCached(file, chunks.length);
  if (cached) return { index: cached, hit: true };
  const index = await Bm25Index.buildAsync(chunks, opts);
  store(file, index);
  return { index, hit: false };
}

function bm25File(chunks: readonly Chunk[], cacheDir: string): string {
  return join(cacheDir, 'bm25', `${bm25CacheKey(chunks)}.json`);
}

function readCached(file: string, size: number): Bm25Index | null {
  try {
    const index = Bm25Index.fromJSON(JSON.parse(readFileSync(file, 'utf8')));
    if (index.size === size) return index;
  } catch { /* absent or damaged: rebuild */ }
  return null;
}

function store(file: string, index: Bm25Index): void {
  try {
    const dir = dirname(file);
    mkdirSync(dir, { recursive: true });
    writeFileAtomic(file, index.toJSONText(), { durable: false });
    prune(dir);
  } catch { /* read-only cache: fine */ }
}

function prune(dir: string): void {
  const entries = readdirSync(dir).filter((n) => n.endsWith('.json')).map((n) => {
    const p = join(dir, n);
    return { p, t: statSync(p).mtimeMs };
  }).sort((a, b) => b.t - a.t);
  for (const e of entries.slice(BM25_CACHE_KEEP)) unlinkSync(e.p);
}
