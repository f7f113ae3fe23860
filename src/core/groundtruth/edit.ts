/**
 * Fixing evidence fields of a ground-truth file as TEXT edits (issue #16 item 8): `validate --fix`
 * changes only the values it fixes (`start`, `end`, and `exact` with `--whitespace`); every other byte —
 * indentation, key order, compact arrays, line endings, `__proto__` keys, integers beyond 2^53, string
 * escapes — stays as written, because nothing else goes through `JSON.parse` and back.
 *
 * Decision: text edits (`jsonc-parser` `modify`, as the draft store does) rather than a reviver that
 * keeps source text: Node 20's `JSON.parse` has no reviver source access, and a reviver would keep
 * the numbers' digits but not the formatting.
 */
import { applyEdits, findNodeAtLocation, modify, parseTree } from 'jsonc-parser';
import { SpanproofError } from '../errors';
import type { GroundTruthFile } from './index';
import { indentOf, parseGroundTruth } from './schema';

/** New values for the selector `questions[question].evidence[evidence]` (offsets in UTF-16 code units). */
export interface EvidenceFix {
  question: number;
  evidence: number;
  set: { start?: number; end?: number; exact?: string };
}

/** The fixes that turn `before` into `after` (same questions and selectors; only start/end/exact differ). */
export function evidenceFixes(before: GroundTruthFile, after: GroundTruthFile): EvidenceFix[] {
  const out: EvidenceFix[] = [];
  before.questions.forEach((q, qi) => q.evidence.forEach((e, j) => {
    const a = after.questions[qi].evidence[j];
    const set: EvidenceFix['set'] = {};
    for (const k of ['start', 'end', 'exact'] as const) if (a[k] !== e[k]) (set as Record<string, unknown>)[k] = a[k];
    if (Object.keys(set).length) out.push({ question: qi, evidence: j, set });
  }));
  return out;
}

/**
 * `text` with `key: value` added as the last member of the selector at `loc`, laid out like that
 * object's last member: on its own line with the same indentation when the members are one per line,
 * else inline after `,` (and a space when the object has them); the key/value separator as the object writes it (`": "` or `":"`).
 */
function insertMember(text: string, loc: (string | number)[], key: string, value: unknown): string {
  const obj = findNodeAtLocation(parseTree(text)!, loc);
  const last = obj?.children?.[obj.children.length - 1];
  if (!obj || !last) return applyEdits(text, modify(text, [...loc, key], value, {}));
  const lineStart = Math.max(text.lastIndexOf('\n', last.offset - 1), text.lastIndexOf('\r', last.offset - 1)) + 1;
  const lead = text.slice(lineStart, last.offset);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const sep = /"\s*:\s/.test(text.slice(last.offset, last.offset + last.length)) ? ': ' : ':';
  const member = `${JSON.stringify(key)}${sep}${JSON.stringify(value)}`;
  const at = last.offset + last.length;
  const inline = /,\s/.test(text.slice(obj.offset, at)) ? ' ' : '';
  return `${text.slice(0, at)},${lead.trim() === '' ? `${eol}${lead}` : inline}${member}${text.slice(at)}`;
}

/**
 * `text` with each fix applied as one text edit of that value (a missing `start`/`end` is inserted
 * after the selector's last member, laid out like it). The result is parsed again and checked: each
 * fixed selector has the new values, else SpanproofError('internal') and nothing should be written.
 * @throws SpanproofError('bad-input') when `text` is not a valid ground-truth file (message names `file`).
 */
export function applyEvidenceFixes(text: string, fixes: readonly EvidenceFix[], file: string): string {
  let out = text;
  for (const f of fixes) {
    const loc = ['questions', f.question, 'evidence', f.evidence];
    for (const [k, v] of Object.entries(f.set)) {
      out = findNodeAtLocation(parseTree(out)!, [...loc, k]) ? applyEdits(out, modify(out, [...loc, k], v, {})) : insertMember(out, loc, k, v);
    }
  }
  const check = parseGroundTruth(out, file);
  for (const f of fixes) {
    const e = check.questions[f.question]?.evidence[f.evidence] as unknown as Record<string, unknown> | undefined;
    if (!e || Object.entries(f.set).some(([k, v]) => e[k] !== v)) {
      throw new SpanproofError('internal', `a fix of question ${f.question + 1}'s evidence ${f.evidence + 1} did not land where expected; nothing was written.`, { file, fix: 'report this; the file is unchanged.' });
    }
  }
  return out;
}

/**
 * The text `current` with `value` appended to its `questions` array, as ONE insertion after the last
 * element (or inside `[]`): nothing before or after it changes. The new element is pretty-printed with
 * the file's indentation unit and indented like the existing elements (their line's leading
 * whitespace), line endings as in the file. Used by drafts (src/core/draft/store.ts) and `import --merge`.
 */
export function appendToQuestions(current: string, value: unknown, file: string): string {
  const arr = findNodeAtLocation(parseTree(current)!, ['questions']);
  if (!arr || arr.type !== 'array') throw new SpanproofError('bad-input', '"questions" is not an array.', { file, field: 'questions', fix: 'make "questions" an array of question objects.' });
  const unit = indentOf(current) ?? '  ';
  const eol = current.includes('\r\n') ? '\r\n' : '\n';
  const last = arr.children?.[arr.children.length - 1];
  const lineStart = (at: number): number => Math.max(current.lastIndexOf('\n', at - 1), current.lastIndexOf('\r', at - 1)) + 1;
  const leading = (at: number): string => /^[ \t]*/.exec(current.slice(lineStart(at), at))![0];
  const arrIndent = leading(arr.offset);
  const elemIndent = last && current.slice(lineStart(last.offset), last.offset).trim() === '' ? leading(last.offset) : arrIndent + unit;
  const body = JSON.stringify(value, null, unit).split('\n').join(eol + elemIndent);
  if (last) {
    const at = last.offset + last.length;
    return `${current.slice(0, at)},${eol}${elemIndent}${body}${current.slice(at)}`;
  }
  const open = arr.offset + 1;
  const close = arr.offset + arr.length - 1;
  return `${current.slice(0, open)}${eol}${elemIndent}${body}${eol}${arrIndent}${current.slice(close)}`;
}
