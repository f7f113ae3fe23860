/**
 * Generation and LLM judges (SPEC §14, §7.4), opt-in: nothing here runs unless an endpoint is
 * configured, and nothing is sent anywhere but that endpoint.
 *
 * - {@link runGenerationStage}(runDir, opts) → {status, records, ledger, summary}: on a finished run
 *   directory, generate answers for the chosen configs and judge them; writes `answers.jsonl`
 *   ({@link AnswerRecord} per line), `ledger.json` ({@link LedgerFile}) and `results.json` `"answers"`
 *   ({@link AnswersSummary}). Throws SpanproofError('bad-input') for missing endpoint/model, the same
 *   model as generator and judge without `allowSameModel`, an unknown config id, or a fatal endpoint
 *   error (401/403/404); returns status `cancelled` when the signal aborted (files consistent).
 * - {@link generateAndJudge}(items, opts): the loop without run-directory I/O (answer-level datasets,
 *   `spanproof score`). {@link judgeAnswer}(input, ctx, metrics): the judges of one answer.
 * - {@link ChatClient}: OpenAI-compatible client (`openai` package, base URL) with concurrency limit,
 *   requests-per-minute spacing, per-request timeout (ms), retries honouring `retry-after-ms` /
 *   `Retry-After`, disk cache ({@link ReplyCache}, key = (endpoint, model, prompt-version hash, input
 *   hash)) and a {@link Ledger} of requests, cached replies, tokens, latency (ms) and cost.
 * - {@link aggregateAnswers}: per config, mean of measured items with percentile bootstrap CI and
 *   measured/total; Pearson r of coverage@5 vs answer correctness with bootstrap CI, per config and pooled.
 * - {@link readAnswers}(runDir) → AnswersData | null: answers.jsonl + ledger.json + results.json "answers" for the panel.
 * - {@link answersMarkdown}(answersData) → Markdown lines for reports (flags a same-model run; lists unmeasured reasons).
 * - {@link unmeasuredReasons}(records, config, metric) → [reason, count][] of the unmeasured items, most frequent first.
 * - Parsing: {@link extractJson} finds a JSON object in prose / code fences / after `<think>` blocks.
 *
 * Scores: 1–5 integers (groundedness, relevance, coherence, fluency, similarity, retrieval — Azure AI
 * evaluation definitions); [0, 1] (faithfulness = supported/total claims, RAGAS; answerCorrectness =
 * claim-level F_β, β = 1.5, RAGAS); 0|1 (booleanCorrectness, Pathway). A failure is
 * `{unmeasured: true, reason}`, never 0 or NaN.
 */
export * from './types';
export { ChatClient, RequestFailure, retryAfterMs, type ChatClientOptions, type ChatRequest, type ChatReply, type RequestFailureKind } from './client';
export { ReplyCache, cacheKey, type CachedReply } from './cache';
export { Ledger, everyRequestFailed } from './ledger';
export { RequestLimiter } from '../net';
export { extractJson, parseReply, stripReasoning } from './parse';
export { ALL_PROMPTS, GENERATE, SCALE_PROMPTS, EXTRACT_CLAIMS, VERIFY_CLAIMS, BOOLEAN_CORRECTNESS, promptVersion, promptVersions, formatContext, type PromptTemplate } from './prompts';
export { judgeAnswer, fBeta, type JudgeInput, type JudgeContext } from './metrics';
export { generateAndJudge, MAX_ANSWER_CHARS, ANSWER_QUALITY_ORDER, aggregateAnswers, checkModels, combineRepeats, type GenerationItem, type LoopOptions, type LoopResult, type AggregateOptions } from './loop';
export { readAnswers } from './read';
export { answersMarkdown, unmeasuredReasons } from './report';
export { runGenerationStage, defaultGenerateConfigs, type GenerationStageOptions, type GenerationStageResult } from './stage';
