// Test inputs shared by the retrieval tests: chunk construction and a seeded PRNG.
import type { Chunk } from '../../../src/core/types';

/** Chunks of one or more sources, in the order given (tests pass them in (source, start) order). */
export function chunksOf(items: ReadonlyArray<string | { source: string; text: string }>): Chunk[] {
  const pos = new Map<string, number>();
  return items.map((it) => {
    const { source, text } = typeof it === 'string' ? { source: 'doc.md', text: it } : it;
    const start = pos.get(source) ?? 0;
    pos.set(source, start + text.length + 2);
    return { id: `${source}#${start}-${start + text.length}`, source, start, end: start + text.length, text };
  });
}

/** mulberry32 (Tommy Ettinger, public domain): a tiny seeded PRNG returning floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** rows × dim matrix of random unit vectors (Float32). */
export function randomUnitRows(rnd: () => number, rows: number, dim: number): Float32Array {
  const m = new Float32Array(rows * dim);
  for (let r = 0; r < rows; r++) {
    let s = 0;
    for (let j = 0; j < dim; j++) {
      const v = rnd() * 2 - 1;
      m[r * dim + j] = v;
      s += v * v;
    }
    const inv = 1 / Math.sqrt(s);
    for (let j = 0; j < dim; j++) m[r * dim + j] *= inv;
  }
  return m;
}
