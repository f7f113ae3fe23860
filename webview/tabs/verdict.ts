/**
 * The verdict above the ranking (SPEC §9 v2), as src/core/ranking wrote it into ranking.json format 2:
 * the recommended config, its evidence status (decisive / provisional / no signal), the verdict in
 * plain words (`summary`: how many questions would decide), the minimal detectable difference, and the
 * reasons. A format-1 run (older ranking.json) shows its old-rule recommendation and says it has no
 * status.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { EvidenceStatus } from '../../src/core/ranking';
import { fmt } from '../format';
import { metricLabel, type RunModel } from '../model';

const STATUS_WORDS: Record<EvidenceStatus, string> = {
  decisive: 'decisive',
  provisional: 'provisional',
  'no-signal': 'no signal',
};

function formatOne(m: RunModel): TemplateResult {
  const rec = m.rows.find((r) => r.recommended) ?? m.rows[0];
  if (!rec) return html``;
  return html`<section class="verdict-card" data-testid="verdict-card" data-format=${m.format ?? 'none'}>
    <h2>Recommended: <code data-testid="verdict-recommended">${rec.id}</code></h2>
    <p class="muted">
      ${m.format === 1
        ? "This run's ranking.json is format 1, the rule before the verdict of SPEC §9 v2: the cheapest of the configs not significantly different from the top, and no evidence status. A new run has the verdict."
        : 'This run has no ranking.json; configs in results.json order.'}
    </p>
    <p class="explain-top" data-testid="top-explanation">${rec.explanation}</p>
  </section>`;
}

export function verdictView(m: RunModel): TemplateResult {
  const v = m.verdict;
  if (!v) return formatOne(m);
  const rec = m.rows.find((r) => r.id === v.recommended);
  return html`<section class="verdict-card status-${v.status}" data-testid="verdict-card" data-format="2" data-status=${v.status}>
    <h2>
      ${v.recommended ? html`Verdict: use <code data-testid="verdict-recommended">${v.recommended}</code>` : 'Verdict: no config could be scored'}
      <vscode-badge class="verdict-status status-${v.status}" data-testid="verdict-status">${STATUS_WORDS[v.status]}</vscode-badge>
    </h2>
    <p data-testid="verdict-summary">${v.summary}</p>
    <p class="muted" data-testid="verdict-mde">
      ${v.questions} questions, ${v.configs} configs. Minimal detectable difference: ${v.mde === null ? 'n/a' : `${fmt(v.mde, 2)} of ${metricLabel(v.primaryMetric)}`}${v.questionsNeeded !== null ? `; about ${v.questionsNeeded} questions would resolve a ${fmt(v.margin, 2)} difference` : ''}. Non-inferiority margin δ = ${fmt(v.margin, 2)}.
    </p>
    ${v.reasons.length
      ? html`<details class="reasons-box"><summary>Why (${v.reasons.length} reasons)</summary><ul class="reasons" data-testid="verdict-reasons">${v.reasons.map((r) => html`<li>${r}</li>`)}</ul></details>`
      : nothing}
    ${rec ? html`<p class="explain-top" data-testid="top-explanation">${rec.explanation}</p>` : nothing}
  </section>`;
}
