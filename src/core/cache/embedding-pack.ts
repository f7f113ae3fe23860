/**
 * Chunk embeddings of one (chunker config key, embedder) in 16 pack files, by the first hex digit of
 * the document's SHA-256 — issue #13: one file per document made a cold FastAPI grid create ≈ 780
 * files (≈ 0.3–0.5 s of file creation on this disk); packs make it 16 per chunker at most, and a
 * changed document still re-embeds only its own chunks (its pack is rewritten, the other 15 are not).
 *
 * Layout: `<dir>/embeddings/<embedder slug>/<sha256(chunker key) first 16 hex>.<h>.pack`, h = 0–f.
 * File format (little-endian):
 *   bytes 0..7   ASCII magic `SPPACK01`
 *   bytes 8..11  uint32 header length H
 *   12..12+H     UTF-8 JSON header {chunkerKey, embedderId, dim, entries: [{docSha, count, textsSha,
 *                dataSha}, …]}, space-padded so the data starts at a multiple of 4
 *   then         each entry's count × dim float32 (row i = the document's i-th chunk), in entry order
 * `textsSha` / `dataSha` as in ./embeddings.ts: an entry made for other chunk texts (or another dim)
 * is recomputed quietly; a file that is not a pack, names another chunker or embedder, or whose
 * lengths do not add up, and an entry whose floats do not match `dataSha`, get one notice line (the
 * caches' rule, issue #16) and are recomputed. Written atomically without fsync, like the other
 * caches; never throws for cache trouble (the failure is counted in `stats.writeErrors`).
 *
 * A rewritten pack keeps the entries this run used or computed, and the others while they take no
 * more room than those (so a second workspace sharing the cache folder does not evict the first at
 * once, and deleted documents do not pile up). The per-document files of the earlier layout are not
 * read; the folder of a key is removed when its first pack is written.
 */
import { createHash } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_DATA_FILE_BYTES, readRegularFileSync } from '../files/read';
import { writeFileAtomic } from '../files';
import { sha256Hex } from '../corpus/decode';
import { makeDirs } from '../files/dirs';
import { decodeFramed, encodeFramed, slugOf, textsSha } from './framed';

/** What a pack needs of its cache (./embeddings.ts `EmbeddingCache`): its folder, its write-error count and its notices. */
export interface PackHost {
  readonly dir: string;
  readonly stats: { writeErrors: number };
  noteDamaged(file: string, why: string): void;
}

const MAGIC = 'SPPACK01';

interface PackEntry {
  docSha: string;
  count: number;
  textsSha: string;
  dataSha: string;
}

interface PackHeader {
  chunkerKey: string;
  embedderId: string;
  dim: number;
  entries: PackEntry[];
}

/** One document's vectors in a shard: where they are, and whether this run used them. */
interface Held {
  entry: PackEntry;
  data: Float32Array;
  /** dataSha checked (true once verified or computed here). */
  checked: boolean;
  used: boolean;
}

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const isHex64 = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);

/** The chunk embeddings of one (chunker key, embedder, dim), shard files loaded on first use. */
export class EmbeddingPack {
  private readonly shards = new Map<string, Map<string, Held>>();
  private readonly dirty = new Set<string>();
  private readonly base: string;

  constructor(private readonly cache: PackHost, private readonly chunkerKey: string, private readonly embedderId: string, private readonly dim: number) {
    this.base = join(cache.dir, 'embeddings', slugOf(embedderId), sha256Hex(chunkerKey).slice(0, 16));
  }

  /** Path of the shard holding documents whose hash starts with `h` (one hex digit). */
  shardPath(h: string): string {
    return `${this.base}.${h}.pack`;
  }

  /**
   * The vectors (texts.length × dim) of a document's chunk texts, or undefined when absent, made for
   * other texts, or damaged (then one notice). `docSha`: 64 lower-case hex digits.
   */
  get(docSha: string, texts: readonly string[]): Float32Array | undefined {
    const held = this.shard(docSha).get(docSha);
    if (!held || held.entry.count !== texts.length || held.entry.textsSha !== textsSha(texts)) return undefined;
    if (!held.checked) {
      if (sha(new Uint8Array(held.data.buffer, held.data.byteOffset, held.data.byteLength)) !== held.entry.dataSha) {
        this.cache.noteDamaged(this.shardPath(docSha[0]), 'edited (its vectors do not match their checksum — changed after Spanproof wrote them, or never fully written)');
        this.shard(docSha).delete(docSha);
        this.dirty.add(docSha[0]);
        return undefined;
      }
      held.checked = true;
    }
    held.used = true;
    return held.data;
  }

  /** Stores a document's vectors (texts.length × dim); written by {@link flush}. */
  put(docSha: string, texts: readonly string[], vectors: Float32Array): void {
    if (vectors.length !== texts.length * this.dim) throw new TypeError(`${vectors.length} floats for ${texts.length} × ${this.dim}`);
    const data = vectors.slice();
    const entry: PackEntry = { docSha, count: texts.length, textsSha: textsSha(texts), dataSha: sha(new Uint8Array(data.buffer)) };
    this.shard(docSha).set(docSha, { entry, data, checked: true, used: true });
    this.dirty.add(docSha[0]);
  }

  /** Writes the shards that changed. Returns false (and counts) when a write failed. */
  flush(): boolean {
    let ok = true;
    for (const h of [...this.dirty].sort()) {
      const held = this.shards.get(h)!;
      const used = [...held.values()].filter((x) => x.used);
      const usedBytes = used.reduce((a, x) => a + x.data.byteLength, 0);
      let room = usedBytes;
      const kept = [...used];
      for (const x of held.values()) {
        if (x.used || x.data.byteLength > room) continue;
        kept.push(x);
        room -= x.data.byteLength;
      }
      kept.sort((a, b) => (a.entry.docSha < b.entry.docSha ? -1 : 1));
      const header: PackHeader = { chunkerKey: this.chunkerKey, embedderId: this.embedderId, dim: this.dim, entries: kept.map((x) => x.entry) };
      try {
        makeDirs(join(this.base, '..'));
        writeFileAtomic(this.shardPath(h), encodeFramed(MAGIC, header, kept.map((x) => x.data)), { durable: false });
        rmSync(this.base, { recursive: true, force: true }); // the per-document files of the earlier layout
      } catch {
        this.cache.stats.writeErrors++;
        ok = false;
      }
    }
    this.dirty.clear();
    return ok;
  }

  private shard(docSha: string): Map<string, Held> {
    const h = docSha[0];
    let m = this.shards.get(h);
    if (!m) this.shards.set(h, (m = this.load(h)));
    return m;
  }

  private load(h: string): Map<string, Held> {
    const file = this.shardPath(h);
    const out = new Map<string, Held>();
    let buf: Buffer;
    try {
      buf = readRegularFileSync(file, MAX_DATA_FILE_BYTES);
    } catch {
      return out; // absent or unreadable
    }
    const got = decodePack(buf);
    if (typeof got === 'string') {
      this.cache.noteDamaged(file, `damaged (${got})`);
      this.dirty.add(h);
      return out;
    }
    if (got.header.chunkerKey !== this.chunkerKey || got.header.embedderId !== this.embedderId) {
      this.cache.noteDamaged(file, 'damaged (its header names another chunker or embedder)');
      this.dirty.add(h);
      return out;
    }
    if (got.header.dim !== this.dim) return out; // another dim under the same id: stale, recomputed quietly
    got.header.entries.forEach((entry, i) => {
      if (entry.docSha[0] === h) out.set(entry.docSha, { entry, data: got.data[i], checked: false, used: false });
    });
    return out;
  }
}

/** The header and each entry's floats (copies), or why the file is not a usable pack. */
function decodePack(buf: Buffer): { header: PackHeader; data: Float32Array[] } | string {
  const framed = decodeFramed(buf, MAGIC);
  if (framed === null) return 'not an embedding pack';
  if (typeof framed === 'string') return framed;
  const header = framed.header as PackHeader;
  const start = framed.dataStart;
  if (typeof header !== 'object' || header === null || typeof header.chunkerKey !== 'string' || typeof header.embedderId !== 'string'
    || !Number.isInteger(header.dim) || header.dim < 1 || !Array.isArray(header.entries)) return 'its header is not a pack header';
  const data: Float32Array[] = [];
  let at = start;
  for (const e of header.entries as unknown[]) {
    const x = e as PackEntry;
    if (typeof x !== 'object' || x === null || !isHex64(x.docSha) || !Number.isInteger(x.count) || x.count < 0 || !isHex64(x.textsSha) || !isHex64(x.dataSha)) return 'an entry is not {docSha, count, textsSha, dataSha}';
    const bytes = x.count * header.dim * 4;
    if (at + bytes > buf.length) return 'cut short: fewer floats than its entries hold';
    const f = new Float32Array(x.count * header.dim);
    new Uint8Array(f.buffer).set(buf.subarray(at, at + bytes));
    data.push(f);
    at += bytes;
  }
  if (at !== buf.length) return 'padded: more floats than its entries hold';
  return { header, data };
}

/**
 * Rewrites the packs under one embedder folder without the documents not in `live`; returns the
 * number of documents removed. Damaged packs are deleted. Never throws.
 */
export function prunePacks(embedderDir: string, live: ReadonlySet<string>): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(embedderDir).filter((n) => n.endsWith('.pack'));
  } catch {
    return 0;
  }
  for (const n of names) {
    const file = join(embedderDir, n);
    try {
      const got = decodePack(readRegularFileSync(file, MAX_DATA_FILE_BYTES));
      if (typeof got === 'string') {
        rmSync(file, { force: true });
        continue;
      }
      const keep = got.header.entries.map((e, i) => ({ e, d: got.data[i] })).filter((x) => live.has(x.e.docSha));
      const gone = got.header.entries.length - keep.length;
      if (gone === 0) continue;
      writeFileAtomic(file, encodeFramed(MAGIC, { ...got.header, entries: keep.map((x) => x.e) }, keep.map((x) => x.d)), { durable: false });
      removed += gone;
    } catch { /* vanished or read-only */ }
  }
  return removed;
}
