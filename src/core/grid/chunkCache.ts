/**
 * On-disk cache of chunk boundaries, so a warm run does not re-parse Markdown (heading) or re-embed
 * sentences (semantic). One JSON file per chunker configuration under `<cacheDir>/chunks/`:
 * `{"kind": "spanproof-chunks", "version": 2, "key", "sha", "docs": {<document sha256>: [[start, end], …]}}`.
 * Only offsets are stored; the chunk text is `document.text.slice(start, end)` and the id
 * `<source>#<start>-<end>` (src/core/types Chunk), so an entry is valid exactly for the document
 * content it was made from (keyed by its SHA-256). `sha` is the SHA-256 of the key and every entry
 * ({@link chunkCacheChecksum}): a file whose entries were edited — still valid JSON, still
 * `[start, end]` pairs, but no longer what the chunker produced — no longer matches it, and is never used.
 *
 * A damaged file (truncated, not JSON, entries that are not `[start, end]` integer pairs) or an
 * edited one (its checksum does not match) is ignored and rebuilt by this run, with one notice per
 * file in {@link ChunkCache.notices} (issue #16 item 15: one bad entry used to fail every item of its
 * chunker). A file of the older format 1 (no checksum) is rebuilt without a notice, as an upgrade. A
 * file of a newer format (`version` > 2, written by a newer Spanproof) is not used and never
 * overwritten (the newer build keeps its cache); its notice says to update.
 */
import { createHash } from 'node:crypto';
import { MAX_DATA_FILE_BYTES, readRegularTextSync } from '../files/read';
import { join } from 'node:path';
import type { Chunk, CorpusDocument } from '../types';
import { newerFormat, writeFileAtomic } from '../files';
import { makeDirs } from '../files/dirs';

const KIND = 'spanproof-chunks';
const VERSION = 2;

interface CacheFile { docs: Map<string, Array<[number, number]>>; dirty: boolean; keep?: true }

const isRange = (r: unknown): r is [number, number] => Array.isArray(r) && r.length === 2 && Number.isInteger(r[0]) && Number.isInteger(r[1]) && r[0] >= 0 && r[0] < r[1];

/**
 * The checksum of a chunk cache file: hex SHA-256 over the chunker config key and every document's
 * entry, in document-hash order (`<sha>:<start>-<end>,…` per line) — independent of JSON formatting
 * and key order.
 */
export function chunkCacheChecksum(key: string, docs: ReadonlyMap<string, ReadonlyArray<readonly [number, number]>>): string {
  const h = createHash('sha256').update(`${KIND}/${VERSION}\0${key}\0`);
  for (const sha of [...docs.keys()].sort()) h.update(`${sha}:${docs.get(sha)!.map(([a, b]) => `${a}-${b}`).join(',')}\n`);
  return h.digest('hex');
}

/**
 * The entries of a parsed cache file `j` for `key`, or why the file is unusable ('damaged: …',
 * 'edited: …', 'newer: N', 'older'), or null for another key.
 */
function readEntries(j: unknown, key: string): Map<string, Array<[number, number]>> | string | null {
  if (typeof j !== 'object' || j === null || Array.isArray(j)) return 'damaged: not a cache object';
  const o = j as { kind?: unknown; version?: unknown; key?: unknown; sha?: unknown; docs?: unknown };
  if (o.kind !== KIND) return 'damaged: not a chunk cache';
  const newer = newerFormat(o, VERSION, 'version');
  if (newer !== null) return `newer: ${newer}`;
  if (o.version === 1) return 'older';
  if (o.version !== VERSION) return 'damaged: unknown version';
  if (o.key !== key) return null; // another configuration with the same name prefix: not ours, not damaged
  if (typeof o.docs !== 'object' || o.docs === null || Array.isArray(o.docs)) return 'damaged: no "docs" object';
  const docs = new Map<string, Array<[number, number]>>();
  for (const [sha, r] of Object.entries(o.docs)) {
    if (!Array.isArray(r) || !r.every(isRange)) return `damaged: the entry of document ${sha.slice(0, 12)}… is not a list of [start, end] pairs`;
    docs.set(sha, r);
  }
  if (o.sha !== chunkCacheChecksum(key, docs)) return 'edited: its entries do not match its checksum — changed after Spanproof wrote it';
  return docs;
}

export class ChunkCache {
  private readonly files = new Map<string, CacheFile>();
  hits = 0;
  misses = 0;
  /** One line per cache file this run could not use (damaged: rebuilt; newer format: left alone). */
  readonly notices: string[] = [];

  constructor(readonly dir: string) {}

  private fileOf(key: string): string {
    return join(this.dir, 'chunks', `${createHash('sha256').update(key).digest('hex').slice(0, 24)}.json`);
  }

  private entry(key: string): CacheFile {
    let e = this.files.get(key);
    if (e) return e;
    e = { docs: new Map(), dirty: false };
    const file = this.fileOf(key);
    let text: string | null = null;
    try {
      text = readRegularTextSync(file, MAX_DATA_FILE_BYTES);
    } catch { /* absent or unreadable: built fresh */ }
    if (text !== null) {
      let got: ReturnType<typeof readEntries>;
      try {
        got = readEntries(JSON.parse(text), key);
      } catch {
        got = 'damaged: not valid JSON — truncated or garbled';
      }
      if (got instanceof Map) e.docs = got;
      else if (typeof got === 'string' && got.startsWith('newer: ')) {
        e.keep = true;
        this.notices.push(`the chunk cache ${file} was written by a newer Spanproof (format ${got.slice(7)}); not used and left as it is — update Spanproof to use it.`);
      } else if (typeof got === 'string' && got !== 'older') this.notices.push(`the chunk cache ${file} was ${got.replace(/^(damaged|edited): /, '$1 (')}); it is rebuilt.`);
    }
    this.files.set(key, e);
    return e;
  }

  /** The cached chunks of `doc` under chunker config `key`, or null. */
  getChunks(doc: CorpusDocument, key: string): Chunk[] | null {
    const ranges = this.entry(key).docs.get(doc.sha256);
    if (!ranges || ranges.some(([, e]) => e > doc.text.length)) {
      this.misses++;
      return null;
    }
    this.hits++;
    return ranges.map(([start, end]) => ({ id: `${doc.source}#${start}-${end}`, source: doc.source, start, end, text: doc.text.slice(start, end) }));
  }

  putChunks(doc: CorpusDocument, key: string, chunks: readonly Chunk[]): void {
    const e = this.entry(key);
    e.docs.set(doc.sha256, chunks.map((c) => [c.start, c.end]));
    e.dirty = true;
  }

  /** Writes changed files atomically; returns false when a write failed (read-only disk: the run goes on). */
  flush(): boolean {
    let ok = true;
    for (const [key, e] of this.files) {
      if (!e.dirty || e.keep) continue;
      try {
        makeDirs(join(this.dir, 'chunks'));
        const docs = Object.fromEntries([...e.docs].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
        writeFileAtomic(this.fileOf(key), JSON.stringify({ kind: KIND, version: VERSION, key, sha: chunkCacheChecksum(key, e.docs), docs }), { durable: false });
        e.dirty = false;
      } catch {
        ok = false;
      }
    }
    return ok;
  }
}
