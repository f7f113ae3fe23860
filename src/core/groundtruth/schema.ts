import type { GroundTruthFile } from './index';
export function parseGroundTruth(json: string, file: string): GroundTruthFile { void json; void file; throw new Error('not implemented'); }
export function serializeGroundTruth(gt: GroundTruthFile, opts: { indent?: number | string } = {}): string { void gt; void opts; throw new Error('not implemented'); }
