import type { GroundTruthFile } from './index';
export async function readGroundTruth(file: string): Promise<GroundTruthFile> { void file; throw new Error('not implemented'); }
export async function writeGroundTruth(file: string, gt: GroundTruthFile, opts: { expectedContent?: string | null } = {}): Promise<boolean> { void file; void gt; void opts; throw new Error('not implemented'); }
