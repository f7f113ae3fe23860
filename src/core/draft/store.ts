/**
 * Writing drafts into the ground-truth file and reviewing them (issue #14 §5–6) as TEXT edits
 * (`jsonc-parser` `modify`): new drafts are appended to `questions`, accepting removes a draft's
 * `"status"`, rejecting removes the draft — every other byte of the file stays as it was, so
 * hand-written questions are never changed (checked after every edit: each non-draft question's text
 * is byte-identical, else nothing is written). Writes are atomic (`writeGroundTruthText`: temp file,
 * fsync, rename; computed from the file's content at write time, so an edit made while drafting is
 * kept) after copying the previous version to a backup that never overwrites an older one
 * (`backupGroundTruth`: `<file>.bak`, else `.bak.1`, …).
 */
import { MAX_DATA_FILE_BYTES, readRegularFile } from '../files/read';
import { applyEdits, findNodeAtLocation, modify, parseTree } from 'jsonc-parser';
import { SpanproofError, isSpanproofError } from '../errors';
import { appendToQuestions, isDraft, orderedQuestion, parseGroundTruth, serializeGroundTruth, replaceGroundTruthText, type Question } from '../groundtruth';
import { draftId } from './provenance';

/** The exact text of each question object, by id (from the JSON tree's offsets). */
function questionTexts(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const arr = findNodeAtLocation(parseTree(text)!, ['questions']);
  for (const node of arr?.children ?? []) {
    const id = findNodeAtLocation(node, ['id'])?.value;
    if (typeof id === 'string') out.set(id, text.slice(node.offset, node.offset + node.length));
  }
  return out;
}

/** Throws SpanproofError('internal') unless every non-draft question of `before` has the same bytes in `after`. */
function assertHandQuestionsUntouched(before: string, after: string, file: string, keepIds: Iterable<string>): void {
  const a = questionTexts(before);
  const b = questionTexts(after);
  for (const id of keepIds) {
    if (a.get(id) !== b.get(id)) throw new SpanproofError('internal', `an edit would change question "${id}"; nothing was written.`, { file, fix: 'report this; the file is unchanged.' });
  }
}

function handIds(text: string, file: string): string[] {
  return parseGroundTruth(text, file).questions.filter((q) => !isDraft(q)).map((q) => q.id);
}

/**
 * `current` (the file's text, or null for no file) with `drafts` appended to `questions`. A draft
 * whose id is taken in `current` gets a fresh one. Throws SpanproofError('bad-input') when `current`
 * is not a valid ground-truth file.
 */
export function insertDrafts(current: string | null, drafts: readonly Question[], file: string): string {
  if (current === null) return serializeGroundTruth({ spanproof: 1, questions: [...drafts] });
  const gt = parseGroundTruth(current, file);
  const taken = new Set(gt.questions.map((q) => q.id));
  let text = current;
  for (const d of drafts) {
    const id = taken.has(d.id) ? draftId(d.provenance?.passage.source ?? '', d.provenance?.passage.start ?? 0, d.provenance?.passage.end ?? 0, d.question, taken) : d.id;
    taken.add(id);
    text = appendToQuestions(text, orderedQuestion({ ...d, id }), file);
  }
  parseGroundTruth(text, file);
  assertHandQuestionsUntouched(current, text, file, handIds(current, file));
  return text;
}

/** Accept drafts (remove `status`), reject them (remove them), or reword one draft's question. */
export type ReviewAction = { accept: readonly string[] | 'all' } | { reject: readonly string[] } | { edit: string; question: string };

/**
 * Applies a review to the file's text: accepted drafts lose `"status"` (provenance kept), rejected
 * drafts are removed, an edited draft gets its new `question` text. Returns the new text and the ids acted on. Throws SpanproofError('bad-input')
 * for an id that is not a question, or not a draft, of the file.
 */
export function reviewText(current: string, action: ReviewAction, file: string): { text: string; ids: string[] } {
  const gt = parseGroundTruth(current, file);
  const draftIndex = new Map<string, number>();
  gt.questions.forEach((q, i) => { if (isDraft(q)) draftIndex.set(q.id, i); });
  const wanted = 'accept' in action && action.accept === 'all' ? [...draftIndex.keys()] : [...new Set('accept' in action ? action.accept as readonly string[] : 'reject' in action ? action.reject : [action.edit])];
  for (const id of wanted) {
    if (draftIndex.has(id)) continue;
    const exists = gt.questions.some((q) => q.id === id);
    throw new SpanproofError('bad-input', exists ? `question "${id}" is not a draft (only drafts can be accepted or rejected).` : `no question "${id}" in the ground truth.`, {
      file, fix: 'list the drafts with `spanproof review --list`.',
    });
  }
  // Descending index order, so earlier indices stay valid while elements are removed.
  const order = wanted.map((id) => draftIndex.get(id)!).sort((a, b) => b - a);
  let text = current;
  for (const i of order) {
    if ('edit' in action) text = applyEdits(text, modify(text, ['questions', i, 'question'], action.question, {}));
    else text = applyEdits(text, modify(text, 'accept' in action ? ['questions', i, 'status'] : ['questions', i], undefined, {}));
  }
  const after = parseGroundTruth(text, file);
  if ('accept' in action && after.questions.some((q) => wanted.includes(q.id) && isDraft(q))) throw new SpanproofError('internal', 'a draft kept its status after acceptance; nothing was written.', { file });
  assertHandQuestionsUntouched(current, text, file, handIds(current, file));
  return { text, ids: wanted };
}

async function readOrNull(file: string): Promise<string | null> {
  try {
    return (await readRegularFile(file, MAX_DATA_FILE_BYTES, { what: 'the ground-truth file' })).toString('utf8');
  } catch (e) {
    if (isSpanproofError(e)) throw e; // a FIFO, a device, too large: said by the reader
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new SpanproofError('bad-input', `cannot read the ground-truth file (${(e as NodeJS.ErrnoException).code ?? String(e)}).`, { file, cause: e });
  }
}

/**
 * Appends `drafts` to the ground-truth `file` (created when missing), atomically, after a backup
 * (`backupGroundTruth`, never overwriting an older one) of the version it replaces. The insert is computed on the file as it is now (an edit made while
 * drafting is kept); if the file changes between that read and the rename, it is read again (3 tries).
 */
export async function writeDrafts(file: string, drafts: readonly Question[]): Promise<{ written: boolean; backup?: string }> {
  if (drafts.length === 0) return { written: false };
  for (let attempt = 0; ; attempt++) {
    const current = await readOrNull(file);
    const text = insertDrafts(current, drafts, file);
    try {
      return await replaceGroundTruthText(file, () => text, { expectedContent: current });
    } catch (e) {
      if (attempt < 2 && e instanceof SpanproofError && /changed on disk/.test(e.message)) continue;
      throw e;
    }
  }
}

/** Applies a review to `file` (atomic write after a backup that never overwrites an older one). `expectedContent` = the text the ids were chosen from. */
export async function reviewFile(file: string, current: string, action: ReviewAction): Promise<{ ids: string[]; written: boolean; backup?: string }> {
  const { text, ids } = reviewText(current, action, file);
  if (text === current) return { ids, written: false };
  return { ids, ...(await replaceGroundTruthText(file, () => text, { expectedContent: current })) };
}
