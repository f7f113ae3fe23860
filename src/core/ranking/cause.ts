/**
 * The dominant failure cause of a config (SPEC §8–§9): the one definition every surface reads.
 */
import { CAUSE_ADVICE } from '../attribution';
import { CAUSES, type Cause } from '../types';

/** The most frequent cause of a config's misses. */
export interface DominantCause {
  cause: Cause;
  /** Misses with this cause. */
  count: number;
  /** All misses of the config. */
  misses: number;
  /** SPEC §8 "meaning for the user". */
  advice: string;
}

/**
 * The most frequent cause in `causes` (counts per cause; missing keys are 0), ties broken by the
 * attribution order of CAUSES (chunker-destroyed first). Null when there is no miss.
 */
export function dominantCause(causes: Partial<Record<Cause, number>>): DominantCause | null {
  let best: Cause | null = null;
  let misses = 0;
  for (const c of CAUSES) {
    const n = causes[c] ?? 0;
    misses += n;
    if (n > 0 && (best === null || n > (causes[best] ?? 0))) best = c;
  }
  return best === null ? null : { cause: best, count: causes[best] ?? 0, misses, advice: CAUSE_ADVICE[best] };
}
