/**
 * The generation stage of a run (SPEC §14), after the grid wrote its run directory: choose the configs
 * (default: the recommended config, the next two by rank, and the worst), build the items from
 * questions.jsonl (first k results of each config, texts read from the workspace documents),
 * generate and judge, then write `answers.jsonl`, `ledger.json` and `results.json` `"answers"`
 * (all atomically, also when cancelled — then with the items finished so far and status `cancelled`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpanproofError } from '../errors';
import { decodeDocument } from '../corpus/decode';
import { readRun, resolveCacheDir, stableStringify, writeFileAtomic, type RankingEntry, type ResultsFile } from '../runs';
import type { RunSettings } from '../../shared/settings';
import { ReplyCache } from './cache';
import { ChatClient } from './client';
import { aggregateAnswers, checkModels, generateAndJudge, type GenerationItem } from './loop';
import { promptVersions } from './prompts';
import { JUDGE_METRICS, type AnswerRecord, type AnswersSummary, type JudgeMetric, type LedgerFile, type PriceTable } from './types';

export interface GenerationStageOptions {
  /** Judge settings (endpoint, models, concurrency, rate limit, timeout, retries, allowSameModel); default the run's own settings. */
  judge?: Partial<RunSettings['judge']>;
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
  /** Document text by source; default read from the run's workspace (UTF-8, BOM removed, as the corpus loader). */
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
    const gt = JSON.parse(readFileSync(file, 'utf8')) as { questions?: Array<{ id?: unknown; answer?: unknown }> };
    const out: Record<string, string> = {};
    for (const q of gt.questions ?? []) if (typeof q.id === 'string' && typeof q.answer === 'string' && q.answer.trim()) out[q.id] = q.answer;
    return out;
  } catch {
    return {}; // no reference answers: the reference metrics are unmeasured with that reason
  }
}

/**
 * Runs the generation stage on a finished run directory. Throws SpanproofError('bad-input') for a
 * missing endpoint/model, the same model without allowSameModel, or an unknown config id;
 * SpanproofError('not-found') when `runDir` is not a run; on a fatal endpoint error (refused key,
 * unknown model) writes what finished (ledger status `failed`) and rethrows it as 'bad-input'.
 * Returns status `cancelled` (files written consistently) when `signal` aborted.
 */
export async function runGenerationStage(runDir: string, opts: GenerationStageOptions = {}): Promise<GenerationStageResult> {
  const data = readRun(runDir);
  const settings = data.run.settings;
  const judge = { ...settings.judge, ...opts.judge };
  const sameModel = checkModels(judge.generatorModel, judge.judgeModel, judge.allowSameModel);
  if (!data.results || !data.evidence) throw new SpanproofError('bad-input', 'the run has no results (it did not finish).', { file: runDir, fix: 'generate answers for a run whose status is succeeded.' });
  const known = data.results.configs.map((c) => c.id);
  const configs = opts.configs?.length ? opts.configs : defaultGenerateConfigs(data.ranking, data.results);
  for (const c of configs) {
    if (!known.includes(c)) throw new SpanproofError('bad-input', `config "${c}" is not in this run.`, { field: '--generate-configs', fix: `use ids from results.json, e.g. ${known.slice(0, 3).join(', ')}.` });
  }
  const references = opts.references ?? readReferences(data.run.groundTruthFile);
  const docs = new Map<string, string>();
  const readDoc =
    opts.readDocument ??
    ((source: string) => {
      const d = decodeDocument(source, readFileSync(join(data.run.workspace, source)));
      if (!('text' in d)) throw new SpanproofError('bad-input', `document can no longer be read (${d.reason}).`, { file: source, fix: 're-run the evaluation.' });
      return d.text;
    });
  const textOf = (source: string) => {
    let t = docs.get(source);
    if (t === undefined) docs.set(source, (t = readDoc(source)));
    return t;
  };
  const k = settings.k;
  const byKey = new Map(data.questions.map((q) => [`${q.question}\u0000${q.config}`, q]));
  const items: GenerationItem[] = [];
  for (const q of data.evidence.questions) {
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
      cache: opts.noCache ? undefined : new ReplyCache(opts.cacheDir ?? join(resolveCacheDir(data.run.workspace), 'judge')),
    });
  const metrics = opts.metrics ?? JUDGE_METRICS;
  opts.onProgress?.(0, items.length, 'generate');
  const res = await generateAndJudge(items, {
    client,
    generatorModel: judge.generatorModel,
    judgeModel: judge.judgeModel,
    allowSameModel: judge.allowSameModel,
    metrics,
    repeats: opts.repeats,
    beta: opts.beta,
    signal: opts.signal,
    onItem: (_r, done, total) => opts.onProgress?.(done, total, 'generate'),
  });

  // Write answers.jsonl, ledger.json and results.json "answers" — consistent with each other.
  const qOrder = new Map(data.evidence.questions.map((q, i) => [q.id, i]));
  const cOrder = new Map(configs.map((c, i) => [c, i]));
  const records = [...res.records].sort((a, b) => qOrder.get(a.question)! - qOrder.get(b.question)! || cOrder.get(a.config)! - cOrder.get(b.config)!);
  writeFileAtomic(join(runDir, 'answers.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : ''));
  const ledger = client.ledger.snapshot({ status: res.status, items: { done: records.length, total: items.length }, sameModel });
  writeFileAtomic(join(runDir, 'ledger.json'), JSON.stringify(ledger, null, 2) + '\n');
  const agg = aggregateAnswers(records, { questionIds: data.evidence.questions.map((q) => q.id), configs, metrics, resamples: settings.bootstrap.resamples, seed: settings.bootstrap.seed });
  const summary: AnswersSummary = {
    endpoint: judge.endpoint,
    generatorModel: judge.generatorModel,
    judgeModel: judge.judgeModel,
    sameModel,
    prompts: promptVersions(),
    repeats: Math.max(1, Math.floor(opts.repeats ?? 1)),
    beta: opts.beta ?? 1.5,
    ...agg,
    status: res.status,
    ...(res.status === 'failed' && res.error ? { error: res.error.message } : {}),
  };
  const resultsFile = join(runDir, 'results.json');
  const current = JSON.parse(readFileSync(resultsFile, 'utf8')) as ResultsFile & { answers?: AnswersSummary };
  writeFileAtomic(resultsFile, stableStringify({ ...current, answers: summary }, 2) + '\n');
  if (res.status === 'failed') throw res.error!;
  return { status: res.status, records, ledger, summary };
}
