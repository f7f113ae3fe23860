/**
 * Shapes of the generation loop and the LLM judges (SPEC §14). These are written to the run directory
 * (`answers.jsonl`, `ledger.json`, `results.json` `"answers"`) and read by the CLI and the panel:
 * keys are added freely, never renamed. Durations are milliseconds; costs are in the currency of the
 * user's price table (per 1 000 000 tokens).
 */

/** The judge metrics of SPEC §14, in the order they are written. */
export const JUDGE_METRICS = [
  'groundedness',
  'relevance',
  'coherence',
  'fluency',
  'similarity',
  'retrieval',
  'faithfulness',
  'answerCorrectness',
  'booleanCorrectness',
] as const;
export type JudgeMetric = (typeof JUDGE_METRICS)[number];

/** Metrics scored on the 1–5 scale (Azure AI evaluators' definitions). */
export const SCALE_METRICS = ['groundedness', 'relevance', 'coherence', 'fluency', 'similarity', 'retrieval'] as const;
export type ScaleMetric = (typeof SCALE_METRICS)[number];

/** Metrics that need a reference answer (unmeasured without one). */
export const REFERENCE_METRICS: readonly JudgeMetric[] = ['similarity', 'answerCorrectness', 'booleanCorrectness'];

/** One claim of an answer (or reference) and whether the premise text supports it. */
export interface ClaimVerdict {
  claim: string;
  supported: boolean;
  reason: string;
}

/** A measured judge score. `score` is 1–5 for the scale metrics, [0, 1] for faithfulness and answer correctness, 0|1 for boolean correctness. */
export interface MeasuredScore {
  score: number;
  reason: string;
  /** Faithfulness: the answer's claims with their verdicts against the retrieved context. */
  claims?: ClaimVerdict[];
  /** Answer correctness: claim-level counts (RAGAS): TP = answer claims the reference supports, FP = answer claims it does not, FN = reference claims the answer does not support. */
  tp?: number;
  fp?: number;
  fn?: number;
  precision?: number;
  recall?: number;
  /** With `--judge-repeats n` (n ≥ 2): the n scores (null = that repeat was unmeasured). */
  repeats?: Array<number | null>;
  /** max − min of the measured repeats. */
  spread?: number;
  /** Share of measured repeats equal to the most common value (3 decimals), in [0, 1]. */
  agreement?: number;
}

/** A metric that could not be measured for this item (timeout, refusal, unparsable reply after one repair, no reference answer…). Never 0, never NaN. */
export interface UnmeasuredScore {
  unmeasured: true;
  reason: string;
  repeats?: Array<number | null>;
}

export type JudgeScore = MeasuredScore | UnmeasuredScore;

export function isMeasured(s: JudgeScore | undefined): s is MeasuredScore {
  return !!s && !('unmeasured' in s);
}

/** A chat message (OpenAI chat-completions shape). */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Price of a model, per 1 000 000 tokens. */
export interface ModelPrice {
  input: number;
  output: number;
}
/** User price table: model name → price. Models absent from the table get no cost. */
export type PriceTable = Record<string, ModelPrice>;

/** Counters of one model in the ledger. */
export interface LedgerCounters {
  /** HTTP requests sent to the endpoint (every attempt, retries and repairs included). */
  requests: number;
  /** Replies served from the disk cache (no request sent). */
  cachedResponses: number;
  promptTokens: number;
  completionTokens: number;
  /** Sum of the wall time of the requests sent, ms. */
  latencyMs: number;
  /** Requests that did not return a reply (HTTP error, timeout, connection error, cancelled). */
  failures: number;
  /** Attempts that were retries of an earlier failed attempt. */
  retries: number;
  /** Time spent waiting before retries (Retry-After or backoff), ms. */
  waitedMs: number;
  /** Cost from the price table, when the model is in it. */
  cost?: number;
}

/** ledger.json (SPEC §14): totals plus `byModel`. */
export interface LedgerFile extends LedgerCounters {
  endpoint: string;
  byModel: Record<string, LedgerCounters>;
  /** The price table used for `cost` (absent when none was given). */
  prices?: PriceTable;
  /** `succeeded`, or `cancelled` when the loop was stopped (the counts are those of the requests actually made). */
  status: 'succeeded' | 'cancelled' | 'failed' | 'running';
  /** With status `running` (written before the first request): the generating process — a killed one leaves this ledger and answers.partial.jsonl (reports: interrupted). */
  writer?: { pid: number; host: string };
  /** Items written to answers.jsonl / items planned. */
  items: { done: number; total: number };
  /** True when the generator also judged (allowSameModel): judges favour their own output. */
  sameModel: boolean;
}

/** One line of answers.jsonl. */
export interface AnswerRecord {
  /** Question id. */
  question: string;
  /** Config id `<chunker>/<retriever>/<rerank|none>`. */
  config: string;
  /** The generated answer; null when generation failed (then `error` says why and every judge is unmeasured). */
  answer: string | null;
  /** Present when the generator's answer was longer than MAX_ANSWER_CHARS: its length (UTF-16 code units) before it was cut for the judges. */
  answerChars?: number;
  error?: string;
  judges: Partial<Record<JudgeMetric, JudgeScore>>;
  /** The first k results of the config that were given to the generator (UTF-16 offsets). */
  contexts: Array<{ source: string; start: number; end: number }>;
  /** coverage@5 of this (question, config) from questions.jsonl (null when not scored). */
  'coverage@5': number | null;
  generatorModel: string;
  judgeModel: string;
  /** Present and true when the generator judged its own answers. */
  sameModel?: true;
}

/** A judge metric aggregated over one config's items: mean of the measured items only, with its bootstrap CI. */
export interface AnswerAggregate {
  /** Mean over measured items; null when none was measured. */
  mean: number | null;
  lo: number | null;
  hi: number | null;
  measured: number;
  total: number;
  /** With repeats: mean per-item spread and agreement over items with ≥ 2 measured repeats. */
  spread?: number | null;
  agreement?: number | null;
  /** With repeats: items whose repeats disagreed (spread > 0). */
  flaky?: number;
}

/** Pearson r with its percentile bootstrap CI; null fields when undefined (fewer than 2 pairs or a zero variance). */
export interface CorrelationCI {
  r: number | null;
  lo: number | null;
  hi: number | null;
  /** Pairs with both values measured. */
  n: number;
}

/** results.json `"answers"`. */
export interface AnswersSummary {
  endpoint: string;
  generatorModel: string;
  judgeModel: string;
  sameModel: boolean;
  /** Prompt id → `<version>#<hash>` of every prompt used. */
  prompts: Record<string, string>;
  repeats: number;
  beta: number;
  /** Per-question retrieval quality (x) and answer quality (y) used for `correlation`. */
  correlation: { x: 'coverage@5'; y: JudgeMetric; pooled: CorrelationCI };
  configs: Array<{ id: string; items: number; generated: number; metrics: Record<JudgeMetric, AnswerAggregate>; correlation: CorrelationCI }>;
  /** `failed`: a fatal endpoint error stopped the loop (unreachable endpoint, refused key, unknown model); see `error`. */
  status: 'succeeded' | 'cancelled' | 'failed';
  /** Why the stage failed (status `failed` only), as ledger.json's status and the CLI say. */
  error?: string;
}

/** Everything the Answers tab shows for one run; null from `loadAnswers` when the run has no answers. */
export interface AnswersData {
  /** results.json `"answers"` (aggregates, models, prompt versions, correlation). */
  summary: AnswersSummary | null;
  /** answers.jsonl, in file order. */
  records: AnswerRecord[];
  /** ledger.json (requests, cached replies, tokens, latency, cost per model). */
  ledger: LedgerFile | null;
  /** Question id → question text (from evidence.json). */
  questions: Record<string, string>;
  /** Present when only answers.partial.jsonl exists: a generate stopped before it finished (no summary, no ledger). */
  partial?: true;
}
