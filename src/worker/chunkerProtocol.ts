/**
 * Messages between a grid run and its chunker thread (./chunkerThread.ts, ./chunkerPool.ts); the
 * run's inputs go as the Worker's `workerData` ({@link ChunkerThreadInit}).
 */
import { isSpanproofError } from '../core/errors';
import type { ChunkerJob, ChunkerThreadResult } from '../core/grid/parallel';

export type { ChunkerThreadInit } from '../core/grid/parallel';

/** Host → thread. */
export type ChunkerThreadMessage = { kind: 'run'; job: ChunkerJob } | { kind: 'cancel' } | { kind: 'close' };

/** A failure as it crosses the thread boundary. */
export interface ChunkerThreadError {
  code: string;
  message: string;
  stack?: string;
}

/** Thread → host: `ready` (models loaded) or `unusable` once; per `run` work units done, then one `done` or `failed`. */
export type ChunkerThreadReply = { kind: 'ready' } | { kind: 'unusable'; error: ChunkerThreadError } | { kind: 'units'; units: number } | { kind: 'done'; result: ChunkerThreadResult } | { kind: 'failed'; error: ChunkerThreadError };

export function toChunkerThreadError(e: unknown): ChunkerThreadError {
  if (isSpanproofError(e)) return { code: e.code, message: e.message, stack: e.stack };
  const err = e instanceof Error ? e : new Error(String(e));
  return { code: 'internal', message: err.message, stack: err.stack };
}
