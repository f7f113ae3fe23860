/**
 * The shapes of the safety files of a run (issue #17): injection.json.
 */
import type { Canary } from './canaries';
import type { ChunkerExposure, ConfigExposure, ExposedItem } from './exposure';

/** injection.json (written into the run directory by src/core/runs `writeInjectionStudy`). */
export interface InjectionStudy {
  spanproof: 1;
  /** Canary template version (./templates.ts). */
  templates: string;
  seed: number;
  k: number;
  /** The metric key at the run's k (`exposure@5`). */
  metric: string;
  resamples: number;
  questions: number;
  kinds: string[];
  /** Canaries with their spans in the copy (UTF-16 code units). */
  canaries: Canary[];
  configs: ConfigExposure[];
  chunkers: ChunkerExposure[];
  /** The (question, config) items whose top-k held a canary, with those k spans (copy offsets), sorted by question then config. */
  exposed: ExposedItem[];
  /** Said in every report. */
  note: string;
}

