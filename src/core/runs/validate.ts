/**
 * The shape check of a run's files on read (#16 hardening, N4): a hand-edited or damaged run file is
 * bad input naming the file and the JSON path of the first wrong field — a fresh user's `"error":
 * "boom"`, `"configs": 5` or an evidence.json whose `questions[0]` is `[]` crashed `spanproof report`
 * with a stack trace (exit 3) deep in the renderers (19 of 1,200 mutated run folders did). The schemas
 * (./schema.ts) check the fields the readers and renderers rely on, loosely (unknown keys kept, older
 * runs' optional fields optional, a config's absent `metrics`/`causes` read as empty), so runs of
 * older Spanproof versions and hand-made runs still read.
 */
import type { z } from 'zod';
import { SpanproofError } from '../errors';
import { jsonPath } from '../groundtruth/schema';
import { evidenceSchema, questionRecordSchema, rankingV1Schema, rankingV2Schema, resultsSchema, runSchema, timingsSchema } from './schema';

const FIX = 're-run `spanproof run`, or restore the file from an intact copy of the run folder.';

const KIND: Record<string, string> = { object: 'an object', array: 'an array', string: 'a string', number: 'a number', boolean: 'true or false', null: 'null', undefined: 'missing', record: 'an object' };

/** What kind of JSON value `v` is, in words (`an array`, `a string`, `missing`). */
function kindOf(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return KIND[typeof v] ?? typeof v;
}

/** `must be a string, not an array` from a zod issue (zod 4 codes; other codes keep zod's message). */
function mustBe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') {
    const expected = KIND[issue.expected] ?? issue.expected;
    return issue.input === undefined ? `is missing (must be ${expected})` : `must be ${expected}, not ${kindOf(issue.input)}`;
  }
  if (issue.code === 'invalid_value') return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, not ${JSON.stringify(issue.input) ?? kindOf(issue.input)}`;
  return issue.message.replace(/^Invalid input: /, '');
}

/**
 * `value` parsed by `schema` (unknown keys kept, defaults filled in); else SpanproofError('bad-input')
 * `<file>: <field> must be <type>, not <kind>; the run file is damaged. Fix: re-run …`, `field` being
 * the JSON path of the first wrong field — after `line N, ` for a line of questions.jsonl.
 */
function check<T>(schema: z.ZodType, value: unknown, file: string, line?: number): T {
  const r = schema.safeParse(value, { reportInput: true });
  if (r.success) return r.data as T;
  const issue = r.error.issues[0];
  const path = issue.path.length ? jsonPath(issue.path) : undefined;
  const field = line === undefined ? path : path ? `line ${line}, ${path}` : `line ${line}`;
  throw new SpanproofError('bad-input', `${field ?? 'the file'} ${mustBe(issue)}; the run file is damaged.`, { file, field, fix: FIX });
}

/** `value` (a parsed run.json) when it has the run file's shape, else SpanproofError('bad-input') naming `file` and the field. */
export function checkRunFile<T>(value: unknown, file: string): T {
  return check<T>(runSchema, value, file);
}

/** The same for results.json. */
export function checkResultsFile<T>(value: unknown, file: string): T {
  return check<T>(resultsSchema, value, file);
}

/** The same for ranking.json: format 2 (an object with `spanproof: 2`) or format 1 (an array); anything else is passed through (read as no ranking). */
export function checkRankingFile(value: unknown, file: string): unknown {
  if (Array.isArray(value)) return check(rankingV1Schema, value, file);
  if (typeof value === 'object' && value !== null && (value as { spanproof?: unknown }).spanproof === 2) return check(rankingV2Schema, value, file);
  return value;
}

/** The same for timings.json. */
export function checkTimingsFile<T>(value: unknown, file: string): T {
  return check<T>(timingsSchema, value, file);
}

/** The same for evidence.json. */
export function checkEvidenceFile<T>(value: unknown, file: string): T {
  return check<T>(evidenceSchema, value, file);
}

/** The same for one line (1-based `line`) of questions.jsonl. */
export function checkQuestionRecord<T>(value: unknown, file: string, line: number): T {
  return check<T>(questionRecordSchema, value, file, line);
}
