/**
 * The verdict above the ranking (SPEC §9 v2): the recommended config, its evidence status
 * (decisive / provisional / no-signal), the minimal detectable difference, how many questions would
 * decide in plain words, and the reasons. A format-1 run (older ranking.json) shows its old-rule
 * recommendation and says it has no status.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { fmt } from '../format';
import { metricLabel, type RunModel, type VerdictView } from '../model';

const STATUS_WORDS: Record<VerdictView['status'], string> = {
  decisive: 'decisive',
  provisional: 'provisional',
  'no-signal': 'no signal',
};

/** "15 questions cannot tell these 21 configs apart; about 60 would resolve a 0.05 difference." and the like. */
export function verdictWords(v: VerdictView, questions: number, configs: number): string {
  const qs = `${questions} question${questions === 1 ? '' : 's'}`;
  const metric = metricLabel(v.primaryMetric);
  if (v.status === 'no-signal') return `Every config scores the same ${metric} on each of the ${qs}: this run cannot tell the ${configs} configs apart. Questions that some configs miss would.`;
  if (v.status === 'decisive') return `${qs} decide it: ${v.recommended} is shown to be within ${v.margin} of the best in ${metric}.`;
  const more = v.questionsNeeded !== null && v.questionsNeeded > questions ? `; about ${v.questionsNeeded} would resolve a ${v.margin} difference (${v.questionsNeeded - questions} more)` : '';
  return `${qs} cannot yet tell these ${configs} configs apart in ${metric}${more}. Treat the recommendation as provisional.`;
}

export function verdictView(m: RunModel): TemplateResult {
  const v = m.verdict;
  if (!v) {
    const rec = m.rows.find((r) => r.recommended) ?? m.rows[0];
    if (!rec) return html``;
    return html`<section class="verdict-card" data-testid="verdict-card" data-format="1">
      <h2>Recommended: <code>${rec.id}</code></h2>
      <p class="muted">
        ${m.format === 1 ? "This run's ranking.json is format 1, the rule before the verdict of SPEC §9 v2: the cheapest of the configs not significantly different from the top, and no evidence status." : 'This run has no ranking.json; configs in results.json order.'}
      </p>
      <p class="explain-top" data-testid="top-explanation">${rec.explanation}</p>
    </section>`;
  }
  const rec = m.rows.find((r) => r.id === v.recommended);
  return html`<section class="verdict-card status-${v.status}" data-testid="verdict-card" data-format="2" data-status=${v.status}>
    <h2>
      Verdict: use <code data-testid="verdict-recommended">${v.recommended}</code>
      <vscode-badge class="verdict-status status-${v.status}" data-testid="verdict-status">${STATUS_WORDS[v.status]}</vscode-badge>
    </h2>
    <p data-testid="verdict-words">${verdictWords(v, m.results.questions, m.rows.length)}</p>
    <p class="muted" data-testid="verdict-mde">
      Minimal detectable difference at ${m.results.questions} questions: ${fmt(v.mde, 2)} in ${metricLabel(v.primaryMetric)}. Non-inferiority margin δ = ${v.margin}.
    </p>
    ${v.reasons.length ? html`<ul class="reasons" data-testid="verdict-reasons">${v.reasons.map((r) => html`<li>${r}</li>`)}</ul>` : nothing}
    ${rec ? html`<p class="explain-top" data-testid="top-explanation">${rec.explanation}</p>` : nothing}
  </section>`;
}
