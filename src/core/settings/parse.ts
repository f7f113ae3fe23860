/**
 * Reading run settings (the CLI `--config FILE` JSON, the VS Code settings) against the one schema
 * (./schema.ts). Keys are those of RunSettings, with or without the `spanproof.` prefix of VS Code's
 * settings.json, nested (`{"weights": {"quality": 1}}`) or dotted (`"weights.quality": 1`); missing
 * keys take their defaults. {@link parseRunSettings} is strict (an unknown key or a wrong value is a
 * SpanproofError('bad-input') naming the file, the key and the fix); {@link coerceRunSettings} is
 * lenient, for the editor (a wrong value falls back to its default and is reported).
 */
import { parseJsonText } from '../files/jsonText';
import { MAX_SETTINGS_FILE_BYTES, readRegularTextSync } from '../files/read';
import type { z } from 'zod';
import { SpanproofError, errorOfProblems, isSpanproofError, type SpanproofProblem } from '../errors';
import { validateChunkerParams } from '../chunking/params';
import { resolvePrimaryMetric } from '../metrics/registry';
import { MIN_RESAMPLES, RUN_SETTINGS_SCHEMA } from './schema';
import { closestName } from '../text/similar';
import { settingValues } from './walk';
import { expectedItemText, expectedValueText, settingAt, settingKeysAt } from './describe';
import type { RunSettings } from './types';

const PREFIX = 'spanproof.';

const isPlainObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** `b` merged into `a`, objects key by key (b wins for anything else). */
export function deepMerge(a: unknown, b: unknown): unknown {
  if (!isPlainObject(a) || !isPlainObject(b)) return b;
  const out: Record<string, unknown> = { ...a };
  // defineProperty: a key named `__proto__` stays an own (unknown, hence rejected) key, never a prototype
  for (const [k, v] of Object.entries(b)) Object.defineProperty(out, k, { value: Object.hasOwn(out, k) ? deepMerge(out[k], v) : v, enumerable: true, writable: true, configurable: true });
  return out;
}

/**
 * The input with VS Code's `spanproof.` prefix removed and dotted keys nested
 * (`"chunkerParams.fixed.size": 500` → `{chunkerParams: {fixed: {size: 500}}}`); anything else as is.
 */
export function normaliseKeys(input: unknown): unknown {
  if (!isPlainObject(input)) return input;
  let out: Record<string, unknown> = {};
  for (const [raw, v] of Object.entries(input)) {
    const path = (raw.startsWith(PREFIX) ? raw.slice(PREFIX.length) : raw).split('.');
    const nested = path.reduceRight<unknown>((acc, seg) => ({ [seg]: acc }), v) as Record<string, unknown>;
    out = deepMerge(out, nested) as Record<string, unknown>;
  }
  return out;
}

/** A key path as the user reads it: dotted keys, list positions in brackets (`retrievers[0]`, `chunkerParams.heading.bogus`). */
function keyPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : acc ? `${acc}.${String(seg)}` : String(seg)), '');
}

/** A value quoted for a message (JSON, at most 60 characters; a number out of a double's range, `1e400`, is `Infinity`, not JSON's `null`). */
function shown(x: unknown): string {
  const j = typeof x === 'number' ? String(x) : JSON.stringify(x) ?? String(x);
  return j.length > 60 ? `${j.slice(0, 57)}…` : j;
}

/** One zod issue of the settings schema as problems: the full key path, what is wrong, and a fix naming the expected type or values (./describe.ts). */
function problemsOfIssue(issue: z.core.$ZodIssue, input: unknown, prefix: string): SpanproofProblem[] {
  if (issue.code === 'unrecognized_keys') {
    const valid = settingKeysAt(issue.path as Array<string | number>);
    const where = issue.path.length ? `the keys of ${keyPath(issue.path)}` : 'the settings';
    return issue.keys.map((key) => {
      const near = closestName(key, valid);
      return {
        field: `${prefix}${keyPath([...issue.path, key])}`,
        message: near ? `unknown key; did you mean "${near}"?` : 'unknown key.',
        fix: near ? `rename it to "${near}", or remove it (${where}: ${valid.join(', ')}).` : valid.length ? `remove it, or use one of ${where}: ${valid.join(', ')}.` : 'remove it.',
      };
    });
  }
  const field = `${prefix}${keyPath(issue.path)}` || '(root)';
  const v = settingAt(issue.path as Array<string | number>);
  const given = getPath(input, issue.path.map(String).join('.'));
  const message = `${shown(given)} is not valid (${issue.message.replace(/^Invalid input$/, 'matches none of the accepted forms')}).`;
  if (!v) return [{ field, message, fix: `give ${field} a value of the documented form.` }];
  // a refinement's own fix (`params.fix`: the include/exclude globs) says more than the value's type
  if (issue.code === 'custom' && typeof issue.params?.fix === 'string') return [{ field, message, fix: `${issue.params.fix}.` }];
  const whole = v.path === issue.path.map(String).join('.');
  const fix = whole
    ? `set ${prefix}${v.path} to ${expectedValueText(v)}, e.g. ${shown(v.default)} (the default).`
    : `make ${field} ${expectedItemText(v)} (${prefix}${v.path} is ${expectedValueText(v)}).`;
  return [{ field, message, fix }];
}

/**
 * Validates `input` (parsed JSON) against the schema and fills in the defaults.
 * @param file the file the object came from, named in errors.
 * @param keyPrefix how that file spells the keys, put before each key named in errors: `spanproof.`
 *   for a `.vscode/settings.json` (`spanproof.k`), nothing for a `--config` file (`k`).
 * @throws SpanproofError('bad-input') naming `file` and every problem: the full key path
 *   (`chunkerParams.heading.bogus`), what is wrong, and the fix (the expected type or values, or the
 *   valid keys at that place). Several problems are listed one per line; `field`/`fix` are the first's.
 */
export function parseRunSettings(input: unknown, file = '--config', keyPrefix = ''): RunSettings {
  // zod's own words for a top-level array were "(root): undefined is not valid" (a fresh user's finding)
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    const what = Array.isArray(input) ? 'an array' : input === null ? 'null' : `a ${typeof input}`;
    throw new SpanproofError('bad-input', `a settings file holds one JSON object of settings, not ${what}.`, { file, fix: 'write the settings as keys of one object, e.g. {"chunkers": ["heading", "fixed"], "k": 5}.' });
  }
  const normalised = normaliseKeys(input);
  const r = RUN_SETTINGS_SCHEMA.safeParse(normalised);
  if (r.success) return r.data;
  throw settingsError(settingsProblems(r.error.issues, normalised, keyPrefix), file);
}

/** The problems of the zod issues of the settings schema (see {@link parseRunSettings}). */
function settingsProblems(issues: readonly z.core.$ZodIssue[], input: unknown, prefix: string): SpanproofProblem[] {
  return issues.flatMap((i) => problemsOfIssue(i, input, prefix));
}

/** One bad-input error for the settings problems of one or more files (each problem names its file). */
export function settingsError(problems: readonly SpanproofProblem[], file?: string): SpanproofError {
  return errorOfProblems('bad-input', problems, `${problems.length} settings are wrong:`, file);
}

/**
 * Reads a settings JSON file (`--config FILE`) and parses it with {@link parseRunSettings}.
 * @throws SpanproofError('not-found') when the file cannot be read; ('bad-input') for bad JSON or a bad key.
 */
export function readSettingsFile(file: string): RunSettings {
  return parseRunSettings(parseJsonText(readConfigText(file), file, 'fix the JSON syntax at that line and column.'), file);
}

/**
 * The text of a `--config` file, read with src/core/files/read.ts's checks.
 * @throws SpanproofError('not-found') when it cannot be opened; ('bad-input') for a FIFO, a device or a
 *   file over {@link MAX_SETTINGS_FILE_BYTES}.
 */
export function readConfigText(file: string): string {
  try {
    return readRegularTextSync(file, MAX_SETTINGS_FILE_BYTES, { what: 'the config file' });
  } catch (e) {
    if (isSpanproofError(e)) throw e;
    throw new SpanproofError('not-found', 'cannot read the config file.', { file, fix: 'check the --config path.', cause: e });
  }
}

export function getPath(o: unknown, path: string): unknown {
  let x = o;
  for (const seg of path.split('.')) x = x && typeof x === 'object' ? (x as Record<string, unknown>)[seg] : undefined;
  return x;
}

function setPath(o: Record<string, unknown>, path: string, v: unknown): void {
  const segs = path.split('.');
  let x = o;
  for (const seg of segs.slice(0, -1)) x = (x[seg] ??= {}) as Record<string, unknown>;
  x[segs[segs.length - 1]] = v;
}

/** The JSON kind of a value: `array`, `null`, or its `typeof`. */
const kindOf = (x: unknown): string => (Array.isArray(x) ? 'array' : x === null ? 'null' : typeof x);

/**
 * Lenient reading for the editor (VS Code lets settings.json hold anything): every value of the
 * schema is taken from `input` when it has the right JSON kind (number, string, boolean, array) and
 * kept as given — its range is checked by {@link parseRunSettings} when a run starts, with an error
 * naming the key; a missing value takes its default; a value of the wrong kind takes its default and
 * is listed in `rejected`. Unknown keys are ignored.
 */
export function coerceRunSettings(input: unknown): { settings: RunSettings; rejected: Array<{ key: string; message: string }> } {
  const src = normaliseKeys(input);
  const out: Record<string, unknown> = {};
  const rejected: Array<{ key: string; message: string }> = [];
  for (const v of settingValues()) {
    const given = getPath(src, v.path);
    const ok = given !== undefined && given !== null && kindOf(given) === kindOf(v.default);
    if (!ok && given !== undefined && given !== null) rejected.push({ key: v.path, message: `expected ${kindOf(v.default)}, got ${kindOf(given)}; the default ${JSON.stringify(v.default)} is used` });
    setPath(out, v.path, ok ? given : structuredClone(v.default));
  }
  return { settings: out as RunSettings, rejected };
}

/** The settings with every restricted value (model folders, endpoints: schema `restricted`) at its default, for an untrusted workspace. */
export function withoutRestricted(s: RunSettings): RunSettings {
  const out = structuredClone(s) as unknown as Record<string, unknown>;
  for (const v of settingValues()) if (v.meta.restricted) setPath(out, v.path, structuredClone(v.default));
  return out as unknown as RunSettings;
}
/** Where each checked key came from, so a message names what the user must change. */
export interface SettingsSource {
  /** The settings file (`--config` path, `settings`), named when a key did not come from a flag. */
  file?: string;
  /** Settings keys set by command-line flags, mapped to the flag (`{ k: '--k' }`). */
  flags?: Partial<Record<keyof RunSettings, string>>;
  /** The flags the command offers for settings (`{ poolSize: '--pool' }`): a fix naming a key not set by its flag names the flag too. */
  offered?: Partial<Record<keyof RunSettings, string>>;
}

export { MIN_RESAMPLES } from './schema';

/**
 * Largest result list (`k`) and candidate pool (`poolSize`) a run accepts: beyond it a value is a slip
 * (`--k 1000000` would rank and score a million candidates per question and config), not a setting.
 */
export const MAX_RESULT_LIST = 10_000;

/**
 * Checks across keys that the per-key schema of {@link parseRunSettings} cannot express, before a run
 * starts (not mid-run): the parameters of every selected chunker (validateChunkerParams, e.g.
 * `fixed.overlap` < `fixed.size`), `k ≤ poolSize` (a result list is the head of the candidate pool),
 * `k ≥ 1`, `tau` in (0, 1], `primaryMetric` valid at k and poolSize (`hit@12` needs poolSize ≥ 12),
 * `verdict.margin` in (0, 1), ranking weights ≥ 0, `bootstrap.resamples` ≥ {@link MIN_RESAMPLES},
 * `minQuoteLength` ≤ `maxQuoteLength`.
 * @throws SpanproofError('bad-input') naming the file or the flag, the key and the fix — every problem
 *   found, one per line when there are several (`field`/`fix` are the first's).
 */
export function validateRunSettings(s: RunSettings, source: SettingsSource = {}): void {
  const flag = (key: keyof RunSettings) => source.flags?.[key];
  const problems: SpanproofProblem[] = [];
  const bad = (key: keyof RunSettings, field: string, message: string, fix: string): void => {
    const f = flag(key);
    problems.push(f ? { field: f, message, fix } : { file: source.file, field, message, fix });
  };
  for (const c of s.chunkers) {
    try {
      validateChunkerParams(c, s.chunkerParams);
    } catch (e) {
      if (!isSpanproofError(e)) throw e;
      const bare = e.message.replace(`${e.field}: `, '').replace(` Fix: ${e.fix}`, '');
      bad('chunkerParams', e.field ?? 'chunkerParams', bare, e.fix ?? 'fix chunkerParams.');
    }
  }
  const name = (key: keyof RunSettings) => flag(key) ?? (source.offered?.[key] ? `${source.offered[key]} (setting ${key})` : key);
  const before = problems.length;
  if (!(Number.isInteger(s.k) && s.k >= 1)) bad('k', 'k', `k is ${s.k}; it must be a whole number ≥ 1.`, `set ${name('k')} to 1 or more.`);
  if (!(Number.isInteger(s.poolSize) && s.poolSize >= 1)) bad('poolSize', 'poolSize', `poolSize is ${s.poolSize}; it must be a whole number ≥ 1.`, `set ${name('poolSize')} to 1 or more.`);
  for (const key of ['k', 'poolSize'] as const) {
    if (s[key] > MAX_RESULT_LIST) bad(key, key, `${key} is ${s[key]}; at most ${MAX_RESULT_LIST} is accepted.`, `set ${name(key)} to at most ${MAX_RESULT_LIST} (the defaults are k ${5}, poolSize ${20}).`);
  }
  if (s.k > s.poolSize) {
    const key: keyof RunSettings = flag('k') || !flag('poolSize') ? 'k' : 'poolSize';
    bad(key, key, `k (${s.k}) is larger than the candidate pool poolSize (${s.poolSize}); the result list is the head of the pool.`, `lower ${name('k')} to at most ${s.poolSize}, or raise ${name('poolSize')} to at least ${s.k}.`);
  }
  const kOk = problems.length === before; // the primary metric is checked at a valid k and poolSize only (hit@k at k = 30 > poolSize is the k problem)
  if (!(s.tau > 0 && s.tau <= 1)) bad('tau', 'tau', `tau is ${s.tau}; it must be in (0, 1].`, `set ${name('tau')} to a number greater than 0 and at most 1, e.g. 0.9.`);
  try {
    if (kOk) resolvePrimaryMetric(s.primaryMetric, s.k, s.poolSize);
  } catch (e) {
    if (!isSpanproofError(e)) throw e;
    bad('primaryMetric', 'primaryMetric', e.message.replace(`${e.field}: `, '').replace(` Fix: ${e.fix}`, ''), e.fix ?? 'set primaryMetric to hit@k.');
  }
  if (!(Number.isInteger(s.bootstrap.resamples) && s.bootstrap.resamples >= MIN_RESAMPLES)) {
    bad('bootstrap', 'bootstrap.resamples', `bootstrap.resamples is ${s.bootstrap.resamples}; the verdict's 95% intervals and p-values need at least ${MIN_RESAMPLES} resamples.`, 'set bootstrap.resamples to 2000 (the default) or at least 100.');
  }
  if (s.minQuoteLength > s.maxQuoteLength) {
    bad('minQuoteLength', 'minQuoteLength', `minQuoteLength (${s.minQuoteLength}) is larger than maxQuoteLength (${s.maxQuoteLength}), so every quote would be rejected.`, `lower ${name('minQuoteLength')} or raise ${name('maxQuoteLength')}.`);
  }
  if (!(s.verdict.margin > 0 && s.verdict.margin < 1)) bad('verdict', 'verdict.margin', `verdict.margin is ${s.verdict.margin}; the non-inferiority margin must be in (0, 1).`, 'set verdict.margin to e.g. 0.05.');
  for (const w of ['quality', 'latency', 'context'] as const) {
    const v = s.weights[w];
    if (!(Number.isFinite(v) && v >= 0)) bad('weights', `weights.${w}`, `weights.${w} is ${v}; ranking weights must be ≥ 0 (latency and context are subtracted already).`, `set weights.${w} to 0 or more.`);
  }
  const names = s.externalRetrievers.map((r) => r.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) bad('externalRetrievers', 'externalRetrievers', `two external retrievers are named "${dup}"; the name is the config id external/<name>/none.`, 'give each external retriever its own name (--retriever-name NAME).');
  if (problems.length) throw errorOfProblems('bad-input', problems, `${problems.length} settings are wrong:`);
}
