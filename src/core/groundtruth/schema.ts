/**
 * The ground-truth file format (SPEC §3.1): zod schema, parsing with messages that name the file, the
 * JSON path and the fix, and stable serialisation (known keys in spec order, unknown keys preserved
 * after them in their original order).
 */
import { z } from 'zod';
import { SpanproofError } from '../errors';
import { MAX_JSON_DEPTH, assertKnownFormat, tooDeepPath } from '../files';
import { jsonSyntaxError, withoutExcerpt } from '../files/jsonText';
import type { GroundTruthFile } from './index';

const offset = z.int().nonnegative();

const selectorSchema = z.looseObject({
  source: z.string().min(1).meta({ description: 'The document: its POSIX path relative to the corpus root, e.g. "docs/intro.md".' }),
  exact: z.string().min(1).meta({ description: 'The verbatim quote (W3C TextQuoteSelector `exact`): the evidence text itself. The quote is the truth; offsets are a hint.' }),
  prefix: z.string().optional().meta({ description: 'Text just before the quote (up to 32 characters), to tell equal quotes apart.' }),
  suffix: z.string().optional().meta({ description: 'Text just after the quote (up to 32 characters), to tell equal quotes apart.' }),
  start: offset.optional().meta({ description: 'Start offset of the quote in UTF-16 code units (optional; give "start" and "end" together, start < end).' }),
  end: offset.optional().meta({ description: 'End offset (exclusive) of the quote in UTF-16 code units.' }),
}).superRefine((s, ctx) => {
  if ((s.start === undefined) !== (s.end === undefined)) {
    ctx.addIssue({ code: 'custom', path: [s.start === undefined ? 'start' : 'end'], message: '"start" and "end" must be given together' });
  } else if (s.start !== undefined && s.end !== undefined && s.start >= s.end) {
    ctx.addIssue({ code: 'custom', path: ['end'], message: `"end" (${s.end}) must be greater than "start" (${s.start})` });
  }
}).meta({ description: 'One evidence span: a TextQuoteSelector (source + exact quote with prefix/suffix) and optional offsets.' });

const questionSchema = z.looseObject({
  id: z.string().min(1).meta({ description: 'Unique id of the question in this file.' }),
  // An empty text was accepted and scored as a retriever miss (fresh-user #13); the importers already refuse one.
  question: z.string().regex(/\S/, { error: 'the question text is empty' }).meta({ description: 'The question as a user would ask it (not empty).' }),
  answer: z.string().optional().meta({ description: 'Optional reference answer (used by the answer judges, SPEC §14).' }),
  evidence: z.array(selectorSchema).min(1).meta({ description: 'The passages that answer the question (at least one).' }),
  match: z.enum(['all', 'any']).optional().meta({ description: '"all" (default): every span is needed; "any": the spans are alternatives, one suffices.' }),
  tags: z.array(z.string()).optional().meta({ description: 'Free labels, e.g. for filtering reports.' }),
  status: z.literal('draft').optional().meta({ description: '"draft": drafted by a model (spanproof draft) and not yet accepted — never scored until `spanproof review --accept`; absent = an ordinary question.' }),
  provenance: z.looseObject({}).optional().meta({ description: 'Where a drafted question came from: model, endpoint (credentials redacted), promptVersion, passage {source, start, end}, createdAt. Kept after acceptance.' }),
}).meta({ description: 'A question with the evidence spans that answer it.' });

const fileSchema = z.looseObject({
  spanproof: z.literal(1, { error: (iss) => (iss.input === undefined ? undefined : `invalid format version ${typeof iss.input === 'number' ? String(iss.input) : JSON.stringify(iss.input)} (a whole number; this version reads 1)`) }).meta({ description: 'Format version of the ground-truth file: 1.' }),
  corpus: z.string().optional().meta({ description: 'Optional note on the corpus the questions are about.' }),
  questions: z.array(questionSchema).meta({ description: 'The questions (may be empty).' }),
}).superRefine((f, ctx) => {
  const seen = new Map<string, number>();
  f.questions.forEach((q, i) => {
    const first = seen.get(q.id);
    if (first !== undefined) ctx.addIssue({ code: 'custom', path: ['questions', i, 'id'], message: `duplicate question id "${q.id}" (also questions[${first}])` });
    else seen.set(q.id, i);
  });
}).meta({ title: 'Spanproof ground truth', description: 'Questions with character-span evidence (SPEC §3.1; docs/ground-truth.md).' });

/**
 * JSON Schema (draft-07) of the ground-truth file, generated from the zod schema the parser uses
 * (zod 4 `z.toJSONSchema`), for editors' completion, hover and squiggles (VS Code `jsonValidation`).
 * Refinements the JSON Schema cannot express (unique ids, start/end given together and ordered) are
 * checked by `parseGroundTruth` only.
 */
export function groundTruthJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(fileSchema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
}

/** Key order written to disk, per object kind (SPEC §3.1 order). */
const FILE_KEYS = ['spanproof', 'corpus', 'questions'];
const QUESTION_KEYS = ['id', 'question', 'answer', 'evidence', 'match', 'tags', 'status', 'provenance'];
const SELECTOR_KEYS = ['source', 'exact', 'prefix', 'suffix', 'start', 'end'];

/** `questions[3].evidence[0].exact` from a zod path. */
export function jsonPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else {
      const k = String(p);
      out += /^[A-Za-z_$][\w$]*$/.test(k) ? (out ? `.${k}` : k) : `[${JSON.stringify(k)}]`;
    }
  }
  return out || '(top level)';
}

/** What to do about an issue at `path` (last key decides). */
function fixFor(path: ReadonlyArray<PropertyKey>, message: string): string {
  const key = [...path].reverse().find((p) => typeof p === 'string');
  if (message.startsWith('duplicate question id')) return 'give every question a unique "id".';
  switch (key) {
    case 'spanproof': return 'set "spanproof": 1 (the only format version).';
    case 'questions': return 'make "questions" an array of question objects (it may be empty).';
    case 'id': return 'give the question a non-empty string "id", unique in the file.';
    case 'question': return 'give the question its text as a non-empty string "question".';
    case 'answer': return 'make "answer" a string, or remove it.';
    case 'evidence': return 'give the question an "evidence" array with at least one {"source", "exact"} selector.';
    case 'match': return 'use "match": "all" (every span needed) or "any" (alternatives), or remove it.';
    case 'tags': return 'make "tags" an array of strings, or remove it.';
    case 'status': return 'the only status is "draft" (a drafted question not yet accepted): remove "status" to make it an ordinary question, or run `spanproof review --accept ID`.';
    case 'provenance': return 'make "provenance" an object (written by `spanproof draft`), or remove it.';
    case 'source': return 'set "source" to the document\'s POSIX path relative to the corpus root, e.g. "docs/intro.md".';
    case 'exact': return 'set "exact" to the verbatim quote from the document (a non-empty string).';
    case 'prefix': case 'suffix': return `make "${key}" a string of the text around the quote, or remove it.`;
    case 'start': case 'end': return 'offsets are optional (the quote is the truth): remove "start" and "end", or set both to UTF-16 offsets with 0 ≤ start < end.';
    default: return 'see the ground-truth format in docs/ground-truth.md.';
  }
}

/**
 * Parse and validate the text of a ground-truth file. `file` is only used in messages.
 * @throws SpanproofError('bad-input') naming the file, the JSON path (or line/column for a syntax
 *   error) and the fix. The first problem is the error's `field` and fix; up to four more are listed.
 */
export function parseGroundTruth(json: string, file: string): GroundTruthFile {
  if (json.replace(/^\uFEFF/, '').trim() === '') {
    throw new SpanproofError('bad-input', 'the ground-truth file is empty.', { file, fix: 'write {"spanproof": 1, "questions": [...]} into it (docs/ground-truth.md), or pass the right file with --groundtruth.' });
  }
  let data: unknown;
  try {
    data = JSON.parse(json.charCodeAt(0) === 0xfeff ? json.slice(1) : json);
  } catch (e) {
    let msg = withoutExcerpt(e instanceof Error ? e.message : String(e)); // never echo the file's text
    // jsonc-parser's scanner locates every syntax error (JSON.parse gives no position for `[1,]`), #16 item 20
    const at = jsonSyntaxError(json.charCodeAt(0) === 0xfeff ? json.slice(1) : json);
    const field = at ? `line ${at.line}, column ${at.column}` : undefined;
    if (at) msg = `${at.message}; ${msg}`;
    throw new SpanproofError('bad-input', `not valid JSON (${msg}).`, {
      file, field, fix: 'correct the JSON syntax (a ground-truth file is one JSON object {"spanproof": 1, "questions": [...]}).', cause: e,
    });
  }
  const deep = tooDeepPath(data);
  if (deep) {
    throw new SpanproofError('bad-input', `nested more than ${MAX_JSON_DEPTH} levels deep; not read.`, { file, field: deep, fix: 'a ground-truth file is flat: questions hold evidence selectors; remove the deeply nested value.' });
  }
  assertKnownFormat(data, 1, file); // "spanproof": 2 is a newer Spanproof's file, not a schema error (#16 item 15)
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const first = issues[0];
    const text = (m: string): string => m.replace(/^Invalid input: expected (\w+), received undefined$/, 'missing (expected $1)');
    const others = issues.slice(1, 5).map((i) => `${jsonPath(i.path)}: ${text(i.message)}`);
    const more = issues.length > 5 ? `, and ${issues.length - 5} more` : '';
    const also = others.length ? ` (also ${others.join('; ')}${more})` : '';
    throw new SpanproofError('bad-input', `${text(first.message)}${also}.`, {
      file, field: jsonPath(first.path), fix: fixFor(first.path, first.message),
    });
  }
  return parsed.data as GroundTruthFile;
}

function ordered(obj: Record<string, unknown>, known: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of known) if (obj[k] !== undefined) out[k] = obj[k];
  for (const k of Object.keys(obj)) if (!known.includes(k) && obj[k] !== undefined) out[k] = obj[k];
  return out;
}

/** One question as `serializeGroundTruth` orders it (known keys in SPEC §3.1 order, then unknown keys), for text-level inserts. */
export function orderedQuestion(q: Record<string, unknown> & { evidence: Array<Record<string, unknown>> }): Record<string, unknown> {
  const o = ordered(q, QUESTION_KEYS);
  o.evidence = q.evidence.map((e) => ordered(e, SELECTOR_KEYS));
  return o;
}

/** The indentation of an existing JSON text (its first indented line), or undefined. */
export function indentOf(json: string): string | undefined {
  return /\n([ \t]+)\S/.exec(json)?.[1];
}

/**
 * Serialise `gt` pretty-printed with stable key order: known keys in SPEC §3.1 order, unknown keys
 * after them in their original order; ends with a newline. Deterministic.
 * Indentation: `opts.indent` if given, else that of `opts.like` (the file's current text, so that
 * `serializeGroundTruth(gt, {like: disk}) === disk` means "nothing to write"), else 2 spaces. Line
 * endings: `\r\n` when `opts.like` has any (a file saved on Windows keeps them: `import --replace`
 * turned them into `\n`), else `\n`.
 * `writeGroundTruth` uses the same rule with the file's current content.
 */
export function serializeGroundTruth(gt: GroundTruthFile, opts: { indent?: number | string; like?: string | null } = {}): string {
  const indent = opts.indent ?? (opts.like ? indentOf(opts.like) : undefined) ?? 2;
  const top = ordered(gt, FILE_KEYS);
  top.questions = gt.questions.map((q) => orderedQuestion(q));
  // JSON.stringify escapes every line break inside a string, so each `\n` it writes is structural
  const eol = opts.like?.includes('\r\n') ? '\r\n' : '\n';
  const text = `${JSON.stringify(top, null, indent)}\n`;
  return eol === '\n' ? text : text.replace(/\n/g, eol);
}
