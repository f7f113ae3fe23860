// Test inputs shared by the retrieval tests: chunk construction and a seeded PRNG.
import type { Chunk } from '../../src/core/types';
import { createRng } from '../../src/core/stats/rng';

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

/** The project's seeded PRNG (mulberry32, src/core/stats/rng.ts). */
export const mulberry32 = createRng;

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
