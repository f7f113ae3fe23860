/**
 * Seeded PRNG for the bootstrap (SPEC §7.4). Mulberry32 (Tommy Ettinger, 2017; public domain): a
 * 32-bit state advanced by the constant 0x6D2B79F5 and mixed with two multiply–xorshift rounds. Pure
 * 32-bit integer arithmetic (`Math.imul`, `>>>`), so the sequence is identical on every platform and
 * Node version. Each output is `uint32 / 2^32` ∈ [0, 1).
 */
export function createRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
