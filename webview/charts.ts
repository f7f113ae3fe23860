/**
 * Chart.js setup: only the controllers used, the error-bar and matrix plugins, and theme colours read
 * from `--vscode-*` variables (canvas cannot use CSS variables). Charts are redrawn on theme change.
 */
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { BarWithErrorBar, BarWithErrorBarsController } from 'chartjs-chart-error-bars';
import { MatrixController, MatrixElement } from 'chartjs-chart-matrix';
import { themeColor } from './dom';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Tooltip, Legend);
Chart.register(BarWithErrorBarsController, BarWithErrorBar, MatrixController, MatrixElement);

export { Chart };

export const CAUSE_ORDER = ['chunker-destroyed', 'chunker-degraded', 'retriever-missed', 'reranker-demoted', 'ranked-too-low'] as const;

/** The advice of SPEC §8 for each cause. */
export const CAUSE_ADVICE: Record<string, string> = {
  'chunker-destroyed': 'The evidence no longer exists as retrievable text: change chunking, no retriever can fix this.',
  'chunker-degraded': 'The evidence was split across a chunk boundary: larger chunks, overlap, or structure-aware chunking.',
  'retriever-missed': 'The retriever (or embedder) did not find it: a different retriever or model, or hybrid.',
  'reranker-demoted': 'The reranker hurt this question: it was in the top-k before reranking and not after.',
  'ranked-too-low': 'An answering chunk was in the candidate pool but below k: raise k or add a reranker.',
};

export interface Palette {
  fg: string;
  grid: string;
  hit: string;
  failed: string;
  cause: Record<string, string>;
  series: string[];
}

export function palette(): Palette {
  const c = (v: string, f: string) => themeColor(v, f);
  return {
    fg: c('--vscode-foreground', '#cccccc'),
    grid: c('--vscode-panel-border', '#80808040'),
    hit: c('--vscode-charts-green', '#89d185'),
    failed: c('--vscode-disabledForeground', '#888888'),
    // Per-theme, colour-blind-friendlier cause colours: --sp-cause-* in media/results.css (the fallback is the dark set).
    cause: {
      'chunker-destroyed': c('--sp-cause-chunker-destroyed', '#ee6677'),
      'chunker-degraded': c('--sp-cause-chunker-degraded', '#ddaa33'),
      'retriever-missed': c('--sp-cause-retriever-missed', '#33bbee'),
      'reranker-demoted': c('--sp-cause-reranker-demoted', '#cc79a7'),
      'ranked-too-low': c('--sp-cause-ranked-too-low', '#8c8cff'),
    },
    series: ['--vscode-charts-blue', '--vscode-charts-orange', '--vscode-charts-green', '--vscode-charts-purple', '--vscode-charts-red', '--vscode-charts-yellow'].map((v, i) =>
      c(v, ['#3794ff', '#d18616', '#89d185', '#b180d7', '#f14c4c', '#cca700'][i]),
    ),
  };
}

export function baseOptions(p: Palette): Record<string, unknown> {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    color: p.fg,
    plugins: { legend: { labels: { color: p.fg } }, tooltip: { enabled: true } },
  };
}
