/**
 * Statistics of SPEC §7.4: the seeded PRNG, paired percentile bootstrap CIs and Pearson's r.
 * Usage in a run: `const rs = bootstrapResamples(questions.length, 2000, seed)` once, then
 * `percentileCI(perQuestion, rs)` for every config × metric and `pairedDifferenceCI(a, top, rs)`.
 */
export { createRng } from './rng';
export {
  bootstrapResamples,
  bootstrapResampleSteps,
  meanOf,
  pairedDifferenceCI,
  pearson,
  pearsonCI,
  percentileCI,
  percentileCIs,
  resampleMeansMany,
  percentileOf,
  quantileType7,
  resampleMeans,
  type DifferenceCI,
  type MeanCI,
} from './bootstrap';
export {
  ALPHA,
  ASSUMED_POWER,
  Z_80,
  Z_975,
  erfc,
  holmAdjust,
  minimalDetectableDifference,
  pairedComparison,
  questionsToResolve,
  type PairedComparison,
} from './compare';
