/**
 * The least of a DOM that webview modules need at import in Node: `HTMLElement` to extend and a
 * `customElements` registry that accepts definitions (webview/chart.ts defines `<sp-chart>`). Import it
 * before the webview module; nothing renders into it, so a tab test must not draw charts.
 */
const g = globalThis as Record<string, unknown>;
g.HTMLElement ??= class {};
g.customElements ??= { get: () => undefined, define: () => undefined };
export {};
