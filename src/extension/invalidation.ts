/**
 * Which cached work a changed `spanproof.*` setting makes stale. Pure (no vscode) so it is unit-tested.
 * Index/embedding caches are keyed by content hash + component configuration (SPEC §2), so e.g. a new
 * k or τ re-scores without re-chunking or re-embedding.
 */
import type { RunSettings } from '../core/settings';

/** What a changed key invalidates. Ordered from cheapest to most expensive. */
export type Invalidation = 'ranking' | 'metrics' | 'retrieval' | 'index' | 'corpus' | 'groundtruth';

/** Which cached work each top-level key makes stale (SPEC §2: caches keyed by content + component config). */
export const INVALIDATES: Record<keyof RunSettings, Invalidation> = {
  include: 'corpus',
  exclude: 'corpus',
  maxFileBytes: 'corpus',
  groundTruthPath: 'groundtruth',
  minQuoteLength: 'groundtruth',
  maxQuoteLength: 'groundtruth',
  chunkers: 'index',
  chunkerParams: 'index',
  embeddingModel: 'index',
  retrievers: 'retrieval',
  rerank: 'retrieval',
  rerankerModel: 'retrieval',
  poolSize: 'retrieval',
  threads: 'retrieval',
  k: 'metrics',
  tau: 'metrics',
  bootstrap: 'metrics',
  judge: 'metrics',
  weights: 'ranking',
  primaryMetric: 'ranking',
  verdict: 'ranking',
};

/** The most expensive invalidation among `keys`, or undefined when none. */
export function invalidationOf(keys: (keyof RunSettings)[]): Invalidation | undefined {
  const order: Invalidation[] = ['ranking', 'metrics', 'retrieval', 'index', 'corpus', 'groundtruth'];
  let best = -1;
  for (const k of keys) best = Math.max(best, order.indexOf(INVALIDATES[k]));
  return best < 0 ? undefined : order[best];
}
