/**
 * Three-way merge of ground-truth files by question id (SPEC §16: concurrent edits in the editor and
 * on disk are merged or refused, never overwritten silently). Pure: no vscode, no I/O.
 *
 * `base` is the file as last read from / written to disk, `ours` the in-memory version, `theirs` what is
 * on disk now. A question changed on one side only takes that side; changed identically on both is
 * fine; changed differently on both (or deleted on one side and edited on the other) is a conflict.
 * Top-level keys other than `questions` follow the same rule.
 */
import type { GroundTruthFile, Question } from '../core/groundtruth';

export interface MergeResult {
  merged: GroundTruthFile | null;
  /** Question ids (or `key:<name>` for top-level keys) changed differently on both sides. */
  conflicts: string[];
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export function mergeGroundTruth(base: GroundTruthFile, ours: GroundTruthFile, theirs: GroundTruthFile): MergeResult {
  const conflicts: string[] = [];
  const byId = (gt: GroundTruthFile) => new Map(gt.questions.map((q) => [q.id, q] as const));
  const b = byId(base);
  const o = byId(ours);
  const t = byId(theirs);
  const pick = (id: string): Question | undefined => {
    const bq = b.get(id);
    const oq = o.get(id);
    const tq = t.get(id);
    if (same(oq, tq)) return tq;
    if (same(oq, bq)) return tq; // only theirs changed
    if (same(tq, bq)) return oq; // only ours changed
    conflicts.push(id);
    return tq;
  };
  // Order: theirs' order, then questions only we have (new ones), in our order.
  const ids: string[] = [];
  const seen = new Set<string>();
  const note = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    ids.push(id);
  };
  for (const q of [...theirs.questions, ...ours.questions]) note(q.id);
  for (const id of b.keys()) note(id);
  const questions: Question[] = [];
  for (const id of ids) {
    const q = pick(id);
    if (q) questions.push(q);
  }
  const merged: GroundTruthFile = { ...theirs, questions };
  const keys = new Set([...Object.keys(base), ...Object.keys(ours), ...Object.keys(theirs)]);
  for (const k of keys) {
    if (k === 'questions') continue;
    const bv = base[k];
    const ov = ours[k];
    const tv = theirs[k];
    if (same(ov, tv) || same(ov, bv)) continue;
    if (same(tv, bv)) {
      if (ov === undefined) delete merged[k];
      else merged[k] = ov;
      continue;
    }
    conflicts.push(`key:${k}`);
  }
  return { merged: conflicts.length ? null : merged, conflicts };
}
