/**
 * Reports of a run directory (SPEC §10 exports): Markdown, CSV (one row per config) and a
 * self-contained HTML file (inline CSS, no script, no external fetch), plus the plain-text ranking
 * table the CLI prints. All render from `RunData` (src/core/runs `readRun`).
 */
import type { RunData } from '../runs/types';
import type { AnswersData } from '../judge/types';
import { readRun } from '../runs/read';
import { readAnswers } from '../judge/read';
import { renderCsv } from './csv';
import { renderHtml } from './html';
import { renderMarkdown } from './markdown';

export { buildReportModel, cutPieces, type ReportModel, type ReportRow, type ReportMiss } from './model';
export { rankingTable } from './text';
export { answersHtml, answersMarkdown } from './answers';
export { safetyMarkdown } from './safety';
export { injectionMarkdown, injectionSummaryMarkdown, injectionHtml, injectionCsv } from './injection';
export { attacksMarkdown, attacksHtml, attacksCsv } from './attacks';
export { renderMarkdown, renderCsv, renderHtml };
export { renderGithubReport, githubText, baselineDifferences } from './github';

export type ReportFormat = 'md' | 'html' | 'csv';

/**
 * Renders a run in `format`. `answers` (readAnswers(runDir), src/core/judge) adds the answers section
 * to Markdown and HTML — including the same-model warning (SPEC §14); CSV stays one row per config.
 */
export function renderReport(data: RunData, format: ReportFormat, answers: AnswersData | null = null): string {
  return format === 'html' ? renderHtml(data, answers) : format === 'csv' ? renderCsv(data) : renderMarkdown(data, answers);
}

/**
 * Reads the run directory `runDir` (run.json, results.json, …, and answers.jsonl/ledger.json when
 * present) and renders it in `format`. What `spanproof report` and Export Report… call, so a run with
 * answers always gets its answers section. Throws SpanproofError('not-found') when `runDir` is not a
 * run, 'bad-input' naming a damaged file/line.
 */
export function renderRunReport(runDir: string, format: ReportFormat): string {
  return renderReport(readRun(runDir), format, format === 'csv' ? null : readAnswers(runDir));
}
