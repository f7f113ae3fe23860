/**
 * The "Answers" tab's data and its webview request (SPEC §12, §14). Kept beside protocol.ts, whose
 * `WebviewMethods` extends `AnswersWebviewMethods`; the host answers `loadAnswers` with
 * `readAnswers(runDir)` from src/core/judge (src/extension/panelHandlers.ts). Types plus the metric order; no Node or vscode imports.
 */
import type { AnswerRecord, AnswersSummary, LedgerFile } from '../core/judge/types';

export { JUDGE_METRICS } from '../core/judge/types';
export type { AnswerRecord, AnswersSummary, LedgerFile, JudgeMetric, JudgeScore, AnswerAggregate, CorrelationCI } from '../core/judge/types';

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

/** The webview request of the Answers tab (part of WebviewMethods). */
export interface AnswersWebviewMethods {
  loadAnswers: { params: { runDir: string }; result: AnswersData | null };
}
