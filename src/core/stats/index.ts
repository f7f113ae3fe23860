/**
 * Statistics of SPEC §7.4: the seeded PRNG, paired percentile bootstrap CIs and Pearson's r.
 * Usage in a run: `const rs = bootstrapResamples(questions.length, 2000, seed)` once, then
 * `percentileCI(perQuestion, rs)` for every config × metric and `pairedDifferenceCI(a, top, rs)`.
 */
export { createRng } from './rng';
export {
  bootstrapResamples,
  meanOf,
  pairedDifferenceCI,
  pearson,
  pearsonCI,
  percentileCI,
  quantileType7,
  type DifferenceCI,
  type MeanCI,
} from './bootstrap';
