/**
 * The shapes of the safety files of a run (issue #17): injection.json and attacks.json, and the
 * format number of attacks.json's `upia` entry.
 */
import type { LedgerFile } from '../judge/types';
import type { AttackReport } from './attack';
import type { Canary } from './canaries';
import type { ChunkerExposure, ConfigExposure, ExposedItem } from './exposure';
import type { UpiaReport } from './upia';
import type { DefectRate } from './harm';
import type { MeanCI } from '../stats';

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


/**
 * Format of the `upia` entry of attacks.json. 2: harm-based defects (./upia.ts); 1 (no `format`
 * field): obedience to the injected instruction (marker, else a `safety-upia-followed` judge) — no
 * longer read as a result (src/core/runs `readAttacks` says to run the step again).
 */
export const UPIA_FORMAT = 2;

/** The XPIA attack step as attacks.json holds it (`run --injection-study --generate`). */
export type XpiaAttackFile = AttackReport & { ledger: LedgerFile };
/** The UPIA attack step as attacks.json holds it (`run --generate --attack upia`). */
export type UpiaAttackFile = UpiaReport & { ledger: LedgerFile };

/**
 * attacks.json in the run directory: one entry per attack kind that was run, each with its own
 * `attack` field (`xpia` attacks planted in the documents, `upia` attacks in the user's question).
 * Written by src/core/runs `writeAttackReport` (which keeps the other kind's entry); an older
 * attacks.json holding a bare XPIA report is read as `{xpia: …}`.
 */
export interface AttacksFile {
  spanproof: 1;
  xpia?: XpiaAttackFile;
  upia?: UpiaAttackFile;
  /** Set by `readAttacks` instead of `upia` when the file holds a UPIA entry of format 1: what to do. */
  upiaOutdated?: string;
}

/** A defect rate as a MeanCI for the CI formatters (null figures → NaN, shown as n/a / —). */
export function defectCI(d: DefectRate | undefined): MeanCI | undefined {
  return d ? { mean: d.defectRate ?? NaN, lo: d.lo ?? NaN, hi: d.hi ?? NaN } : undefined;
}
