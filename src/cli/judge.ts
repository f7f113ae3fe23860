/**
 * CLI glue of the generation loop and judges (SPEC §14): the shared flags of `spanproof run
 * --generate`, `spanproof generate <run dir>` and `spanproof score azure|ragas --endpoint …`. The API
 * key comes only from the environment variable SPANPROOF_API_KEY (never from a settings file). SIGINT
 * cancels the loop; what finished is kept (answers.jsonl, ledger.json consistent, status cancelled).
 */
import { MAX_SETTINGS_FILE_BYTES, readRegularTextSync } from '../core/files/read';
import type { Command } from 'commander';
import { z } from 'zod';
import { SpanproofError, isSpanproofError } from '../core/errors';
import { jsonParseError } from '../core/files';
import { errnoCode } from '../core/fsErrors';
import { ANSWER_QUALITY_ORDER, ChatClient, RequestFailure, JUDGE_METRICS, everyRequestFailed, ReplyCache, checkModels, judgeAnswer, runGenerationStage, unmeasuredReasons, type AnswerAggregate, type GenerationStageResult, type JudgeMetric, type JudgeScore, type LedgerFile, type PriceTable } from '../core/judge';
import { readRun, resolveCacheDir } from '../core/runs';
import { ledgerLine } from '../core/judge/report';
import { MAX_CONCURRENCY, MAX_RETRIES, MAX_TIMEOUT_MS, type RunSettings } from '../core/settings';
import { wholeFlag } from './flags';

export { ledgerLine };
import type { AnswerItem, AnswerJudge } from '../core/score/answers';
import { join } from 'node:path';
import { assertHttpUrl, redactUrl } from '../core/net';
import { terminalSafe } from '../core/text/terminal';
import { onCancelSignal } from './cancel';

export interface JudgeCliOptions {
  generate?: boolean;
  endpoint?: string;
  generatorModel?: string;
  judgeModel?: string;
  generateConfigs?: string;
  judgeRepeats?: string;
  judgeMetrics?: string;
  judgePrices?: string;
  judgeCacheDir?: string;
  judgeCache?: boolean;
  judgeConcurrency?: string;
  judgeTimeout?: string;
  judgeRetries?: string;
  allowSameModel?: boolean;
}

const list = (s: string | undefined) => (s ?? '').split(',').map((x) => x.trim()).filter(Boolean);

/** Adds the endpoint/judge flags shared by run, generate and score. */
export function addJudgeOptions(cmd: Command, withGenerator: boolean): Command {
  cmd
    .option('--endpoint <url>', 'OpenAI-compatible base URL, e.g. http://localhost:11434/v1 (Ollama); key from SPANPROOF_API_KEY', (v: string) => assertHttpUrl(v, '--endpoint'))
    .option('--judge-model <name>', 'model that judges the answers (must differ from the generator unless --allow-same-model)')
    .option('--judge-metrics <list>', `judge metrics (default all: ${JUDGE_METRICS.join(',')})`)
    .option('--judge-concurrency <n>', 'requests in flight at most (default settings judge.concurrency, 4)')
    .option('--judge-timeout <ms>', 'cut each request after this many ms (default settings judge.timeoutMs, 60000)')
    .option('--judge-retries <n>', 'retries of a failed or timed-out request, 0 for none (default settings judge.retries, 3)')
    .option('--judge-prices <file>', 'JSON price table {"model": {"input": per1M, "output": per1M}} for the ledger cost')
    .option('--judge-cache-dir <dir>', 'reply cache folder (default <workspace>/.spanproof/cache/judge)')
    .option('--no-judge-cache', 'do not read or write the reply cache');
  if (withGenerator) {
    cmd
      .option('--generator-model <name>', 'model that answers the questions')
      .option('--generate-configs <ids>', 'configs to answer with (default: recommended, next two, worst)')
      .option('--judge-repeats <n>', 'ask each judge n times (cache bypassed) and report spread and agreement')
      .option('--allow-same-model', 'let the generator judge its own answers (flagged in every report)');
  }
  return cmd;
}

/** Most judge repeats (`--judge-repeats`): each repeat grades every answer again on a possibly paid endpoint, uncached. */
const MAX_JUDGE_REPEATS = 20;

/** `v` of `flag` as a whole number from `min` to `max` (undefined when the flag is absent); see {@link wholeFlag}. */
function intOption(v: string | undefined, flag: string, min: number, max: number, example = Math.max(min, 2)): number | undefined {
  return v === undefined ? undefined : wholeFlag(flag, v, min, max, example);
}

const priceSchema = z.record(z.string(), z.object({ input: z.number().nonnegative(), output: z.number().nonnegative() }));

export function readPrices(file: string | undefined): PriceTable | undefined {
  if (!file) return undefined;
  const fix = 'pass a JSON file like {"gpt-4o-mini": {"input": 0.15, "output": 0.6}} (per 1M tokens).';
  let text: string;
  try {
    text = readRegularTextSync(file, MAX_SETTINGS_FILE_BYTES, { what: 'the price table' });
  } catch (e) {
    if (isSpanproofError(e)) throw e;
    throw new SpanproofError('bad-input', `cannot read the price table (${errnoCode(e) ?? String(e)}).`, { file, field: '--judge-prices', fix, cause: e });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw jsonParseError(text, file, `correct the JSON syntax there; ${fix}`, e);
  }
  const p = priceSchema.safeParse(raw);
  if (!p.success) throw new SpanproofError('bad-input', `price table: ${p.error.issues[0].path.join('.')}: ${p.error.issues[0].message}`, { file, field: '--judge-prices', fix: 'each model needs numeric "input" and "output" prices per 1M tokens.' });
  return p.data;
}

export function judgeMetricsOption(v: string | undefined): JudgeMetric[] | undefined {
  const m = list(v);
  if (!m.length) return undefined;
  for (const x of m) if (!(JUDGE_METRICS as readonly string[]).includes(x)) throw new SpanproofError('bad-input', `unknown judge metric "${x}".`, { field: '--judge-metrics', fix: `use some of ${JUDGE_METRICS.join(', ')}.` });
  return m as JudgeMetric[];
}

/** Judge settings from the run settings overridden by the flags. */
export function judgeSettings(base: RunSettings['judge'], o: JudgeCliOptions): RunSettings['judge'] {
  return { ...base, ...judgeFlagSettings(o) };
}

/** The judge settings the flags set (each value checked: exit 2 naming the flag). */
function judgeFlagSettings(o: JudgeCliOptions): Partial<RunSettings['judge']> {
  return {
    ...(o.endpoint ? { endpoint: o.endpoint } : {}),
    ...(o.generatorModel ? { generatorModel: o.generatorModel } : {}),
    ...(o.judgeModel ? { judgeModel: o.judgeModel } : {}),
    ...(o.allowSameModel ? { allowSameModel: true } : {}),
    ...(o.judgeConcurrency !== undefined ? { concurrency: intOption(o.judgeConcurrency, '--judge-concurrency', 1, MAX_CONCURRENCY)! } : {}),
    ...(o.judgeTimeout !== undefined ? { timeoutMs: intOption(o.judgeTimeout, '--judge-timeout', 1, MAX_TIMEOUT_MS, 30000)! } : {}),
    ...(o.judgeRetries !== undefined ? { retries: intOption(o.judgeRetries, '--judge-retries', 0, MAX_RETRIES, 1)! } : {}),
  };
}

/** Every judge flag's value parsed (exit 2 naming the flag), before anything is read or sent. */
function parseJudgeFlags(o: JudgeCliOptions) {
  return {
    overrides: judgeFlagSettings(o),
    repeats: intOption(o.judgeRepeats, '--judge-repeats', 1, MAX_JUDGE_REPEATS),
    metrics: judgeMetricsOption(o.judgeMetrics),
    prices: readPrices(o.judgePrices),
  };
}

const fmt = (x: number | null | undefined, d = 2) => (x === null || x === undefined ? '—' : x.toFixed(d));


/** Human-readable summary of a generation stage. */
export function generationText(r: GenerationStageResult): string[] {
  const s = r.summary;
  const out = [`Answers: generator ${s.generatorModel}, judge ${s.judgeModel}${s.sameModel ? ' — WARNING: the same model generated and judged (judges favour their own output)' : ''}; ${r.records.length} answer(s)${r.status === 'cancelled' ? ' (cancelled: the answers finished so far were kept)' : ''}.`];
  const metrics = JUDGE_METRICS.filter((m) => m in (s.configs[0]?.metrics ?? {}));
  const judgedY = metrics.includes(s.correlation.y);
  for (const c of s.configs) {
    out.push(`  ${c.id}`);
    for (const m of metrics) {
      const a: AnswerAggregate = c.metrics[m];
      // The most common reason for the unmeasured items, so "0/10" is never a mystery.
      const reasons = unmeasuredReasons(r.records, c.id, m);
      const top = reasons[0];
      out.push(`    ${m.padEnd(18)} ${fmt(a.mean)} [${fmt(a.lo)}, ${fmt(a.hi)}]  measured ${a.measured}/${a.total}${a.flaky !== undefined ? `  repeats: spread ${fmt(a.spread)}, agreement ${fmt(a.agreement)}, ${a.flaky} flaky` : ''}${top ? `  unmeasured: ${top[0]}${reasons.length > 1 ? ` (${top[1]}×, and ${reasons.length - 1} other reason(s))` : ''}` : ''}`);
    }
    if (judgedY) out.push(`    r(coverage@5, ${s.correlation.y}) = ${fmt(c.correlation.r)} [${fmt(c.correlation.lo)}, ${fmt(c.correlation.hi)}], n = ${c.correlation.n}`);
  }
  out.push(judgedY
    ? `  pooled r(coverage@5, ${s.correlation.y}) = ${fmt(s.correlation.pooled.r)} [${fmt(s.correlation.pooled.lo)}, ${fmt(s.correlation.pooled.hi)}], n = ${s.correlation.pooled.n}`
    : `  r(coverage@5, answer quality): not computed — no answer-quality judge among ${metrics.join(', ')} (add one of ${ANSWER_QUALITY_ORDER.join(', ')} to --judge-metrics).`);
  out.push(ledgerLine(r.ledger));
  // A partial failure keeps the stage succeeded, but is never silent (#16 item 16).
  const failed = Object.entries(r.ledger.byModel).filter(([, c]) => c.failures > 0);
  if (failed.length) out.push(`Warning: ${failed.map(([m, c]) => `${m}: ${c.failures} of ${c.requests} request(s) failed`).join('; ')} (retries included); the unmeasured items above say why.`);
  else {
    const judged = r.records.flatMap((x) => Object.values(x.judges).filter(Boolean));
    const unread = judged.filter((j) => j && 'unmeasured' in j).length;
    if (unread) out.push(`Warning: ${unread} of ${judged.length} judgement(s) unmeasured (no request failed: replies the judge could not be read from, or unjudgeable answers); the unmeasured items above say why.`);
  }
  return out;
}

/** Where the generation stage sends and reads from — chosen by the user, never by the run's files (#16 item 1). */
export interface GenerateTarget {
  /** The endpoint: `--endpoint`, or for `run --generate` the run's own settings (`--config`). Never run.json of an earlier run. */
  endpoint: string;
  /** The workspace whose documents are read (`run --workspace`, `generate --workspace`); default the one holding the run directory. */
  workspace?: string;
  /** The ground-truth file with the reference answers (`--groundtruth`); default run.json's when inside the workspace. */
  groundTruthFile?: string;
  /** Judge settings over run.json's (`generate`: the workspace's .vscode/settings.json `spanproof.judge.*`); the flags win over both. */
  judge?: Partial<RunSettings['judge']>;
  /** `run --generate`: the run directory was just made by the grid, so a failure says where it is. */
  freshRun?: boolean;
}

/** The line printed before the first request: where the data goes (credentials redacted, terminal-safe). */
export function sendingLine(endpoint: string, generatorModel: string | undefined, judgeModel: string | undefined): string {
  return terminalSafe(`Sending questions, retrieved passages and answers to ${redactUrl(endpoint)} (generator ${generatorModel || '—'}, judge ${judgeModel || '—'}).`);
}

/**
 * Runs the generation stage on `runDir` with the flags; SIGINT cancels. Prints the endpoint on stderr
 * before the first request; progress goes to stderr unless `json`. Returns the stage result (status
 * `cancelled` when interrupted).
 */
export async function runGenerateStep(runDir: string, target: GenerateTarget, o: JudgeCliOptions, json: boolean): Promise<GenerationStageResult> {
  // A wrong flag value is a plain flag error (exit 2), before anything is read, sent or written.
  const flags = parseJudgeFlags(o);
  // Checked before anything is printed or sent; a mistake here generated nothing, so no ledger is named.
  if (!target.endpoint) throw new SpanproofError('bad-input', 'no endpoint given; the endpoint is never taken from a run\'s files (a shared run folder must not choose where your questions, passages and API key go).', { field: '--endpoint', fix: 'pass --endpoint URL, e.g. http://localhost:11434/v1 for Ollama.' });
  assertHttpUrl(target.endpoint, '--endpoint');
  const judge = { ...readRun(runDir).run.settings.judge, ...target.judge, ...flags.overrides, endpoint: target.endpoint };
  checkModels(judge.generatorModel, judge.judgeModel, judge.allowSameModel);
  const ac = new AbortController();
  const onSigint = () => {
    if (ac.signal.aborted) return; // a second signal while cancelling: said once (./cancel.ts absorbs it)
    if (!json) process.stderr.write('\ncancelling generation…\n');
    ac.abort();
  };
  const offSigint = onCancelSignal(onSigint); // Ctrl-C and SIGTERM alike (../cancel.ts)
  let last = 0;
  try {
    process.stderr.write(`${sendingLine(judge.endpoint, judge.generatorModel, judge.judgeModel)}\n`);
    return await runGenerationStage(runDir, {
      judge,
      workspace: target.workspace,
      groundTruthFile: target.groundTruthFile,
      apiKey: process.env.SPANPROOF_API_KEY,
      configs: list(o.generateConfigs),
      repeats: flags.repeats,
      metrics: flags.metrics,
      prices: flags.prices,
      cacheDir: o.judgeCacheDir,
      noCache: o.judgeCache === false,
      signal: ac.signal,
      onProgress: (done, total, stage) => {
        if (json || (Date.now() - last < 1000 && done !== total)) return;
        last = Date.now();
        process.stderr.write(`progress ${done}/${total} ${stage}\n`);
      },
    });
  } catch (e) {
    // A grid run that just finished is complete and kept: say where, so a failed generation never hides
    // it; the ledger only when this attempt wrote one (status failed).
    if (e instanceof SpanproofError && e.code !== 'cancelled') {
      // Status failed is claimed only when the stage wrote it (it sets runDir then); else nothing was written.
      const where = [
        target.freshRun ? `The run (retrieval results) is in ${runDir}.` : '',
        e.runDir ? `Answers status failed (ledger.json); after fixing, re-run: spanproof generate ${JSON.stringify(runDir)} --overwrite …` : target.freshRun ? `No answers were written; after fixing, run: spanproof generate ${JSON.stringify(runDir)} …` : '',
      ].filter(Boolean).join(' ');
      if (where) throw new SpanproofError(e.code, `${e.message} ${where}`, { cause: e }); // e.message already names the file, field and fix
    }
    throw e;
  } finally {
    offSigint();
  }
}

/**
 * Judges for `spanproof score azure|ragas` (answer-level datasets: the answers exist, no generator):
 * every item is judged up front, concurrently within the client's limits; each returned AnswerJudge
 * (one per metric, named `judge:<metric>`) reads its item's result. Returns undefined when no endpoint
 * was given. `ledger()` gives the ledger after scoring (status `failed` when every request failed).
 */
export function judgesForScore(o: JudgeCliOptions, items: readonly AnswerItem[], workspace = '.'): { judges: AnswerJudge[]; ledger(): LedgerFile } | undefined {
  if (!o.endpoint) return undefined;
  if (!o.judgeModel) throw new SpanproofError('bad-input', '--endpoint needs --judge-model.', { field: '--judge-model', fix: 'name the model that judges, e.g. --judge-model llama3.1:8b.' });
  const metrics = judgeMetricsOption(o.judgeMetrics) ?? [...JUDGE_METRICS];
  process.stderr.write(`${sendingLine(o.endpoint, undefined, o.judgeModel).replace('questions, retrieved passages and answers', 'the questions, contexts and answers of the dataset')}\n`);
  const flags = judgeFlagSettings(o);
  const client = new ChatClient({
    endpoint: o.endpoint,
    apiKey: process.env.SPANPROOF_API_KEY,
    concurrency: flags.concurrency ?? 4,
    timeoutMs: flags.timeoutMs,
    retries: flags.retries,
    prices: readPrices(o.judgePrices),
    cache: o.judgeCache === false ? undefined : new ReplyCache(o.judgeCacheDir ?? join(resolveCacheDir(workspace), 'judge')),
  });
  const results = new Map<AnswerItem, Promise<Partial<Record<JudgeMetric, JudgeScore>>>>();
  for (const it of items) {
    results.set(
      it,
      judgeAnswer({ question: it.question, answer: it.response, contexts: it.contexts.map((text, i) => ({ source: `context ${i + 1}`, text })), reference: it.references[0] }, { client, judgeModel: o.judgeModel }, metrics),
    );
  }
  // A fatal error surfaces on the first await; avoid unhandled rejections for the others.
  for (const p of results.values()) p.catch(() => {});
  const judges: AnswerJudge[] = metrics.map((m) => ({
    name: `judge:${m}`,
    async judge(it: AnswerItem) {
      let all: Partial<Record<JudgeMetric, JudgeScore>>;
      try {
        all = await results.get(it)!;
      } catch (e) {
        if (e instanceof RequestFailure) throw new SpanproofError('bad-input', e.message, { field: '--endpoint', fix: e.fix ?? 'check the endpoint URL, the model name and SPANPROOF_API_KEY.' });
        throw e;
      }
      const r = all[m]!;
      return 'unmeasured' in r ? r : { score: r.score, reason: r.reason };
    },
  }));
  const ledger = (): LedgerFile => {
    const l = client.ledger.snapshot({ status: 'succeeded', items: { done: items.length, total: items.length }, sameModel: false });
    return everyRequestFailed(l) ? { ...l, status: 'failed' } : l;
  };
  return { judges, ledger };
}

/** Fails fast (before the grid runs) when `--generate` lacks an endpoint or models, or uses one model for both without --allow-same-model. */
export function validateGenerateOptions(settings: RunSettings, o: JudgeCliOptions): void {
  if (!o.generate) return;
  parseJudgeFlags(o);
  const j = judgeSettings(settings.judge, o);
  if (!j.endpoint) throw new SpanproofError('bad-input', '--generate needs an endpoint.', { field: '--endpoint', fix: 'pass --endpoint URL, e.g. http://localhost:11434/v1 for Ollama.' });
  assertHttpUrl(j.endpoint, o.endpoint ? '--endpoint' : 'judge.endpoint');
  checkModels(j.generatorModel, j.judgeModel, j.allowSameModel);
}
