/**
 * Accepting a draft re-checks it (#16 N8): a draft whose evidence quote no longer resolves in the
 * documents as they are now (SPEC §3.2: verbatim, line endings aside — the document changed since
 * drafting) is not accepted silently; it stays a draft and is reported. One rule for `spanproof review
 * --accept` and the editor's Accept Draft / Accept All Drafts.
 */
import { SpanproofError } from '../errors';
import { isDraft, type Question, type Resolution } from '../groundtruth';
import type { ReviewAction } from './store';

/** A draft that does not resolve now, with the first problem (stale reason, `ambiguous`, rejected reason). */
export interface UnresolvedDraft {
  id: string;
  problem: string;
}

/** The drafts `accept` names (`all`: every draft), in file order; ids that are not drafts are left to reviewText to refuse. */
export function draftsToAccept(questions: readonly Question[], accept: readonly string[] | 'all'): Question[] {
  return questions.filter((q) => isDraft(q) && (accept === 'all' || accept.includes(q.id)));
}

/** Of `ids`, those `res` (a resolution of the file's questions, drafts included) did not resolve, with the problem. */
export function unresolvedDrafts(ids: readonly string[], res: Resolution): UnresolvedDraft[] {
  const resolved = new Set(res.questions.map((q) => q.id));
  const a = res.acceptance;
  return ids.filter((id) => !resolved.has(id)).map((id) => ({
    id,
    problem: a.stale.find((x) => x.id === id)?.reason ?? (a.ambiguous.some((x) => x.id === id) ? 'ambiguous' : undefined) ?? a.rejected.find((x) => x.id === id)?.reason ?? 'does not resolve',
  }));
}

/** `accept` of `questions` without the `refused` drafts (an explicit list keeps its unknown ids for reviewText to refuse). */
export function acceptWithout(questions: readonly Question[], accept: readonly string[] | 'all', refused: readonly UnresolvedDraft[]): ReviewAction {
  if (refused.length === 0) return { accept };
  const out = new Set(refused.map((d) => d.id));
  return { accept: (accept === 'all' ? questions.filter(isDraft).map((q) => q.id) : accept).filter((id) => !out.has(id)) };
}

/** bad-input naming the drafts kept because their evidence no longer resolves, with the fix. */
export function notAcceptedError(file: string, refused: readonly UnresolvedDraft[]): SpanproofError {
  const list = refused.map((d) => `${d.id} (${d.problem.replace(/\.$/, '')})`).join('; ');
  return new SpanproofError('bad-input', `${refused.length} draft(s) not accepted, their evidence no longer matches the documents verbatim: ${list}. They stay drafts.`, {
    file,
    fix: `correct each quote ("exact") to the document's current text, or reject the draft (spanproof review --reject ${refused.map((d) => d.id).join(' ')}); spanproof review --list shows them.`,
  });
}
