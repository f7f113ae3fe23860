/**
 * Test inputs for the chunking tests: the shared corpora (reached relative to the repo, skipped when
 * absent) and a deterministic embedder for `semantic` — a hashed bag of words, which is a real (if
 * crude) embedding function, not a stand-in for any part of the core.
 */
import * as path from 'node:path';
import type { EmbedFn } from '../../src/core/chunking';
import { loadCorpus } from '../../src/core/corpus';
import type { CorpusDocument } from '../../src/core/types';
import { REPO } from './paths';


/** The corpora of SPEC/TESTING §4 used for invariant tests, relative to the repo. */
/** The real corpora the chunk tests walk: copies of ../shared/data in test/fixtures/shared-data (#16 item 24). */
export const SHARED_CORPORA = ['test/fixtures/shared-data/fastapi-docs', 'test/fixtures/shared-data/prose', 'test/fixtures/shared-data/chroma/corpora'];

/** Loads one of {@link SHARED_CORPORA} (a path relative to the repository) with the default globs. */
export async function loadSharedCorpus(rel: string): Promise<CorpusDocument[]> {
  return (await loadCorpus(path.resolve(REPO, rel))).documents;
}

/** A document for hand-written cases. */
export function doc(text: string, source = 'doc.md'): CorpusDocument {
  return { source, text, sha256: '', bytes: Buffer.byteLength(text) };
}

/** FNV-1a 32-bit over UTF-16 code units. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export interface RecordingEmbedder {
  fn: EmbedFn;
  dim: number;
  /** The texts of every call, in order. */
  calls: string[][];
}

/**
 * Hashed bag of words: lower-cased `\p{L}+|\p{N}+` tokens, each adding 1 at `fnv1a(token) % dim`,
 * then L2-normalised (an all-zero row for a text with no token).
 */
export function hashedBagOfWords(dim = 1024): RecordingEmbedder {
  const calls: string[][] = [];
  const fn: EmbedFn = async (texts) => {
    calls.push([...texts]);
    const out = new Float32Array(texts.length * dim);
    texts.forEach((t, i) => {
      for (const tok of t.toLowerCase().match(/\p{L}+|\p{N}+/gu) ?? []) out[i * dim + (fnv1a(tok) % dim)] += 1;
      let norm = 0;
      for (let j = 0; j < dim; j++) norm += out[i * dim + j] ** 2;
      norm = Math.sqrt(norm);
      if (norm > 0) for (let j = 0; j < dim; j++) out[i * dim + j] /= norm;
    });
    return out;
  };
  return { fn, dim, calls };
}
