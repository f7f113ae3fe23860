/**
 * Charts of the panel: `<sp-chart>`, an element that owns one Chart.js chart and updates it in place
 * when its `config` changes (new data, or new colours after a theme change) instead of destroying it;
 * the chart is destroyed only when the element leaves the page. Only the controllers used are
 * registered (+ error bars, matrix). Canvas cannot read CSS variables, so colours come from the
 * `--vscode-*` variables of the current theme through `getComputedStyle` (palette()).
 */
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, ScatterController, Tooltip, type ChartConfiguration } from 'chart.js';
import { BarWithErrorBar, BarWithErrorBarsController } from 'chartjs-chart-error-bars';
import { MatrixController, MatrixElement } from 'chartjs-chart-matrix';
import { CAUSES, type Cause } from '../src/core/types';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, ScatterController, Tooltip, Legend);
Chart.register(BarWithErrorBarsController, BarWithErrorBar, MatrixController, MatrixElement);

/** Any chart configuration (the plugins' chart types are not in Chart.js's type registry). */
export type AnyChartConfig = ChartConfiguration | { type: string; data: unknown; options?: unknown };

export class SpChart extends HTMLElement {
  readonly canvas = document.createElement('canvas');
  private instance: Chart | undefined;
  private cfg: AnyChartConfig | undefined;

  constructor() {
    super();
    this.canvas.setAttribute('role', 'img');
  }

  /** The chart (undefined while the element is not in the page). */
  get chart(): Chart | undefined {
    return this.instance;
  }

  set config(c: AnyChartConfig | undefined) {
    if (c === this.cfg) return;
    this.cfg = c;
    this.apply();
  }
  get config(): AnyChartConfig | undefined {
    return this.cfg;
  }

  /** The canvas's accessible name (it is `role="img"`). */
  set label(text: string) {
    this.canvas.setAttribute('aria-label', text);
  }

  /** `data-testid` of the canvas (e2e hooks click inside the canvas box). */
  set testid(id: string) {
    this.canvas.dataset.testid = id;
  }

  connectedCallback(): void {
    if (this.canvas.parentNode !== this) this.appendChild(this.canvas);
    this.apply();
  }

  disconnectedCallback(): void {
    this.instance?.destroy();
    this.instance = undefined;
  }

  private apply(): void {
    if (!this.isConnected || !this.cfg) return;
    const cfg = this.cfg as ChartConfiguration;
    if (this.instance && (this.instance.config as { type?: string }).type === cfg.type) {
      this.instance.data = cfg.data;
      if (cfg.options) this.instance.options = cfg.options;
      this.instance.update('none');
      return;
    }
    this.instance?.destroy();
    this.instance = new Chart(this.canvas, cfg);
  }
}
if (!customElements.get('sp-chart')) customElements.define('sp-chart', SpChart);

declare global {
  interface HTMLElementTagNameMap {
    'sp-chart': SpChart;
  }
}

export interface Palette {
  fg: string;
  grid: string;
  hit: string;
  failed: string;
  cause: Record<string, string>;
  series: string[];
}

/** Reads a `--vscode-*` (or `--sp-*`) colour of the current theme. */
export function themeColor(name: string, fallback: string): string {
  const v = getComputedStyle(document.body).getPropertyValue(name).trim();
  return v || fallback;
}

/** Per cause (not by position: a cause added to CAUSES must not shift the others' colours). */
const CAUSE_FALLBACK: Record<Cause, string> = { 'chunker-destroyed': '#ee6677', 'chunker-degraded': '#ddaa33', 'passage-split': '#44bb99', 'retriever-missed': '#33bbee', 'reranker-demoted': '#cc79a7', 'ranked-too-low': '#8c8cff' };
const SERIES = ['--vscode-charts-blue', '--vscode-charts-orange', '--vscode-charts-green', '--vscode-charts-purple', '--vscode-charts-red', '--vscode-charts-yellow'];
const SERIES_FALLBACK = ['#3794ff', '#d18616', '#89d185', '#b180d7', '#f14c4c', '#cca700'];

/** The current theme's chart colours; `_theme` (the theme counter) only makes memoised callers recompute. */
export function palette(_theme?: number): Palette {
  return {
    fg: themeColor('--vscode-foreground', '#cccccc'),
    grid: themeColor('--vscode-panel-border', '#80808040'),
    hit: themeColor('--vscode-charts-green', '#89d185'),
    failed: themeColor('--vscode-disabledForeground', '#888888'),
    // Per-theme, colour-blind-friendlier cause colours: --sp-cause-* in media/results.css (the fallback is the dark set).
    cause: Object.fromEntries(CAUSES.map((c) => [c, themeColor(`--sp-cause-${c}`, CAUSE_FALLBACK[c])])),
    series: SERIES.map((v, i) => themeColor(v, SERIES_FALLBACK[i])),
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

/** Axis styling shared by the charts: theme colours; `rotate` tilts long category labels (config ids). */
export function axis(p: Palette, extra: Record<string, unknown> = {}, rotate = false): Record<string, unknown> {
  return {
    ticks: { color: p.fg, ...(rotate ? { autoSkip: false, maxRotation: 70, minRotation: 50, font: { size: 10 } } : {}) },
    grid: { color: p.grid },
    ...extra,
  };
}

/** An axis title in the theme's colour. */
export function title(p: Palette, text: string): Record<string, unknown> {
  return { display: true, text, color: p.fg };
}
