/**
 * Where the editor shows a drafted question's review actions (CodeLens Accept / Reject / Edit
 * Question) and its distinct decoration: every resolved evidence span of a draft in one document.
 * vscode-free (test/unit/extension/draftTargets.test.ts).
 */
import { isDraft, type GroundTruthFile, type Resolution } from '../core/groundtruth';

export interface DraftTarget {
  /** The draft's id. */
  id: string;
  question: string;
  /** Index of the evidence item in the draft's list. */
  index: number;
  start: number;
  end: number;
  /** The quote was re-anchored after whitespace/quote normalisation (`reanchored` on the item). */
  reanchored: boolean;
}

/** Resolved evidence spans of drafted questions in `source`, in file order. */
export function draftTargets(gt: GroundTruthFile | null, resolution: Resolution | null, source: string): DraftTarget[] {
  const out: DraftTarget[] = [];
  if (!gt || !resolution) return out;
  gt.questions.forEach((q, i) => {
    if (!isDraft(q)) return;
    q.evidence.forEach((e, j) => {
      const r = resolution.perEvidence[i]?.[j];
      if (e.source !== source || !r || (r.status !== 'resolved' && r.status !== 'moved')) return;
      out.push({ id: q.id, question: q.question, index: j, start: r.span.start, end: r.span.end, reanchored: e.reanchored !== undefined });
    });
  });
  return out;
}
