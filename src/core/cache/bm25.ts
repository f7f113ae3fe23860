/**
 * BM25 index cache: `<dir>/bm25/<key>.json`, the JSON of `Bm25Index.toJSON()`, keyed by the
 * SHA-256 of the index format and every chunk text (so any change of chunker, params or document
 * gives a new key and a stale index can never be read). Format 3 is MiniSearch's JSON (`MiniSearch.toJSON`,
 * read back with `MiniSearch.loadJS`); files of format 2 (the own postings of d6088d6) get other keys,
 * so they are never read and are pruned as the newest entries replace them. Measured on the FastAPI docs: reading an
 * index back takes ~0.06–0.13 s against ~0.17–0.37 s to build it in a fresh process (tokenisation
 * included) — see docs/retrieval.md. Atomic writes; only the newest {@link BM25_CACHE_KEEP} entries are kept.
 *
 * File layout (cache format 4, issue #16): one header line `{"kind":"spanproof-bm25-cache","version":4,"sha":H}`
 * then the index JSON (`Bm25Index.toJSONText`, which has no raw newline); `H` is the hex SHA-256 of
 * that JSON text as written. A file whose index was edited by hand (still valid JSON, other term
 * frequencies — it used to change the rankings silently), cut short or garbled is not used: the index
 * is rebuilt and rewritten, with a one-line notice ({@link Bm25CacheResult.notice}). A file of a newer
 * cache format is not used and never overwritten. Files of format 3 (no checksum) have other keys.
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync, unlinkSync } from 'node:fs';
import { MAX_DATA_FILE_BYTES, readRegularTextSync } from '../files/read';
import { dirname, join } from 'node:path';
import type { Chunk } from '../types';
import { Bm25Index, BM25_PARAMS, type Bm25BuildOptions } from '../retrieval/bm25';
import { newerFormat, writeFileAtomic } from '../files';
import { makeDirs } from '../files/dirs';

/** Entries kept in `<dir>/bm25` (one per chunker configuration in use, plus some history). */
export const BM25_CACHE_KEEP = 12;

const HEADER_KIND = 'spanproof-bm25-cache';
const CACHE_VERSION = 4;

/** What {@link loadOrBuildBm25} returns: the index, whether it came from the cache, and a notice when a cache file could not be used. */
export interface Bm25CacheResult {
  index: Bm25Index;
  hit: boolean;
  /** One line: the cache file was damaged or edited (rebuilt) or of a newer format (left alone). */
  notice?: string;
}

/** The cache key of a BM25 index over `chunks`: hex SHA-256 of the format tag and the chunk texts. */
export function bm25CacheKey(chunks: readonly Chunk[]): string {
  const h = createHash('sha256').update(`spanproof-bm25/${CACHE_VERSION}/minisearch/${JSON.stringify(BM25_PARAMS)}\0`);
  for (const c of chunks) h.update(c.text, 'utf8').update('\0');
  return h.digest('hex');
}

/**
 * The BM25 index over `chunks`: read from `<cacheDir>/bm25/` when a valid entry exists, else built
 * and stored. `hit` says which. Never throws for cache trouble (unreadable, damaged, read-only disk).
 */
export function loadOrBuildBm25(chunks: readonly Chunk[], cacheDir: string): Bm25CacheResult {
  const file = bm25File(chunks, cacheDir);
  const cached = readCached(file, chunks.length);
  if (cached instanceof Bm25Index) return { index: cached, hit: true };
  const index = Bm25Index.build(chunks);
  return finish(file, index, cached);
}

/**
 * As {@link loadOrBuildBm25}, but a build goes through {@link Bm25Index.buildAsync} (yielding through
 * `opts.onYield`, which may throw to cancel; that error propagates and nothing is stored).
 */
export async function loadOrBuildBm25Async(chunks: readonly Chunk[], cacheDir: string, opts: Bm25BuildOptions = {}): Promise<Bm25CacheResult> {
  const file = bm25File(chunks, cacheDir);
  const cached = readCached(file, chunks.length);
  if (cached instanceof Bm25Index) return { index: cached, hit: true };
  const index = await Bm25Index.buildAsync(chunks, opts);
  return finish(file, index, cached);
}

/** Stores a freshly built index (unless the file is of a newer format) and says why the file was not used. */
function finish(file: string, index: Bm25Index, why: Unusable): Bm25CacheResult {
  if (why?.startsWith('newer: ')) {
    return { index, hit: false, notice: `the BM25 index cache ${file} was written by a newer Spanproof (format ${why.slice(7)}); not used and left as it is — update Spanproof to use it.` };
  }
  store(file, index);
  return why ? { index, hit: false, notice: `the BM25 index cache ${file} was ${why.replace(/^(damaged|edited): /, '$1 (')}); it is rebuilt.` } : { index, hit: false };
}

function bm25File(chunks: readonly Chunk[], cacheDir: string): string {
  return join(cacheDir, 'bm25', `${bm25CacheKey(chunks)}.json`);
}

/** Why a cache file was not used: null (absent: a plain miss), 'damaged: …', 'edited: …' or 'newer: N'. */
type Unusable = string | null;

const sha256Text = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

function readCached(file: string, size: number): Bm25Index | Unusable {
  let text: string;
  try {
    text = readRegularTextSync(file, MAX_DATA_FILE_BYTES);
  } catch {
    return null; // absent or unreadable: a miss
  }
  const nl = text.indexOf('\n');
  let header: { kind?: unknown; version?: unknown; sha?: unknown };
  try {
    header = JSON.parse(nl < 0 ? text : text.slice(0, nl)) as typeof header;
  } catch {
    return 'damaged: its header is not valid JSON — truncated or garbled';
  }
  if (typeof header !== 'object' || header === null || header.kind !== HEADER_KIND) return 'damaged: not a BM25 index cache';
  const newer = newerFormat(header, CACHE_VERSION, 'version');
  if (newer !== null) return `newer: ${newer}`;
  if (header.version !== CACHE_VERSION) return 'damaged: unknown version';
  if (nl < 0) return 'damaged: no index after the header — truncated';
  const body = text.slice(nl + 1);
  if (header.sha !== sha256Text(body)) return 'edited: its index does not match its checksum — changed after Spanproof wrote it, or cut short';
  try {
    const index = Bm25Index.fromJSON(JSON.parse(body));
    return index.size === size ? index : 'damaged: it indexes another number of chunks';
  } catch {
    return 'damaged: its index cannot be read';
  }
}

function store(file: string, index: Bm25Index): void {
  try {
    const dir = dirname(file);
    makeDirs(dir);
    const body = index.toJSONText();
    writeFileAtomic(file, `${JSON.stringify({ kind: HEADER_KIND, version: CACHE_VERSION, sha: sha256Text(body) })}\n${body}`, { durable: false });
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
