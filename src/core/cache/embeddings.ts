/**
 * Content-addressed embedding cache (issue 3). Chunk embeddings are kept per (document SHA-256,
 * chunker config key, embedder id) in the packs of ./embedding-pack.ts (through
 * {@link embedChunksCached}), so editing one document re-embeds only that document's chunks. This
 * class holds the cache folder, its counters and notices, and one-file entries: a run's question
 * vectors, one entry per list of question texts ({@link QUESTION_SET_KEY}).
 *
 * Entry layout: `<dir>/embeddings/<embedder slug>/<sha256(key) first 16 hex>/<document sha256>.f32`.
 * File format (little-endian, ./framed.ts):
 *   bytes 0..7   ASCII magic `SPEMB002`
 *   bytes 8..11  uint32 header length H
 *   12..12+H     UTF-8 JSON header {docSha, chunkerKey, embedderId, count, dim, textsSha, dataSha,
 *                computeMs?}, space-padded so the data starts at a multiple of 4
 *   then         count × dim float32, row-major (row i = the i-th text)
 * `textsSha` is the SHA-256 over the texts (each followed by U+0000), so a stale or foreign file
 * can never be returned; `dataSha` is the SHA-256 of the float bytes, so a file whose header reached
 * the disk but whose data did not (files are written atomically but not fsynced: temp + rename, see
 * `durable: false` in src/core/files) is detected. A missing, truncated, corrupt or mismatching file
 * is ignored and recomputed (and overwritten); a damaged or edited one (bad magic or header, wrong
 * length, data not matching `dataSha`) also gets one line in {@link EmbeddingCache.notices}, as the
 * other caches do (issue #16), while a stale one (other texts) is recomputed quietly. Write failures
 * (read-only disk) are counted, never thrown: the cache is an optimisation. (SPEMB001 files, without
 * `dataSha`, are recomputed.)
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync, unlinkSync } from 'node:fs';
import { MAX_DATA_FILE_BYTES, readRegularFileSync } from '../files/read';
import { join } from 'node:path';
import { writeFileAtomic } from '../files';
import { sha256Hex } from '../corpus/decode';
import { makeDirs } from '../files/dirs';
import { prunePacks } from './embedding-pack';
import { decodeFramed, encodeFramed, slugOf, textsSha } from './framed';

export { slugOf, textsSha };

const MAGIC = 'SPEMB002';

/**
 * The "chunker key" under which a run's question vectors are stored: one entry per ordered list of
 * question texts (its `docSha` is {@link textsSha} of the list), so the same questions read back the
 * vectors one embedding call gave for exactly that list. The newest {@link QUESTION_SETS_KEPT} lists are kept.
 */
export const QUESTION_SET_KEY = 'spanproof-question-set/1';
export const QUESTION_SETS_KEPT = 16;

/** Header of an embedding cache file. */
interface EmbeddingHeader {
  docSha: string;
  chunkerKey: string;
  embedderId: string;
  count: number;
  dim: number;
  textsSha: string;
  /** SHA-256 (hex) of the count × dim float32 bytes. */
  dataSha: string;
  /** ms the vectors took to compute, when the writer gave it (the question vectors of a run: their embedding latency, reported again on a hit). */
  computeMs?: number;
}

/** Counters of one cache instance: entries (documents) read, computed, and writes that failed. */
export interface EmbeddingCacheStats {
  hits: number;
  misses: number;
  /** Texts passed to compute functions. */
  computedTexts: number;
  writeErrors: number;
}

/** The per-(document, chunker, embedder) embedding store under `<dir>/embeddings`. */
export class EmbeddingCache {
  readonly stats: EmbeddingCacheStats = { hits: 0, misses: 0, computedTexts: 0, writeErrors: 0 };
  /** One line per entry file that was damaged or edited (not used, recomputed and rewritten). */
  readonly notices: string[] = [];
  private readonly noticed = new Set<string>();

  /** @param dir the cache root, e.g. `<workspace>/.spanproof/cache` (see `resolveCacheDir`). */
  constructor(readonly dir: string) {}

  /** Records one notice line for a damaged or edited file (once per file). */
  noteDamaged(file: string, why: string): void {
    if (this.noticed.has(file)) return;
    this.noticed.add(file);
    this.notices.push(`the embedding cache ${file} was ${why}; it is rebuilt.`);
  }

  /** Path of the entry for (docSha, chunkerKey, embedderId). */
  entryPath(docSha: string, chunkerKey: string, embedderId: string): string {
    if (!/^[0-9a-f]{64}$/.test(docSha)) throw new TypeError(`docSha must be 64 lower-case hex digits, got "${docSha}"`);
    return join(this.dir, 'embeddings', slugOf(embedderId), sha256Hex(chunkerKey).slice(0, 16), `${docSha}.f32`);
  }

  /**
   * The cached count × dim vectors of a document's chunk texts, or undefined when absent, damaged, or
   * made for other texts / another dim. Does not touch the stats.
   */
  read(docSha: string, chunkerKey: string, embedderId: string, texts: readonly string[], dim: number): Float32Array | undefined {
    return this.readTimed(docSha, chunkerKey, embedderId, texts, dim)?.vectors;
  }

  /** {@link read} with the `computeMs` the writer recorded (NaN when it gave none). */
  readTimed(docSha: string, chunkerKey: string, embedderId: string, texts: readonly string[], dim: number): { vectors: Float32Array; computeMs: number } | undefined {
    const file = this.entryPath(docSha, chunkerKey, embedderId);
    let buf: Buffer;
    try {
      buf = readRegularFileSync(file, MAX_DATA_FILE_BYTES);
    } catch {
      return undefined;
    }
    const damaged = (why: string): undefined => {
      this.noteDamaged(file, why);
      return undefined;
    };
    if (buf.length >= 8 && buf.toString('latin1', 0, 8) === 'SPEMB001') return undefined; // the older format: recomputed, an upgrade
    const framed = decodeFramed(buf, MAGIC);
    if (framed === null) return damaged('damaged (not an embedding cache file)');
    if (typeof framed === 'string') return damaged(`damaged (${framed})`);
    const header = framed.header as EmbeddingHeader;
    const dataStart = framed.dataStart;
    if (typeof header !== 'object' || header === null || header.docSha !== docSha || header.chunkerKey !== chunkerKey || header.embedderId !== embedderId) {
      return damaged('damaged (its header names another document, chunker or embedder)');
    }
    // other texts or another dim under the same key: stale (the chunker's output changed), recomputed quietly
    if (header.count !== texts.length || header.dim !== dim || header.textsSha !== textsSha(texts)) return undefined;
    if (buf.length - dataStart !== texts.length * dim * 4) return damaged('damaged (cut short or padded: not count × dim floats)');
    if (header.dataSha !== createHash('sha256').update(buf.subarray(dataStart)).digest('hex')) {
      return damaged('edited (its vectors do not match their checksum — changed after Spanproof wrote them, or never fully written)');
    }
    const out = new Float32Array(texts.length * dim);
    new Uint8Array(out.buffer).set(buf.subarray(dataStart));
    return { vectors: out, computeMs: typeof header.computeMs === 'number' && Number.isFinite(header.computeMs) ? header.computeMs : NaN };
  }

  /**
   * Stores vectors (texts.length × dim) for a document atomically; returns false (and counts) on failure.
   * `computeMs`, when given, is recorded for {@link readTimed}.
   */
  write(docSha: string, chunkerKey: string, embedderId: string, texts: readonly string[], dim: number, vectors: Float32Array, computeMs?: number): boolean {
    const file = this.entryPath(docSha, chunkerKey, embedderId);
    const data = Buffer.from(vectors.buffer, vectors.byteOffset, vectors.byteLength);
    const dataSha = createHash('sha256').update(data).digest('hex');
    const header: EmbeddingHeader = { docSha, chunkerKey, embedderId, count: texts.length, dim, textsSha: textsSha(texts), dataSha };
    if (computeMs !== undefined && Number.isFinite(computeMs)) header.computeMs = computeMs;
    try {
      makeDirs(join(file, '..'));
      writeFileAtomic(file, encodeFramed(MAGIC, header, [vectors]), { durable: false });
      return true;
    } catch {
      this.stats.writeErrors++;
      return false;
    }
  }

  /**
   * The vectors of one document's chunk texts: from the cache when a valid entry exists, else
   * `compute(texts)` (which must return texts.length × dim floats), stored, and returned.
   */
  async getOrCompute(docSha: string, chunkerKey: string, embedderId: string, texts: readonly string[], dim: number,
    compute: (texts: readonly string[]) => Promise<Float32Array>): Promise<Float32Array> {
    const hit = this.read(docSha, chunkerKey, embedderId, texts, dim);
    if (hit) {
      this.stats.hits++;
      return hit;
    }
    this.stats.misses++;
    this.stats.computedTexts += texts.length;
    const v = await compute(texts);
    if (v.length !== texts.length * dim) throw new TypeError(`embedding compute returned ${v.length} floats for ${texts.length} × ${dim}`);
    this.write(docSha, chunkerKey, embedderId, texts, dim, v);
    return v;
  }

  /**
   * Keeps the `keep` newest entries (by modification time) of (chunkerKey, embedderId) and deletes
   * the others, e.g. the question sets of {@link QUESTION_SET_KEY}. Returns the number removed; never throws.
   */
  keepNewest(chunkerKey: string, embedderId: string, keep: number): number {
    const dir = join(this.entryPath('0'.repeat(64), chunkerKey, embedderId), '..');
    let removed = 0;
    try {
      const files = readdirSync(dir).filter((f) => f.endsWith('.f32')).map((f) => ({ p: join(dir, f), t: statSync(join(dir, f)).mtimeMs })).sort((a, b) => b.t - a.t);
      for (const f of files.slice(keep)) {
        unlinkSync(f.p);
        removed++;
      }
    } catch { /* absent, vanished or read-only */ }
    return removed;
  }

  /**
   * Deletes every entry (any chunker, any embedder; entry files and the documents of packs) whose
   * document hash is not in `liveDocShas`, e.g. the hashes of the current corpus after a run.
   * Returns the number of entries removed.
   */
  prune(liveDocShas: ReadonlySet<string>): number {
    let removed = 0;
    const root = join(this.dir, 'embeddings');
    const list = (d: string) => { try { return readdirSync(d); } catch { return []; } };
    for (const emb of list(root)) {
      removed += prunePacks(join(root, emb), liveDocShas);
      for (const key of list(join(root, emb))) {
        if (key.endsWith('.pack')) continue;
        for (const f of list(join(root, emb, key))) {
          const m = /^([0-9a-f]{64})\.f32$/.exec(f);
          if (m && liveDocShas.has(m[1])) continue;
          try {
            unlinkSync(join(root, emb, key, f));
            removed++;
          } catch { /* vanished or read-only */ }
        }
      }
    }
    return removed;
  }
}
