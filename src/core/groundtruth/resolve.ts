import type { EvidenceResolution, EvidenceSelector, GroundTruthFile, Resolution, ResolveOptions } from './index';
export function resolveEvidence(sel: EvidenceSelector, text: string | undefined, opts: ResolveOptions = {}): EvidenceResolution { void sel; void text; void opts; throw new Error('not implemented'); }
export function resolveGroundTruth(gt: GroundTruthFile, textOf: (source: string) => string | undefined, opts: ResolveOptions = {}): Resolution { void gt; void textOf; void opts; throw new Error('not implemented'); }
