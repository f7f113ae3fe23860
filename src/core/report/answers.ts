/**
 * The answers section of the reports (SPEC §14: "a same-model run is flagged in every report"). Markdown
 * comes from the judge module's `answersMarkdown`; HTML renders the same facts from the same data:
 * models and endpoint, the same-model warning, the ledger, per-config judge means with 95% CI and
 * measured/total, and r(coverage@5, answer quality) per config and pooled. Empty when the run has no
 * answers (no answers.jsonl, or no results.json "answers" summary).
 */
import { answersMarkdown } from '../judge/report';
import { JUDGE_METRICS } from '../judge/types';
import type { AnswersData } from '../judge/types';

export { answersMarkdown };

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const f = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(2));

/** HTML fragment (an `<h2>` section) of the answers, or '' when there are none. */
export function answersHtml(d: AnswersData | null): string {
  if (!d || !d.summary) return '';
  const s = d.summary;
  const o: string[] = ['<h2 id="answers">Answers (LLM judges)</h2><ul>'];
  o.push(`<li>generator <b>${esc(s.generatorModel)}</b>, judge <b>${esc(s.judgeModel)}</b> at <code>${esc(s.endpoint)}</code>${s.repeats > 1 ? `; ${s.repeats} repeats per judgement` : ''}${s.status === 'cancelled' ? '; <b>cancelled</b> (answers finished before the cancel)' : ''}${s.status === 'failed' ? `; <b>failed</b>: ${esc(s.error ?? 'the endpoint stopped the run')} (answers finished before the failure)` : ''}</li>`);
  if (s.sameModel) o.push('<li class="warn"><b>Warning: the same model generated and judged these answers</b> — judges favour their own output.</li>');
  const l = d.ledger;
  if (l) o.push(`<li>ledger: ${l.requests} request(s), ${l.cachedResponses} from the cache, ${l.promptTokens} prompt + ${l.completionTokens} completion tokens${l.cost !== undefined ? `, cost ${l.cost.toFixed(4)}` : ''}</li>`);
  o.push(`<li>prompts: ${Object.values(s.prompts).map((v) => `<code>${esc(v)}</code>`).join(', ')}</li></ul>`);
  const metrics = JUDGE_METRICS.filter((m) => m in (s.configs[0]?.metrics ?? {}));
  o.push(`<table><thead><tr><th class="l">metric</th>${s.configs.map((c) => `<th>${esc(c.id)}</th>`).join('')}</tr></thead><tbody>`);
  for (const m of metrics) {
    o.push(`<tr><td class="l">${esc(m)}</td>${s.configs.map((c) => { const a = c.metrics[m]; return `<td>${a.mean === null ? '—' : `${f(a.mean)} [${f(a.lo)}, ${f(a.hi)}]`} (${a.measured}/${a.total})</td>`; }).join('')}</tr>`);
  }
  o.push(`<tr><td class="l">r(coverage@5, ${esc(s.correlation.y)})</td>${s.configs.map((c) => `<td>${f(c.correlation.r)} [${f(c.correlation.lo)}, ${f(c.correlation.hi)}] n=${c.correlation.n}</td>`).join('')}</tr></tbody></table>`);
  const p = s.correlation.pooled;
  o.push(`<p>Pooled r(coverage@5, ${esc(s.correlation.y)}) = ${f(p.r)} [${f(p.lo)}, ${f(p.hi)}], n = ${p.n}. <span class="mut">Means are over measured items only; unmeasured items (timeouts, refusals, unreadable replies, no reference answer) are counted in the total, never as 0.</span></p>`);
  return o.join('\n');
}
