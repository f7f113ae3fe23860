/**
 * Validation of chunker parameters and the stable cache key of a chunker configuration.
 */
import { SpanproofError } from '../errors';
import type { ChunkerId } from '../types';
import type { ChunkerParams } from '../settings';
import { MIN_CHUNK_SIZE } from '../settings/schema';

/**
 * Version of each chunker's algorithm. Bump when a chunker's output for the same input and params
 * changes, so caches keyed by `chunkerConfigKey` are invalidated.
 */
export const CHUNKER_ALGORITHM_VERSION: Readonly<Record<ChunkerId, number>> = {
  fixed: 1,
  recursive: 1,
  sentence: 1,
  heading: 1,
  semantic: 1,
};

/** Overlap used when a too-long unit is split with `recursive` (SPEC §4: 100), kept below half the size. */
export function splitOverlap(size: number): number {
  return Math.min(100, Math.floor(size / 2));
}

function fail(field: string, value: unknown, rule: string): never {
  throw new SpanproofError('bad-input', `chunker parameter is ${JSON.stringify(value)}; it must be ${rule}.`, {
    field: `chunkerParams.${field}`,
    fix: `set chunkerParams.${field} to ${rule}.`,
  });
}

/** `v` when it is a whole number ≥ `min`; the rule is worded as the settings check words it (src/core/settings/describe.ts). */
function int(field: string, v: unknown, min: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) fail(field, v, `a whole number ≥ ${min}`);
  return v;
}

/** Throws SpanproofError('bad-input') naming `chunkerParams.<chunker>.<key>` when a value is unusable. */
export function validateChunkerParams(chunker: ChunkerId, params: ChunkerParams): void {
  switch (chunker) {
    case 'fixed':
    case 'recursive': {
      const p = params[chunker];
      const size = int(`${chunker}.size`, p?.size, MIN_CHUNK_SIZE);
      const overlap = int(`${chunker}.overlap`, p?.overlap, 0);
      if (overlap >= size) fail(`${chunker}.overlap`, overlap, `smaller than ${chunker}.size (${size})`);
      return;
    }
    case 'sentence':
      int('sentence.size', params.sentence?.size, MIN_CHUNK_SIZE);
      return;
    case 'heading':
      int('heading.maxSize', params.heading?.maxSize, MIN_CHUNK_SIZE);
      return;
    case 'semantic': {
      const p = params.semantic;
      const min = int('semantic.minSize', p?.minSize, 0);
      const max = int('semantic.maxSize', p?.maxSize, MIN_CHUNK_SIZE);
      if (min > max) fail('semantic.minSize', min, `at most semantic.maxSize (${max})`);
      const pct = p?.percentile;
      if (typeof pct !== 'number' || !(pct >= 0 && pct <= 100)) fail('semantic.percentile', pct, 'a number in [0, 100]');
      int('semantic.windowSentences', p?.windowSentences, 0);
      return;
    }
    default:
      throw new SpanproofError('bad-input', `unknown chunker "${String(chunker)}".`, {
        field: 'chunkers',
        fix: 'use fixed, recursive, sentence, heading or semantic.',
      });
  }
}

/**
 * A stable string identifying a chunker configuration for cache keys:
 * `<chunker>/v<algorithm version>/<params as JSON with sorted keys>`, e.g.
 * `fixed/v1/{"overlap":100,"size":800}`. For `semantic` the embedder is not part of the params:
 * callers must add the embedding model's identity to their key.
 */
export function chunkerConfigKey(chunker: ChunkerId, params: ChunkerParams): string {
  const p = params[chunker] as unknown as Record<string, unknown>;
  const sorted = Object.fromEntries(Object.keys(p).sort().map((k) => [k, p[k]]));
  return `${chunker}/v${CHUNKER_ALGORITHM_VERSION[chunker]}/${JSON.stringify(sorted)}`;
}

/**
 * The key of one chunker's chunks and of everything built on them (chunk cache, embedding cache,
 * resident stage memo): {@link chunkerConfigKey}, plus `|<embedder id>` for `semantic`, whose cut
 * points depend on the embedder that compares its sentence windows.
 */
export function chunkIndexKey(chunker: ChunkerId, params: ChunkerParams, embedderId: string): string {
  return chunkerConfigKey(chunker, params) + (chunker === 'semantic' ? `|${embedderId}` : '');
}
