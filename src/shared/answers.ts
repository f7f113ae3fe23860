/**
 * The "Answers" tab's webview request (SPEC §12, §14): the panel's methods are
 * part of `WebviewMethods`, and the host answers `loadAnswers` with
 * `readAnswers(runDir)` from src/core/judge. Types only; the data shapes live in src/core/judge/types.ts.
 */
import type { AnswersData } from '../core/judge/types';

export type { AnswersData, AnswerRecord, AnswersSummary, LedgerFile, JudgeMetric, JudgeScore, AnswerAggregate, CorrelationCI } from '../core/judge/types';

/** The webview request of the Answers tab (part of WebviewMethods). */
export interface AnswersWebviewMethods {
  loadAnswers: { params: { runDir: string }; result: AnswersData | null };
}
