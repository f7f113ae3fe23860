/**
 * The generation loop (SPEC §14): for each (question, config) item, the generator answers from the
 * config's first k results with the versioned GENERATE prompt, then the judge model scores the answer.
 * Items run through a pool (as many items at once as the client's concurrency), requests through the
 * client's limiter. Cancellation keeps every finished item and drops unfinished ones, so the records
 * returned are all complete. Also the aggregates (mean of measured items with bootstrap CI,
 * measured/total) and the retrieval-vs-answer correlation (Pearson r, bootstrap CI).
 */
import { setMaxListeners } from 'node:events';
import { SpanproofError, isSpanproofError } from '../errors';
import { bootstrapResamples, pearsonCI, percentileCI } from '../stats';
import { ChatClient, RequestFailure } from './client';
import { answerText, judgeAnswer } from './metrics';
import { GENERATE, formatContext, promptVersion, render } from './prompts';
import { JUDGE_METRICS, isMeasured, type AnswerAggregate, type AnswerRecord, type AnswersSummary, type CorrelationCI, type JudgeMetric, type JudgeScore, type MeasuredScore } from './types';

/**
 * Longest answer kept and sent to the judges, UTF-16 code units (≈ 5 000 tokens; the generator is
 * asked for at most 512). A longer answer is cut to this length and its record carries `answerChars`.
 */
export const MAX_ANSWER_CHARS = 20_000;

/** One (question, config) to generate and judge. */
export interface GenerationItem {
  /** Question id. */
  question: string;
  questionText: string;
  reference?: string;
  config: string;
  /** The first k results of the config with their text (UTF-16 offsets into the document). */
  contexts: Array<{ source: string; start: number; end: number; text: string }>;
  /** coverage@5 of the item (questions.jsonl), null when not scored. */
  coverage: number | null;
}

export interface LoopOptions {
  client: ChatClient;
  generatorModel: string;
  judgeModel: string;
  /** Let the generator judge itself (refused otherwise); flagged `sameModel` in every record. */
  allowSameModel?: boolean;
  /** Judge metrics to compute (default all of JUDGE_METRICS). */
  metrics?: readonly JudgeMetric[];
  /** Judge repeats n ≥ 1; n ≥ 2 bypasses the cache for the judges and reports spread and agreement. */
  repeats?: number;
  /** β of answer correctness (default 1.5). */
  beta?: number;
  /** Completion-token limit of the generated answer (default 512). */
  maxAnswerTokens?: number;
  signal?: AbortSignal;
  /** Called after each finished item (done counts finished items). */
  onItem?: (record: AnswerRecord, done: number, total: number) => void;
}

export interface LoopResult {
  /** Finished items, in the order of `items`. */
  records: AnswerRecord[];
  status: 'succeeded' | 'cancelled' | 'failed';
  /** Set when status is `failed` (a fatal endpoint error such as a refused key or unknown model). */
  error?: SpanproofError;
}

/**
 * Throws SpanproofError('bad-input') when the generator and the judge are the same model and
 * `allowSameModel` is false; returns whether they are the same (to flag it in every report).
 */
export function checkModels(generatorModel: string, judgeModel: string, allowSameModel = false): boolean {
  if (!generatorModel) throw new SpanproofError('bad-input', 'no generator model configured.', { field: 'judge.generatorModel', fix: 'pass --generator-model NAME (or set judge.generatorModel in the --config file of spanproof run; in VS Code: the setting spanproof.judge.generatorModel).' });
  if (!judgeModel) throw new SpanproofError('bad-input', 'no judge model configured.', { field: 'judge.judgeModel', fix: 'pass --judge-model NAME (or set judge.judgeModel in the --config file of spanproof run; in VS Code: the setting spanproof.judge.judgeModel).' });
  // Model names are compared trimmed and case-insensitively: "Same-M" and "same-m" name one model on most servers.
  const same = generatorModel.trim().toLowerCase() === judgeModel.trim().toLowerCase();
  if (same && !allowSameModel) {
    throw new SpanproofError('bad-input', `the judge model is the generator model ("${judgeModel}" vs "${generatorModel}"); judges favour their own output.`, { field: 'judge.judgeModel', fix: 'use a different --judge-model, or pass --allow-same-model (setting judge.allowSameModel: true); the reports then flag it.' });
  }
  return same;
}

/** Combines judge repeats of one metric: mean of measured repeats; spread = max − min; agreement = modal share. */
export function combineRepeats(runs: JudgeScore[]): JudgeScore {
  const scores = runs.map((s) => (isMeasured(s) ? s.score : null));
  const measured = runs.filter(isMeasured);
  if (measured.length === 0) return { unmeasured: true, reason: (runs[0] as { reason: string }).reason, repeats: scores };
  const vals = measured.map((s) => s.score);
  const counts = new Map<string, number>();
  for (const v of vals) counts.set(v.toFixed(3), (counts.get(v.toFixed(3)) ?? 0) + 1);
  const modal = Math.max(...counts.values());
  const mean = vals.reduce((a, b) => a + b, 0) / vals.length;
  const first: MeasuredScore = measured[0];
  return { ...first, score: mean, reason: first.reason, repeats: scores, spread: Math.max(...vals) - Math.min(...vals), agreement: Number((modal / vals.length).toFixed(3)) };
}

function toSpanproof(e: unknown): SpanproofError {
  if (isSpanproofError(e)) return e;
  // An unreachable endpoint's message already says what to check (no HTTP status: nothing answered).
  if (e instanceof RequestFailure) return new SpanproofError('bad-input', e.message, { field: 'judge.endpoint', ...(e.fix ? { fix: e.fix } : e.kind === 'fatal' && e.status === undefined ? {} : { fix: 'check the endpoint URL, the model names and the API key.' }) });
  return new SpanproofError('internal', (e as Error)?.message ?? String(e), { cause: e });
}

/**
 * The generator's answer to one item from its contexts (prompt GENERATE, temperature 0), cut to
 * MAX_ANSWER_CHARS UTF-16 code units (never half a surrogate pair; `answerChars` = the length before).
 * A refusal, a content filter, an empty answer or a retryable request failure give `answer: null`
 * with the reason in `error`.
 * @throws the client's fatal errors (RequestFailure kind 'fatal', SpanproofError 'cancelled').
 */
async function generateAnswer(it: GenerationItem, o: LoopOptions, genVersion: string, signal: AbortSignal): Promise<{ answer: string | null; answerChars?: number; error?: string }> {
  try {
    const reply = await o.client.chat({ model: o.generatorModel, promptVersion: genVersion, messages: render(GENERATE, { question: it.questionText, context: formatContext(it.contexts) }), temperature: 0, maxTokens: o.maxAnswerTokens ?? 512 }, signal);
    if (reply.refusal || reply.finishReason === 'content_filter') return { answer: null, error: `the generator refused${reply.refusal ? `: ${reply.refusal.slice(0, 200)}` : ' (content filter)'}` };
    let answer = answerText(reply.content);
    let answerChars: number | undefined;
    if (answer.length > MAX_ANSWER_CHARS) {
      answerChars = answer.length;
      const cut = /[\uD800-\uDBFF]/.test(answer[MAX_ANSWER_CHARS - 1]) ? MAX_ANSWER_CHARS - 1 : MAX_ANSWER_CHARS; // never half a surrogate pair
      answer = answer.slice(0, cut);
    }
    if (!answer) return { answer: null, ...(answerChars !== undefined ? { answerChars } : {}), error: 'the generator returned an empty answer' };
    return { answer, ...(answerChars !== undefined ? { answerChars } : {}) };
  } catch (e) {
    if (e instanceof RequestFailure && e.kind !== 'fatal') return { answer: null, error: `no answer: ${e.message}` };
    throw e;
  }
}

/** Generates and judges every item. Never throws for an item's failure; returns status `failed` with the error on a fatal endpoint error. */
export async function generateAndJudge(items: readonly GenerationItem[], o: LoopOptions): Promise<LoopResult> {
  const sameModel = checkModels(o.generatorModel, o.judgeModel, o.allowSameModel);
  const metrics = o.metrics ?? JUDGE_METRICS;
  const repeats = Math.max(1, Math.floor(o.repeats ?? 1));
  const ac = new AbortController();
  setMaxListeners(0, ac.signal); // one listener per request in flight or waiting for a slot
  const onAbort = () => ac.abort();
  if (o.signal?.aborted) ac.abort();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  const done: Array<AnswerRecord | undefined> = new Array(items.length);
  let finished = 0;
  let fatal: SpanproofError | undefined;
  const genVersion = promptVersion(GENERATE);

  const runItem = async (it: GenerationItem): Promise<AnswerRecord> => {
    const base = {
      question: it.question,
      config: it.config,
      contexts: it.contexts.map((c) => ({ source: c.source, start: c.start, end: c.end })),
      'coverage@5': it.coverage,
      generatorModel: o.generatorModel,
      judgeModel: o.judgeModel,
      ...(sameModel ? { sameModel: true as const } : {}),
    };
    const { answer, answerChars, error } = await generateAnswer(it, o, genVersion, ac.signal);
    let judges: AnswerRecord['judges'];
    if (answer === null) {
      judges = Object.fromEntries(metrics.map((m) => [m, { unmeasured: true, reason: error! }]));
    } else {
      const input = { question: it.questionText, answer, contexts: it.contexts, reference: it.reference };
      const runs: Array<Partial<Record<JudgeMetric, JudgeScore>>> = [];
      for (let r = 0; r < repeats; r++) runs.push(await judgeAnswer(input, { client: o.client, judgeModel: o.judgeModel, signal: ac.signal, bypassCache: repeats > 1, beta: o.beta }, metrics));
      judges = Object.fromEntries(metrics.map((m) => [m, repeats > 1 ? combineRepeats(runs.map((x) => x[m]!)) : runs[0][m]!]));
    }
    return { question: base.question, config: base.config, answer, ...(answerChars !== undefined ? { answerChars } : {}), ...(error ? { error } : {}), judges, contexts: base.contexts, 'coverage@5': base['coverage@5'], generatorModel: base.generatorModel, judgeModel: base.judgeModel, ...(sameModel ? { sameModel: true as const } : {}) };
  };

  let next = 0;
  const worker = async () => {
    while (!ac.signal.aborted && !fatal && next < items.length) {
      const i = next++;
      try {
        const rec = await runItem(items[i]);
        if (ac.signal.aborted) return; // finished after the stop: the run keeps only what finished before
        done[i] = rec;
        finished++;
        o.onItem?.(rec, finished, items.length);
      } catch (e) {
        if (isSpanproofError(e) && e.code === 'cancelled') return;
        // Fatal endpoint error: stop taking items; requests in flight finish (the client refuses new
        // ones), so the ledger counts exactly what reached the endpoint.
        fatal ??= toSpanproof(e);
        return;
      }
    }
  };
  const pool = Math.max(1, Math.min(items.length, o.client.limiter.concurrency));
  try {
    await Promise.all(Array.from({ length: pool }, worker));
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
  }
  const records = done.filter((r): r is AnswerRecord => !!r);
  if (fatal) return { records, status: 'failed', error: fatal };
  return { records, status: o.signal?.aborted ? 'cancelled' : 'succeeded' };
}

const nullable = (x: number): number | null => (Number.isFinite(x) ? x : null);

export interface AggregateOptions {
  /** Question ids in order (the bootstrap resamples are over these). */
  questionIds: readonly string[];
  /** Config ids in order. */
  configs: readonly string[];
  metrics?: readonly JudgeMetric[];
  resamples: number;
  seed: number;
}

function correlation(x: number[], y: number[], B: number, seed: number): CorrelationCI {
  const n = x.filter((v, i) => Number.isFinite(v) && Number.isFinite(y[i])).length;
  const c = pearsonCI(x, y, bootstrapResamples(x.length, B, seed));
  return { r: nullable(c.r), lo: nullable(c.lo), hi: nullable(c.hi), n };
}

/**
 * Which judge metric stands for answer quality in `correlation.y`: the first of these measured on any
 * item (reference-based correctness first, then faithfulness to the retrieved context, then the 1–5
 * Azure AI scales). The `retrieval` judge rates the passages, not the answer, so it is never `y`.
 */
export const ANSWER_QUALITY_ORDER: readonly JudgeMetric[] = ['answerCorrectness', 'booleanCorrectness', 'faithfulness', 'groundedness', 'relevance', 'similarity', 'coherence', 'fluency'];

/**
 * Aggregates per config: for each metric the mean of the measured items with its percentile bootstrap
 * CI (resamples over the questions, seeded; unmeasured items are left out, never averaged as 0) and
 * measured/total; the Pearson r between per-question coverage@5 and the answer-quality metric (the first
 * of {@link ANSWER_QUALITY_ORDER} measured anywhere; when none was, the first one judged, with r null
 * and n 0), per config and pooled over all (question, config) pairs.
 */
export function aggregateAnswers(records: readonly AnswerRecord[], o: AggregateOptions): Pick<AnswersSummary, 'configs' | 'correlation'> {
  const metrics = o.metrics ?? JUDGE_METRICS;
  const qIndex = new Map(o.questionIds.map((q, i) => [q, i]));
  const rs = bootstrapResamples(o.questionIds.length, o.resamples, o.seed);
  const anyMeasured = (m: JudgeMetric) => metrics.includes(m) && records.some((r) => isMeasured(r.judges[m]));
  const yMetric: JudgeMetric = ANSWER_QUALITY_ORDER.find(anyMeasured) ?? ANSWER_QUALITY_ORDER.find((m) => metrics.includes(m)) ?? 'faithfulness';
  const px: number[] = [];
  const py: number[] = [];
  const configs = o.configs.map((id) => {
    const recs = records.filter((r) => r.config === id);
    const vec = (m: JudgeMetric) => {
      const v = new Array<number>(o.questionIds.length).fill(NaN);
      for (const r of recs) {
        const s = r.judges[m];
        const i = qIndex.get(r.question);
        if (i !== undefined && isMeasured(s)) v[i] = s.score;
      }
      return v;
    };
    const out = {} as Record<JudgeMetric, AnswerAggregate>;
    for (const m of metrics) {
      const v = vec(m);
      const measured = recs.filter((r) => isMeasured(r.judges[m])).length;
      const ci = percentileCI(v, rs);
      const agg: AnswerAggregate = { mean: measured ? nullable(ci.mean) : null, lo: measured ? nullable(ci.lo) : null, hi: measured ? nullable(ci.hi) : null, measured, total: recs.length };
      const withRepeats = recs.map((r) => r.judges[m]).filter((s): s is MeasuredScore => isMeasured(s) && s.spread !== undefined);
      if (withRepeats.length) {
        agg.spread = withRepeats.reduce((a, s) => a + s.spread!, 0) / withRepeats.length;
        agg.agreement = withRepeats.reduce((a, s) => a + s.agreement!, 0) / withRepeats.length;
        agg.flaky = withRepeats.filter((s) => s.spread! > 0).length;
      }
      out[m] = agg;
    }
    const x = new Array<number>(o.questionIds.length).fill(NaN);
    for (const r of recs) {
      const i = qIndex.get(r.question);
      if (i !== undefined && r['coverage@5'] !== null) x[i] = r['coverage@5'];
    }
    const y = vec(yMetric);
    px.push(...x);
    py.push(...y);
    return { id, items: recs.length, generated: recs.filter((r) => r.answer !== null).length, metrics: out, correlation: correlation(x, y, o.resamples, o.seed) };
  });
  return { configs, correlation: { x: 'coverage@5', y: yMetric, pooled: correlation(px, py, o.resamples, o.seed) } };
}
