/**
 * Reports of a run directory (SPEC §10 exports): Markdown, CSV (one row per config) and a
 * self-contained HTML file (inline CSS, no script, no external fetch), plus the plain-text ranking
 * table the CLI prints. All render from `RunData` (src/core/runs `readRun`).
 */
import type { RunData } from '../../shared/protocol';
import { renderCsv } from './csv';
import { renderHtml } from './html';
import { renderMarkdown } from './markdown';

export { buildReportModel, cutPieces, type ReportModel, type ReportRow, type ReportMiss } from './model';
export { rankingTable } from './text';
export { renderMarkdown, renderCsv, renderHtml };

export type ReportFormat = 'md' | 'html' | 'csv';

/** Renders a run in `format`. */
export function renderReport(data: RunData, format: ReportFormat): string {
  return format === 'html' ? renderHtml(data) : format === 'csv' ? renderCsv(data) : renderMarkdown(data);
}
