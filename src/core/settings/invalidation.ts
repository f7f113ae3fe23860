/**
 * Which cached work a changed setting makes stale, from the schema's `invalidates` (./schema.ts).
 * Index/embedding caches are keyed by content hash + component configuration (SPEC §2), so e.g. a new
 * k or τ re-scores without re-chunking or re-embedding.
 */
import { INVALIDATIONS, type Invalidation } from './schema';
import type { RunSettings } from './types';
import { settingEntries } from './walk';

export type { Invalidation } from './schema';

/** What each top-level key makes stale. */
export const INVALIDATES: Readonly<Record<keyof RunSettings, Invalidation | null>> = Object.fromEntries(settingEntries().map((e) => [e.key, e.invalidates])) as Record<keyof RunSettings, Invalidation | null>;

/** The most expensive invalidation among `keys` (order of INVALIDATIONS), or undefined when none. */
export function invalidationOf(keys: readonly (keyof RunSettings)[]): Invalidation | undefined {
  let best = -1;
  for (const k of keys) {
    const inv = INVALIDATES[k];
    if (inv) best = Math.max(best, INVALIDATIONS.indexOf(inv));
  }
  return best < 0 ? undefined : INVALIDATIONS[best];
}
