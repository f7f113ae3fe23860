/**
 * On-disk cache of chunk boundaries, so a warm run does not re-parse Markdown (heading) or re-embed
 * sentences (semantic). One JSON file per chunker configuration under `<cacheDir>/chunks/`:
 * `{"kind": "spanproof-chunks", "version": 1, "key", "docs": {<document sha256>: [[start, end], …]}}`.
 * Only offsets are stored; the chunk text is `document.text.slice(start, end)` and the id
 * `<source>#<start>-<end>` (src/core/types Chunk), so an entry is valid exactly for the document
 * content it was made from (keyed by its SHA-256). A damaged file is ignored (starts empty).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Chunk, CorpusDocument } from '../types';
import { writeFileAtomic } from '../files';

const KIND = 'spanproof-chunks';

export class ChunkCache {
  private readonly files = new Map<string, { docs: Map<string, Array<[number, number]>>; dirty: boolean }>();
  hits = 0;
  misses = 0;

  constructor(readonly dir: string) {}

  private fileOf(key: string): string {
    return join(this.dir, 'chunks', `${createHash('sha256').update(key).digest('hex').slice(0, 24)}.json`);
  }

  private entry(key: string) {
    let e = this.files.get(key);
    if (e) return e;
    e = { docs: new Map(), dirty: false };
    try {
      const j = JSON.parse(readFileSync(this.fileOf(key), 'utf8')) as { kind?: string; version?: number; key?: string; docs?: Record<string, Array<[number, number]>> };
      if (j.kind === KIND && j.version === 1 && j.key === key && j.docs) for (const [sha, r] of Object.entries(j.docs)) e.docs.set(sha, r);
    } catch { /* absent or damaged */ }
    this.files.set(key, e);
    return e;
  }

  /** The cached chunks of `doc` under chunker config `key`, or null. */
  getChunks(doc: CorpusDocument, key: string): Chunk[] | null {
    const ranges = this.entry(key).docs.get(doc.sha256);
    if (!ranges || ranges.some(([s, e]) => !(Number.isInteger(s) && Number.isInteger(e) && 0 <= s && s < e && e <= doc.text.length))) {
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
      if (!e.dirty) continue;
      try {
        mkdirSync(join(this.dir, 'chunks'), { recursive: true });
        const docs = Object.fromEntries([...e.docs].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
        writeFileAtomic(this.fileOf(key), JSON.stringify({ kind: KIND, version: 1, key, docs }), { durable: false });
        e.dirty = false;
      } catch {
        ok = false;
      }
    }
    return ok;
  }
}
