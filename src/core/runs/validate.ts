/**
 * The shape check of a run's files on read (#16 hardening): a hand-edited or damaged run.json,
 * results.json or ranking.json is bad input naming the file and the JSON path of the first wrong
 * field — a fresh user's `"error": "boom"` or `"configs": 5` crashed `spanproof report` with a stack
 * trace (exit 3) deep in the renderers. Only the fields the readers and renderers rely on are
 * checked, and loosely (unknown keys kept, older runs' optional fields optional, a config's absent
 * `metrics`/`causes` read as empty), so runs of older Spanproof versions and hand-made runs still read.
 */
import { z } from 'zod';
import { SpanproofError } from '../errors';
import { jsonPath } from '../groundtruth/schema';

const RUN_STATUSES = ['pending', 'running', 'succeeded', 'failed', 'cancelled', 'interrupted'] as const;
const obj = z.looseObject({});
const num = z.number();

const runSchema = z.looseObject({
  id: z.string(),
  status: z.enum(RUN_STATUSES),
  error: z.looseObject({ code: z.string(), message: z.string() }).nullable().optional(),
  startedAt: z.string().optional(),
  endedAt: z.string().nullable().optional(),
  progress: z.looseObject({ finished: num, total: num }).optional(),
  settings: obj.optional(),
  acceptance: obj.nullable().optional(),
});

const meanCI = z.looseObject({ mean: num.nullable(), lo: num.nullable(), hi: num.nullable() });
const configSchema = z.looseObject({
  id: z.string(),
  chunker: z.string().optional(),
  retriever: z.string().optional(),
  rerank: z.boolean().optional(),
  scored: num.optional(),
  failed: z.array(z.string()).optional(),
  // the renderers index these by metric and cause: absent reads as empty (hand-made and test runs omit them)
  metrics: z.record(z.string(), meanCI).default({}),
  causes: z.record(z.string(), num).default({}),
  contextChars: num.nullable().optional(),
  tauSweep: z.record(z.string(), meanCI).optional(),
  vsTop: z.looseObject({ top: z.string(), diff: meanCI }).nullable().optional(),
  rank: num.optional(),
  explanation: z.string().optional(),
});

const resultsSchema = z.looseObject({
  k: num,
  tau: num,
  questions: num,
  primaryMetric: z.string().optional(),
  acceptance: obj.optional(),
  configs: z.array(configSchema),
  skipped: z.array(obj).optional(),
  errors: z.array(obj).optional(),
});

const rankingV2Schema = z.looseObject({
  verdict: obj,
  configs: z.array(z.looseObject({ id: z.string(), rank: num, cost: obj })),
});

const FIX = 'the run file is damaged or was edited by hand: copy the whole run folder again, or re-run `spanproof run`.';

function check<T>(schema: z.ZodType, value: unknown, file: string, what: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data as T; // unknown keys kept (loose objects), defaults filled in
  const issue = r.error.issues[0];
  const got = issue.message.replace(/^Invalid input: /, '');
  throw new SpanproofError('bad-input', `${what} has a wrong field: ${got}.`, { file, field: jsonPath(issue.path), fix: FIX });
}

/** `value` (a parsed run.json) when it has the run file's shape, else SpanproofError('bad-input') naming `file` and the field. */
export function checkRunFile<T>(value: unknown, file: string): T {
  return check<T>(runSchema, value, file, 'run.json');
}

/** The same for results.json. */
export function checkResultsFile<T>(value: unknown, file: string): T {
  return check<T>(resultsSchema, value, file, 'results.json');
}

/** The same for a format-2 ranking.json (format 1, an array, is passed through as before). */
export function checkRankingFile(value: unknown, file: string): unknown {
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && (value as { spanproof?: unknown }).spanproof === 2) return check(rankingV2Schema, value, file, 'ranking.json');
  return value;
}
