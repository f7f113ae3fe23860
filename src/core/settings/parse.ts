/**
 * Validation of run settings (the CLI `--config FILE` JSON, the VS Code settings) with zod. Keys are
 * those of RunSettings (src/core/settings), with or without the `spanproof.` prefix of VS Code's
 * settings.json; missing keys take DEFAULT_SETTINGS; an unknown key
 * or a wrong value is a SpanproofError('bad-input') naming the file, the key and the fix.
 */
import { z } from 'zod';
import { SpanproofError, isSpanproofError } from '../errors';
import { validateChunkerParams } from '../chunking/params';
import { resolvePrimaryMetric } from '../metrics/registry';
import { DEFAULT_SETTINGS, type RunSettings } from './types';

const chunker = z.enum(['fixed', 'recursive', 'sentence', 'heading', 'semantic']);
const retriever = z.enum(['bm25', 'dense', 'hybrid']);
const posInt = z.number().int().positive();

const schema = z
  .object({
    include: z.array(z.string()),
    exclude: z.array(z.string()),
    maxFileBytes: posInt,
    groundTruthPath: z.string(),
    minQuoteLength: z.number().int().nonnegative(),
    maxQuoteLength: posInt,
    chunkers: z.array(chunker).min(1),
    chunkerParams: z
      .object({
        fixed: z.object({ size: posInt, overlap: z.number().int().nonnegative() }).strict().partial(),
        recursive: z.object({ size: posInt, overlap: z.number().int().nonnegative() }).strict().partial(),
        sentence: z.object({ size: posInt }).strict().partial(),
        heading: z.object({ maxSize: posInt }).strict().partial(),
        semantic: z.object({ minSize: z.number().int().nonnegative(), maxSize: posInt, percentile: z.number().min(0).max(100), windowSentences: z.number().int().nonnegative() }).strict().partial(),
      })
      .strict()
      .partial(),
    retrievers: z.array(retriever).min(1),
    rerank: z.array(z.boolean()).min(1),
    embeddingModel: z.string(),
    rerankerModel: z.string(),
    k: posInt,
    poolSize: posInt,
    tau: z.number().gt(0).max(1),
    weights: z.object({ quality: z.number().nonnegative(), latency: z.number().nonnegative(), context: z.number().nonnegative() }).strict().partial(),
    // Any hit@K / coverage@K / ndcg@K / mrr, or hit@k for the run's k: checked against k and poolSize in validateRunSettings.
    primaryMetric: z.string().regex(/^(hit|coverage|ndcg)@(\d+|k)$|^mrr$/, 'expected hit@K, coverage@K, ndcg@K (K a whole number or k) or mrr'),
    verdict: z.object({ margin: z.number().gt(0).lt(1) }).strict().partial(),
    bootstrap: z.object({ resamples: z.number().int().nonnegative(), seed: z.number().int() }).strict().partial(),
    threads: posInt,
    judge: z.record(z.string(), z.unknown()),
  })
  .strict()
  .partial();

/**
 * JSON Schema (draft-07) of the `--config FILE` JSON, generated from the zod schema `parseRunSettings`
 * uses (zod 4 `z.toJSONSchema`): every key optional, unknown keys refused; the `spanproof.`-prefixed
 * keys copied from VS Code's settings.json are accepted too. Cross-key checks (chunker sizes vs
 * overlaps) stay in `validateRunSettings`.
 */
export function runSettingsJsonSchema(): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as { properties: Record<string, unknown> } & Record<string, unknown>;
  for (const [k, v] of Object.entries(out.properties)) out.properties[`spanproof.${k}`] = v;
  return out;
}

/**
 * Merges `input` (parsed JSON) over DEFAULT_SETTINGS after validating it.
 * @param file the file the object came from, named in errors.
 * @throws SpanproofError('bad-input') naming `file`, the key (`chunkerParams.fixed.size`) and the fix.
 */
export function parseRunSettings(input: unknown, file = '--config'): RunSettings {
  // Keys copied from VS Code's settings.json carry the `spanproof.` prefix; accept them too.
  if (input && typeof input === 'object' && !Array.isArray(input)) {
    input = Object.fromEntries(Object.entries(input as Record<string, unknown>).map(([k, v]) => [k.startsWith('spanproof.') ? k.slice('spanproof.'.length) : k, v]));
  }
  const r = schema.safeParse(input);
  if (!r.success) {
    const issue = r.error.issues[0];
    const field = issue.path.map(String).join('.') || '(root)';
    const keys = (issue as { keys?: string[] }).keys;
    const fix = issue.code === 'unrecognized_keys' ? `remove ${keys?.join(', ')} (valid keys: ${Object.keys(DEFAULT_SETTINGS).join(', ')}).` : `give ${field} a valid value (${issue.message}).`;
    throw new SpanproofError('bad-input', `invalid setting: ${issue.message}.`, { file, field: issue.code === 'unrecognized_keys' ? keys?.join(', ') : field, fix });
  }
  const v = r.data;
  const d = DEFAULT_SETTINGS;
  return {
    ...d,
    ...(v as Partial<RunSettings>),
    chunkerParams: {
      fixed: { ...d.chunkerParams.fixed, ...v.chunkerParams?.fixed },
      recursive: { ...d.chunkerParams.recursive, ...v.chunkerParams?.recursive },
      sentence: { ...d.chunkerParams.sentence, ...v.chunkerParams?.sentence },
      heading: { ...d.chunkerParams.heading, ...v.chunkerParams?.heading },
      semantic: { ...d.chunkerParams.semantic, ...v.chunkerParams?.semantic },
    },
    weights: { ...d.weights, ...v.weights },
    verdict: { ...d.verdict, ...v.verdict },
    bootstrap: { ...d.bootstrap, ...v.bootstrap },
    judge: { ...d.judge, ...(v.judge as Partial<RunSettings['judge']> | undefined) },
  };
}

/** Where each checked key came from, so a message names what the user must change. */
export interface SettingsSource {
  /** The settings file (`--config` path, `settings`), named when a key did not come from a flag. */
  file?: string;
  /** Settings keys set by command-line flags, mapped to the flag (`{ k: '--k' }`). */
  flags?: Partial<Record<keyof RunSettings, string>>;
}

/**
 * Checks across keys that the per-key schema of {@link parseRunSettings} cannot express, before a run
 * starts (not mid-run): the parameters of every selected chunker (validateChunkerParams, e.g.
 * `fixed.overlap` < `fixed.size`), `k ≤ poolSize` (a result list is the head of the candidate pool),
 * `k ≥ 1`, `tau` in (0, 1], `primaryMetric` valid at k and poolSize (`hit@12` needs poolSize ≥ 12),
 * `verdict.margin` in (0, 1), ranking weights ≥ 0.
 * @throws SpanproofError('bad-input') naming the file or the flag, the key and the fix.
 */
export function validateRunSettings(s: RunSettings, source: SettingsSource = {}): void {
  const flag = (key: keyof RunSettings) => source.flags?.[key];
  const bad = (key: keyof RunSettings, field: string, message: string, fix: string): never => {
    throw new SpanproofError('bad-input', message, flag(key) ? { field: flag(key), fix } : { file: source.file, field, fix });
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
  const name = (key: keyof RunSettings) => flag(key) ?? key;
  if (!(Number.isInteger(s.k) && s.k >= 1)) bad('k', 'k', `k is ${s.k}; it must be a whole number ≥ 1.`, `set ${name('k')} to 1 or more.`);
  if (!(Number.isInteger(s.poolSize) && s.poolSize >= 1)) bad('poolSize', 'poolSize', `poolSize is ${s.poolSize}; it must be a whole number ≥ 1.`, `set ${name('poolSize')} to 1 or more.`);
  if (s.k > s.poolSize) {
    const key: keyof RunSettings = flag('k') || !flag('poolSize') ? 'k' : 'poolSize';
    bad(key, key, `k (${s.k}) is larger than the candidate pool poolSize (${s.poolSize}); the result list is the head of the pool.`, `lower ${name('k')} to at most ${s.poolSize}, or raise ${name('poolSize')} to at least ${s.k}.`);
  }
  if (!(s.tau > 0 && s.tau <= 1)) bad('tau', 'tau', `tau is ${s.tau}; it must be in (0, 1].`, `set ${name('tau')} to a number greater than 0 and at most 1, e.g. 0.9.`);
  try {
    resolvePrimaryMetric(s.primaryMetric, s.k, s.poolSize);
  } catch (e) {
    if (!isSpanproofError(e)) throw e;
    bad('primaryMetric', 'primaryMetric', e.message.replace(`${e.field}: `, '').replace(` Fix: ${e.fix}`, ''), e.fix ?? 'set primaryMetric to hit@k.');
  }
  if (!(s.verdict.margin > 0 && s.verdict.margin < 1)) bad('verdict', 'verdict.margin', `verdict.margin is ${s.verdict.margin}; the non-inferiority margin must be in (0, 1).`, 'set verdict.margin to e.g. 0.05.');
  for (const w of ['quality', 'latency', 'context'] as const) {
    const v = s.weights[w];
    if (!(Number.isFinite(v) && v >= 0)) bad('weights', `weights.${w}`, `weights.${w} is ${v}; ranking weights must be ≥ 0 (latency and context are subtracted already).`, `set weights.${w} to 0 or more.`);
  }
}
