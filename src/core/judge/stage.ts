/**
 * The generation stage of a run (SPEC §14), after the grid wrote its run directory: choose the configs
 * (default: the recommended config, the next two by rank, and the worst), build the items from
 * questions.jsonl (first k results of each config, texts read from the workspace documents — confined
 * to the workspace, #16 item 1), generate and judge (each finished answer appended to
 * `answers.partial.jsonl` at once), then write `answers.jsonl`, `ledger.json` and `results.json`
 * `"answers"` (all atomically, also when cancelled — then with the items finished so far and status
 * `cancelled`). The endpoint always comes from the caller, never from the run's files.
 */
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { MAX_DATA_FILE_BYTES, readRegularFileSync, readRegularTextSync } from '../files/read';
import { join, relative, resolve } from 'node:path';
import { SpanproofError, isSpanproofError } from '../errors';
import { decodeDocument } from '../corpus/decode';
import { resolveInside } from '../corpus/confine';
import { redactUrl } from '../net';
import { writeFileAtomic } from '../files';
import { currentWriter } from '../runs/liveness';
import { readRun, resolveCacheDir, stableStringify, workspaceOfRunDir, type RankingEntry, type ResultsFile } from '../runs';
import type { RunSettings } from '../settings';
import { ReplyCache } from './cache';
import { ChatClient } from './client';
import { everyRequestFailed } from './ledger';
import { aggregateAnswers, checkModels, generateAndJudge, type GenerationItem } from './loop';
import { promptVersions } from './prompts';
import { JUDGE_METRICS, type AnswerRecord, type AnswersSummary, type JudgeMetric, type LedgerFile, type PriceTable } from './types';

export interface GenerationStageOptions {
  /**
   * Judge settings (models, concurrency, rate limit, timeout, retries, allowSameModel); unset ones
   * default to the run's own settings — except `endpoint`, which must be given here: it is never taken
   * from run.json.
   */
  judge?: Partial<RunSettings['judge']>;
  /** The ground-truth file with the reference answers (chosen by the user); default run.json's when inside the workspace, else `<workspace>/.spanproof/groundtruth.json`. */
  groundTruthFile?: string;
  /** The workspace whose documents are read; default the folder holding `.spanproof/runs/<id>` (required for runs elsewhere). */
  workspace?: string;
  /** API key (SPANPROOF_API_KEY / SecretStorage). Never read from settings files. */
  apiKey?: string;
  /** Config ids to generate for; default {@link defaultGenerateConfigs}. */
  configs?: string[];
  /** Judge repeats (default 1). */
  repeats?: number;
  metrics?: readonly JudgeMetric[];
  /** β of answer correctness (default 1.5). */
  beta?: number;
  /** Reply cache folder; default `<workspace>/.spanproof/cache/judge` (user cache dir when not writable). */
  cacheDir?: string;
  /** Disable the reply cache. */
  noCache?: boolean;
  prices?: PriceTable;
  /** Reference answers by question id; default read from the run's ground-truth file (`questions[].answer`). */
  references?: Record<string, string>;
  /** Document text by source (tests); default read from the run's workspace, confined to it (UTF-8, BOM removed, as the corpus loader). */
  readDocument?: (source: string) => string;
  /** A prepared client (tests, benchmarks); otherwise one is made from `judge` and `apiKey`. */
  client?: ChatClient;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number, stage: string) => void;
}

export interface GenerationStageResult {
  status: 'succeeded' | 'cancelled';
  records: AnswerRecord[];
  ledger: LedgerFile;
  summary: AnswersSummary;
}

/** Recommended config, the next two by rank, and the worst (deduplicated, in that order). */
export function defaultGenerateConfigs(ranking: readonly RankingEntry[] | null, results: ResultsFile | null): string[] {
  const ordered = ranking?.length ? [...ranking].sort((a, b) => a.rank - b.rank).map((r) => r.id) : [...(results?.configs ?? [])].sort((a, b) => a.rank - b.rank).map((c) => c.id);
  const rec = ranking?.find((r) => r.recommended)?.id ?? ordered[0];
  const out: string[] = [];
  for (const id of [rec, ...ordered.filter((x) => x !== rec).slice(0, 2), ordered[ordered.length - 1]]) if (id && !out.includes(id)) out.push(id);
  return out;
}

function readReferences(file: string): Record<string, string> {
  try {
    const gt = JSON.parse(readRegularTextSync(file, MAX_DATA_FILE_BYTES)) as { questions?: Array<{ id?: unknown; answer?: unknown }> };
    const out: Record<string, string> = {};
    for (const q of gt.questions ?? []) if (typeof q.id === 'string' && typeof q.answer === 'string' && q.answer.trim()) out[q.id] = q.answer;
    return out;
  } catch {
    return {}; // no reference answers: the reference metrics are unmeasured with that reason
  }
}

/**
 * The workspace whose documents the stage reads: `given`, else the one that holds the run directory
 * (never run.json's `workspace`, which a crafted run folder could point anywhere). Throws bad-input
 * asking for `--workspace` when neither is known.
 */
function stageWorkspace(runDir: string, recorded: string, given: string | undefined): string {
  const ws = given ?? workspaceOfRunDir(runDir, recorded);
  if (!ws) {
    throw new SpanproofError('bad-input', 'this run directory is not inside a workspace (.spanproof/runs/<id>), so it is not known which folder its documents come from.', { file: runDir, field: '--workspace', fix: 'pass --workspace DIR (the corpus the run was made on); a run folder\'s own files never choose which files are read.' });
  }
  return resolve(ws);
}

/** Reads a document named by the run's files, confined to `workspace` (realpath check, as the corpus loader). */
function confinedReader(workspace: string): (source: string) => string {
  return (source: string) => {
    const file = resolveInside(workspace, source, `source "${source}" in the run's questions.jsonl`);
    let bytes: Buffer;
    try {
      bytes = readRegularFileSync(file, MAX_DATA_FILE_BYTES, { what: 'the document' });
    } catch (e) {
      if (isSpanproofError(e)) throw e;
      throw new SpanproofError('bad-input', `document can no longer be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`, { file: source, fix: 're-run the evaluation, or pass --workspace DIR (the corpus the run was made on).', cause: e });
    }
    const d = decodeDocument(source, bytes);
    if (!('text' in d)) throw new SpanproofError('bad-input', `document can no longer be read (${d.reason}).`, { file: source, fix: 're-run the evaluation.' });
    return d.text;
  };
}

/** The (question, config) items of the chosen configs, with their first k contexts' text (read before any request). */
function buildItems(data: ReturnType<typeof readRun>, configs: readonly string[], references: Record<string, string>, readDoc: (source: string) => string): GenerationItem[] {
  const docs = new Map<string, string>();
  const textOf = (source: string) => {
    let t = docs.get(source);
    if (t === undefined) docs.set(source, (t = readDoc(source)));
    return t;
  };
  const k = data.run.settings.k;
  const byKey = new Map(data.questions.map((q) => [`${q.question}\u0000${q.config}`, q]));
  const items: GenerationItem[] = [];
  for (const q of data.evidence!.questions) {
    for (const c of configs) {
      const rec = byKey.get(`${q.id}\u0000${c}`);
      if (!rec || rec.status !== 'ok') continue; // failed retrieval item: reported by the grid, not generated
      items.push({
        question: q.id,
        questionText: q.question,
        reference: references[q.id],
        config: c,
        contexts: rec.results.slice(0, k).map((r) => ({ source: r.source, start: r.start, end: r.end, text: textOf(r.source).slice(r.start, r.end) })),
        coverage: rec['coverage@5'],
      });
    }
  }
  return items;
}

/**
 * The (question, config) items of `configs` with their first k passages' text, as the generation
 * stage builds them: documents read from the run's workspace (`workspace`, else the folder holding
 * `.spanproof/runs/<id>`), confined to it. Used by the UPIA attack step (src/core/safety/upiaStage.ts).
 * @throws SpanproofError('bad-input') for an unknown workspace, a source outside it or an unreadable document.
 */
export function generationItems(runDir: string, data: ReturnType<typeof readRun>, configs: readonly string[], workspace?: string): GenerationItem[] {
  return buildItems(data, configs, {}, confinedReader(stageWorkspace(runDir, data.run.workspace, workspace)));
}

/** The most frequent reason among failed requests' records (for "every request failed"). */
function commonFailure(records: readonly AnswerRecord[]): string {
  const counts = new Map<string, number>();
  for (const r of records) {
    const why = r.error ?? Object.values(r.judges).map((j) => (j && 'unmeasured' in j ? j.reason : '')).find(Boolean);
    if (why) counts.set(why, (counts.get(why) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'no reply';
}

/** When the answers were judged but every judgement is unmeasured: how many, and the most common reason; else null. */
function nothingJudged(records: readonly AnswerRecord[]): { count: number; reason: string } | null {
  const counts = new Map<string, number>();
  let n = 0;
  for (const r of records) {
    for (const j of Object.values(r.judges)) {
      if (!j) continue;
      if (!('unmeasured' in j)) return null;
      n++;
      counts.set(j.reason, (counts.get(j.reason) ?? 0) + 1);
    }
  }
  return n === 0 ? null : { count: n, reason: [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0] };
}

/**
 * Runs the generation stage on a finished run directory. The endpoint is `opts.judge.endpoint` only —
 * never the one written in run.json — and documents are read from the run's workspace only
 * (`opts.workspace`, else the folder holding `.spanproof/runs/<id>`; realpath-confined like the corpus
 * loader), all before the first request. Finished answers are appended to `answers.partial.jsonl` as
 * they finish (a killed process keeps them); at the end `answers.jsonl` (sorted), `ledger.json` and
 * results.json `"answers"` are written atomically and the partial file removed.
 * Throws SpanproofError('bad-input') for a missing endpoint/model, the same model without
 * allowSameModel, an unknown config id, a source outside the workspace, an unknown workspace;
 * SpanproofError('not-found') when `runDir` is not a run; on a fatal endpoint error (refused key,
 * unknown model) or when every request failed, writes what finished (status `failed`) and throws
 * 'bad-input'. Returns status `cancelled` (files written consistently) when `signal` aborted.
 */
export async function runGenerationStage(runDir: string, opts: GenerationStageOptions = {}): Promise<GenerationStageResult> {
  const data = readRun(runDir);
  const settings = data.run.settings;
  const endpoint = opts.judge?.endpoint ?? '';
  if (!endpoint) throw new SpanproofError('bad-input', 'no endpoint given; the endpoint is never taken from the run\'s files (a shared run folder must not choose where questions, passages and the API key go).', { field: '--endpoint', fix: 'pass --endpoint URL (in VS Code: the setting spanproof.judge.endpoint).' });
  const judge = { ...settings.judge, ...opts.judge, endpoint };
  const sameModel = checkModels(judge.generatorModel, judge.judgeModel, judge.allowSameModel);
  if (!data.results || !data.evidence) throw new SpanproofError('bad-input', 'the run has no results (it did not finish).', { file: runDir, fix: 'generate answers for a run whose status is succeeded.' });
  const known = data.results.configs.map((c) => c.id);
  const configs = opts.configs?.length ? opts.configs : defaultGenerateConfigs(data.ranking, data.results);
  for (const c of configs) {
    if (!known.includes(c)) throw new SpanproofError('bad-input', `config "${c}" is not in this run.`, { field: '--generate-configs', fix: `use ids from results.json, e.g. ${known.slice(0, 3).join(', ')}.` });
  }
  const workspace = opts.readDocument && !opts.workspace ? resolve(data.run.workspace) : stageWorkspace(runDir, data.run.workspace, opts.workspace);
  const gtFile = opts.groundTruthFile ?? (isInsideReal(workspace, data.run.groundTruthFile) ? data.run.groundTruthFile : join(workspace, '.spanproof', 'groundtruth.json'));
  const references = opts.references ?? readReferences(gtFile);
  const items = buildItems(data, configs, references, opts.readDocument ?? confinedReader(workspace));
  const client =
    opts.client ??
    new ChatClient({
      endpoint: judge.endpoint,
      apiKey: opts.apiKey,
      concurrency: judge.concurrency,
      requestsPerMinute: judge.requestsPerMinute,
      timeoutMs: judge.timeoutMs,
      retries: judge.retries,
      prices: opts.prices,
      cache: opts.noCache ? undefined : new ReplyCache(opts.cacheDir ?? join(resolveCacheDir(workspace), 'judge')),
    });
  const metrics = opts.metrics ?? JUDGE_METRICS;
  const partialFile = join(runDir, 'answers.partial.jsonl');
  const partial = openSync(partialFile, 'w');
  // Before the first request, an earlier generate's answers and ledger stop being the run's answers
  // (--overwrite): a generate killed from here on reads as interrupted with its partial answers, as on
  // a run that never had answers — not as the previous generate's result (#16).
  try {
    writeFileAtomic(join(runDir, 'ledger.json'), JSON.stringify({ ...client.ledger.snapshot({ status: 'running', items: { done: 0, total: items.length }, sameModel }), writer: currentWriter() }, null, 2) + '\n');
    rmSync(join(runDir, 'answers.jsonl'), { force: true });
  } catch (e) {
    closeSync(partial);
    throw e;
  }
  opts.onProgress?.(0, items.length, 'generate');
  let res: Awaited<ReturnType<typeof generateAndJudge>>;
  try {
    res = await generateAndJudge(items, {
      client,
      generatorModel: judge.generatorModel,
      judgeModel: judge.judgeModel,
      allowSameModel: judge.allowSameModel,
      metrics,
      repeats: opts.repeats,
      beta: opts.beta,
      signal: opts.signal,
      onItem: (r, done, total) => {
        writeSync(partial, `${JSON.stringify(r)}\n`); // paid for: on disk before anything else happens
        opts.onProgress?.(done, total, 'generate');
      },
    });
  } finally {
    closeSync(partial);
  }
  const ledgerNow = client.ledger.snapshot({ status: res.status, items: { done: res.records.length, total: items.length }, sameModel });
  if (res.status === 'succeeded' && everyRequestFailed(ledgerNow)) {
    res = { ...res, status: 'failed', error: new SpanproofError('bad-input', `every request to the endpoint failed (${ledgerNow.requests} request(s)); most often: ${commonFailure(res.records)}.`, { field: 'judge.endpoint', fix: 'check the endpoint URL, the model names, the API key and the server\'s log; the answers were not generated.' }) };
  } else if (res.status === 'succeeded' && judge.judgeModel !== judge.generatorModel && ledgerNow.byModel[judge.judgeModel] && everyRequestFailed(ledgerNow.byModel[judge.judgeModel])) {
    // The generator answered but no judgement came back: nothing was measured, so the stage did not succeed (#16 item 16).
    const j = ledgerNow.byModel[judge.judgeModel];
    res = { ...res, status: 'failed', error: new SpanproofError('bad-input', `every request to the judge model "${judge.judgeModel}" failed (${j.requests} request(s)); most often: ${commonFailure(res.records)}.`, { field: '--judge-model', fix: 'check the judge model name and the server\'s log (the generator answered); the answers were kept, none was judged.' }) };  } else if (res.status === 'succeeded') {
    // Replies came back, but not one judge score could be read for any metric: nothing was measured (#16 items 11, 16).
    const unread = nothingJudged(res.records);
    if (unread) res = { ...res, status: 'failed', error: new SpanproofError('bad-input', `no reply of the judge model "${judge.judgeModel}" could be read (${unread.count} judgement(s), none measured); most often: ${unread.reason}.`, { field: '--judge-model', fix: 'check the judge model (use one that follows JSON instructions) and the server\'s log; the answers were kept, none was judged.' }) };
  }
  const summary = await writeStageFiles(runDir, res, { data, configs, metrics, judge, sameModel, items: items.length, client, opts });
  rmSync(partialFile, { force: true });
  if (res.status === 'failed') {
    res.error!.runDir ??= runDir; // the files say failed: callers may point the user at them
    throw res.error!;
  }
  return { status: res.status, records: summary.records, ledger: summary.ledger, summary: summary.summary };
}

/** Writes answers.jsonl (sorted by question, then config), ledger.json and results.json "answers" — consistent with each other. */
async function writeStageFiles(
  runDir: string,
  res: Awaited<ReturnType<typeof generateAndJudge>>,
  c: { data: ReturnType<typeof readRun>; configs: string[]; metrics: readonly JudgeMetric[]; judge: RunSettings['judge']; sameModel: boolean; items: number; client: ChatClient; opts: GenerationStageOptions },
): Promise<{ records: AnswerRecord[]; ledger: LedgerFile; summary: AnswersSummary }> {
  const { data, configs, metrics, judge, opts } = c;
  const settings = data.run.settings;
  const qOrder = new Map(data.evidence!.questions.map((q, i) => [q.id, i]));
  const cOrder = new Map(configs.map((id, i) => [id, i]));
  const records = [...res.records].sort((a, b) => qOrder.get(a.question)! - qOrder.get(b.question)! || cOrder.get(a.config)! - cOrder.get(b.config)!);
  // Answers are cut at MAX_ANSWER_CHARS, so the file stays far below the longest string V8 can hold.
  writeFileAtomic(join(runDir, 'answers.jsonl'), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const ledger = c.client.ledger.snapshot({ status: res.status, items: { done: records.length, total: c.items }, sameModel: c.sameModel });
  writeFileAtomic(join(runDir, 'ledger.json'), JSON.stringify(ledger, null, 2) + '\n');
  const agg = aggregateAnswers(records, { questionIds: data.evidence!.questions.map((q) => q.id), configs, metrics, resamples: settings.bootstrap.resamples, seed: settings.bootstrap.seed });
  const summary: AnswersSummary = {
    endpoint: redactUrl(judge.endpoint),
    generatorModel: judge.generatorModel,
    judgeModel: judge.judgeModel,
    sameModel: c.sameModel,
    prompts: promptVersions(),
    repeats: Math.max(1, Math.floor(opts.repeats ?? 1)),
    beta: opts.beta ?? 1.5,
    ...agg,
    status: res.status,
    ...(res.status === 'failed' && res.error ? { error: res.error.message } : {}),
  };
  const resultsFile = join(runDir, 'results.json');
  const current = JSON.parse(readRegularTextSync(resultsFile, MAX_DATA_FILE_BYTES)) as ResultsFile & { answers?: AnswersSummary };
  writeFileAtomic(resultsFile, stableStringify({ ...current, answers: summary }, 2) + '\n');
  return { records, ledger, summary };
}

/** True when `file`'s real path is inside `workspace`'s (false when it cannot be resolved). */
function isInsideReal(workspace: string, file: string): boolean {
  try {
    resolveInside(workspace, relative(workspace, resolve(workspace, file)), 'the ground-truth file');
    return true;
  } catch {
    return false;
  }
}
