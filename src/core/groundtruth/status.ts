/**
 * Drafted questions (`"status": "draft"`, written by `spanproof draft`) are kept in the ground-truth
 * file but never scored until accepted (`spanproof review --accept`), which removes the status.
 */
import type { GroundTruthFile, Question } from './index';

/** True for a drafted question that has not been accepted yet. */
export function isDraft(q: Pick<Question, 'status'>): boolean {
  return q.status === 'draft';
}

/**
 * Splits `gt` into the file without drafts (what runs score and `validate` gates on; the same object
 * when there is no draft) and the drafts, in file order.
 */
export function withoutDrafts(gt: GroundTruthFile): { scored: GroundTruthFile; drafts: Question[] } {
  const drafts = gt.questions.filter(isDraft);
  if (drafts.length === 0) return { scored: gt, drafts };
  return { scored: { ...gt, questions: gt.questions.filter((q) => !isDraft(q)) }, drafts };
}
