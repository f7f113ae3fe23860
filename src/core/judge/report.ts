/**
 * The answers section of a Markdown report (SPEC §14: a same-model run is flagged in every report).
 * For the report module: `answersMarkdown(readAnswers(runDir))` returns lines to append (empty when
 * the run has no answers).
 */
import type { AnswersData } from './types';
import { JUDGE_METRICS, type AnswerRecord, type JudgeMetric, type LedgerFile } from './types';
import { markdownCode, markdownText } from '../report/escape';

/** Reasons of the unmeasured items of one config and metric, with counts, most frequent first. */
export function unmeasuredReasons(records: readonly AnswerRecord[], config: string, metric: JudgeMetric): Array<[reason: string, count: number]> {
  const reasons = new Map<string, number>();
  for (const rec of records) {
    const sc = rec.config === config ? rec.judges[metric] : undefined;
    if (sc && 'unmeasured' in sc) reasons.set(sc.reason, (reasons.get(sc.reason) ?? 0) + 1);
  }
  return [...reasons].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
}

const f = (x: number | null | undefined, d = 2) => (x === null || x === undefined ? '—' : x.toFixed(d));

/** Markdown lines: models, same-model warning, ledger, judge aggregates per config with measured/total, correlation. */
export function answersMarkdown(d: AnswersData | null): string[] {
  if (d?.partial) return ['', '## Answers (LLM judges)', '', `- **interrupted**: ${d.records.length} answer(s) kept from a generate that stopped before it finished (answers.partial.jsonl; no aggregates). Re-run \`spanproof generate <run dir> --overwrite …\`: replies already paid for come from the cache.`, ''];
  if (!d || !d.summary) return [];
  const s = d.summary;
  const o: string[] = ['', '## Answers (LLM judges)', ''];
  o.push(`- generator **${markdownText(s.generatorModel)}**, judge **${markdownText(s.judgeModel)}** at ${markdownCode(s.endpoint)}${s.repeats > 1 ? `; ${s.repeats} repeats per judgement` : ''}${s.status === 'cancelled' ? '; **cancelled** (answers finished before the cancel)' : ''}${s.status === 'failed' ? `; **failed**: ${markdownText(s.error ?? 'the endpoint stopped the run')} (answers finished before the failure)` : ''}`);
  if (s.sameModel) o.push('- **Warning: the same model generated and judged these answers** — judges favour their own output.');
  if (d.ledger) o.push(`- ledger: ${d.ledger.requests} request(s), ${d.ledger.cachedResponses} from the cache, ${d.ledger.promptTokens} prompt + ${d.ledger.completionTokens} completion tokens${d.ledger.cost !== undefined ? `, cost ${d.ledger.cost.toFixed(4)}` : ''}`);
  o.push(`- prompts: ${Object.values(s.prompts).map((v) => markdownCode(v)).join(', ')}`, '');
  const metrics = JUDGE_METRICS.filter((m) => m in (s.configs[0]?.metrics ?? {}));
  o.push(`| metric | ${s.configs.map((c) => markdownText(c.id)).join(' | ')} |`, `|---|${s.configs.map(() => '---').join('|')}|`);
  for (const m of metrics) o.push(`| ${m} | ${s.configs.map((c) => { const a = c.metrics[m]; return `${a.mean === null ? '—' : `${f(a.mean)} [${f(a.lo)}, ${f(a.hi)}]`} (${a.measured}/${a.total})`; }).join(' | ')} |`);
  o.push(`| r(coverage@5, ${s.correlation.y}) | ${s.configs.map((c) => `${f(c.correlation.r)} [${f(c.correlation.lo)}, ${f(c.correlation.hi)}] n=${c.correlation.n}`).join(' | ')} |`, '');
  o.push(`Pooled r(coverage@5, ${s.correlation.y}) = ${f(s.correlation.pooled.r)} [${f(s.correlation.pooled.lo)}, ${f(s.correlation.pooled.hi)}], n = ${s.correlation.pooled.n}. Means are over measured items only; unmeasured items (timeouts, refusals, unreadable replies, no reference answer) are counted in the total, never as 0.`, '');
  const un: string[] = [];
  for (const c of s.configs) for (const m of metrics) for (const [reason, n] of unmeasuredReasons(d.records, c.id, m)) un.push(`- ${markdownText(c.id)} · ${m}: ${n}× ${markdownText(reason)}`);
  if (un.length) o.push('### Unmeasured items (reasons)', '', ...un, '');
  return o;
}

/** One line summing up a ledger: requests, cache hits, tokens, cost, and per model requests, cache hits and mean latency (ms). */
export function ledgerLine(l: LedgerFile): string {
  return `Ledger: ${l.requests} request(s) sent, ${l.cachedResponses} from the cache, ${l.promptTokens} prompt + ${l.completionTokens} completion tokens${l.cost !== undefined ? `, cost ${l.cost.toFixed(4)}` : ''}; ${Object.entries(l.byModel).map(([m, c]) => `${m}: ${c.requests} req, ${c.cachedResponses} cached, mean ${c.requests ? Math.round(c.latencyMs / c.requests) : 0} ms`).join('; ')}.`;
}
