/**
 * What an import does to a ground truth already in the workspace (#16 item 8): by default it refuses
 * (nothing is written), `replace` replaces the file (kept as a backup), `merge` adds the imported
 * questions by id to the existing file.
 */
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { SpanproofError } from '../errors';
import type { GroundTruthFile } from '../groundtruth';

/** How an import treats an existing, different ground-truth file. */
export type ExistingGroundTruth = 'refuse' | 'replace' | 'merge';

/** The ids of an `existing: 'merge'` import, each list in the imported order. */
export interface MergeOutcome {
  /** Imported ids not in the file: appended. */
  added: string[];
  /** Imported ids already in the file with identical content. */
  unchanged: string[];
  /** Imported ids already in the file with different content: the file's version is kept. */
  conflicts: string[];
}

/**
 * `imported`'s questions merged into `existing` by id: the file's top-level fields, its questions and
 * their order are kept; a new id is appended; an id already present keeps the file's version (a
 * conflict when the imported one differs).
 */
export function mergeGroundTruth(existing: GroundTruthFile, imported: GroundTruthFile): { merged: GroundTruthFile; merge: MergeOutcome } {
  const byId = new Map(existing.questions.map((q) => [q.id, q]));
  const merge: MergeOutcome = { added: [], unchanged: [], conflicts: [] };
  const added = [];
  for (const q of imported.questions) {
    const mine = byId.get(q.id);
    if (!mine) {
      merge.added.push(q.id);
      added.push(q);
      byId.set(q.id, q);
    } else if (isDeepStrictEqual(mine, q)) merge.unchanged.push(q.id);
    else merge.conflicts.push(q.id);
  }
  return { merged: { ...existing, questions: [...existing.questions, ...added] }, merge };
}

/** The refusal of an import over an existing ground truth of `count` questions (nothing written). */
export function existingGroundTruthError(file: string, count: number): SpanproofError {
  return new SpanproofError('bad-input', `the workspace already has a ground truth with ${count} question(s); the import would replace it. Nothing was written.`, {
    file,
    fix: `pass --replace to replace it (the current file is kept as ${path.basename(file)}.bak), or --merge to add the imported questions by id (an id already there keeps your version and is listed as a conflict); or import into another folder (--workspace DIR).`,
  });
}
