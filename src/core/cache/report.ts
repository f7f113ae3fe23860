/**
 * Size report and clearing of the cache directory.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Bytes and files per top-level kind (`embeddings`, `rerank`, `bm25`, anything else under its own name). */
export interface CacheSizeReport {
  dir: string;
  files: number;
  bytes: number;
  kinds: Record<string, { files: number; bytes: number }>;
}

function walk(dir: string, visit: (file: string, bytes: number) => void): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    const p = join(dir, n);
    let st;
    try {
      st = statSync(p);
    } catch {
      continue;
    }
    if (st.isDirectory()) walk(p, visit);
    else visit(p, st.size);
  }
}

/** Counts the files and bytes under `dir` (0 when it does not exist). */
export function cacheSizeReport(dir: string): CacheSizeReport {
  const r: CacheSizeReport = { dir, files: 0, bytes: 0, kinds: {} };
  let tops: string[] = [];
  try {
    tops = readdirSync(dir);
  } catch { /* absent */ }
  for (const top of tops) {
    const k = (r.kinds[top] ??= { files: 0, bytes: 0 });
    walk(join(dir, top), (_f, b) => {
      k.files++;
      k.bytes += b;
    });
    try {
      if (!statSync(join(dir, top)).isDirectory()) {
        k.files = 1;
        k.bytes = statSync(join(dir, top)).size;
      }
    } catch { /* vanished */ }
    r.files += k.files;
    r.bytes += k.bytes;
  }
  return r;
}

/** The folders the caches write under the cache dir (embedding matrices, pair scores, BM25 indexes, BM25 and dense lists, chunks, token counts). */
const CACHE_FOLDERS = ['embeddings', 'rerank', 'bm25', 'bm25-pools', 'dense-pools', 'chunks', 'tokens'];

/** Deletes the cache's own folders ({@link CACHE_FOLDERS}) under `dir`; nothing else. */
export function clearCache(dir: string): void {
  for (const k of CACHE_FOLDERS) rmSync(join(dir, k), { recursive: true, force: true });
}
