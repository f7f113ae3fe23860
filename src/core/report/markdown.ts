/**
 * Markdown report of a run: summary, the verdict in plain words, ranking table with CIs, cause breakdown, τ
 * sweep, misses of the recommended config with the evidence and the cut, excluded questions,
 * skipped files and failed items.
 */
import { CAUSES } from '../types';
import { CAUSE_ADVICE } from '../attribution';
import { TAU_SWEEP } from '../grid/plan';
import { buildReportModel, cutPieces, rowLatencyText, verdictLines, type ReportModel } from './model';
import { rankingColumns, rankingLegend } from './columns';
import { f3 } from './format';
import type { RunData } from '../runs/types';
import type { AnswersData } from '../judge/types';
import { BASELINE_RERANKER_LABEL } from '../models/embedderSpec';
import { answersMarkdown } from './answers';
import { injectionMarkdown } from './injection';
import { attacksMarkdown } from './attacks';
import { markdownCode, markdownQuote, markdownText } from './escape';

/** Our own table text (numbers, legends): only `|` and line breaks matter. Run strings go through markdownText/markdownCode. */
const cellText = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n|\r/g, ' ');
const esc = markdownText;
const code = markdownCode;
const quote = markdownQuote;

export function renderMarkdownModel(m: ReportModel): string {
  const { run, results } = m.data;
  const o: string[] = [];
  o.push(`# Spanproof run ${esc(run.id)}`, '');
  o.push(`- status: **${esc(run.status)}**; started ${run.startedAt}${run.endedAt ? `, ended ${run.endedAt}` : ''}; Spanproof ${esc(run.toolVersion)}`);
  o.push(`- workspace: ${code(run.workspace)}; ground truth: ${code(run.groundTruthFile)}`);
  o.push(`- acceptance: ${m.acceptanceRate}`);
  if (results) o.push(`- k = ${results.k}, τ = ${results.tau}, pool N = ${results.poolSize ?? results.n}, bootstrap B = ${results.resamples} (seed ${results.seed}), ${results.questions} questions scored`);
  for (const e of m.embedders) o.push(`- embedder ${esc(e)}`);
  if (m.baselineReranker) o.push(`- rerank = the built-in MaxSim reranker over static word vectors: **${BASELINE_RERANKER_LABEL}**`);
  if (run.error) o.push(`- error: ${esc(run.error.code)}: ${esc(run.error.message)}`);
  o.push('');
  const vl = verdictLines(m);
  if (vl.length) {
    const r = m.rows.find((x) => x.config.id === m.recommended);
    o.push('## Verdict', '', `**${esc(vl[0])}**`, '', ...vl.slice(1).flatMap((l) => [esc(l), '']));
    if (m.verdict?.reasons.length) o.push('Reasons:', '', ...m.verdict.reasons.map((x) => `- ${esc(x)}`), '');
    if (r?.ranking?.explanation) o.push(`**${esc(m.recommended ?? '')}** — ${esc(r.ranking.explanation)} Measured latency: ${rowLatencyText(r)}.`, '');
  }
  const cols = rankingColumns(m);
  o.push('## Ranking', '', ...rankingLegend(m).map((l) => `_${cellText(l)}_`).flatMap((l) => [l, '']));
  o.push(`| ${cols.map((c) => c.head).join(' | ')} |`);
  o.push(`|${cols.map((c) => (c.num ? '---:' : '---')).join('|')}|`);
  for (const r of m.rows) o.push(`| ${cols.map((c) => (c.runText ? esc : cellText)(c.cell(r))).join(' | ')} |`);
  o.push('', '## Failure causes (misses at k per config)', '');
  o.push(`| config | ${CAUSES.join(' | ')} |`, `|---|${CAUSES.map(() => '---:').join('|')}|`);
  for (const r of m.rows) o.push(`| ${esc(r.config.id)} | ${CAUSES.map((c) => r.config.causes[c] ?? 0).join(' | ')} |`);
  o.push('', ...CAUSES.map((c) => `- **${c}** (${m.causeTotals[c]} in all configs): ${CAUSE_ADVICE[c]}`), '');
  o.push('## τ sweep (hit@k)', '', `| config | ${TAU_SWEEP.map((t) => `τ=${t}`).join(' | ')} |`, `|---|${TAU_SWEEP.map(() => '---:').join('|')}|`);
  for (const r of m.rows) o.push(`| ${esc(r.config.id)} | ${TAU_SWEEP.map((t) => f3(r.config.tauSweep?.[String(t)]?.mean)).join(' | ')} |`);
  o.push('');
  if (m.focus) {
    o.push(`## Misses of ${esc(m.focus)}`, '');
    if (!m.misses.length) o.push('None.', '');
    for (const x of m.misses) {
      o.push(`### ${esc(x.question)}: ${esc(x.questionText)}`, '', `cause: **${x.cause}** — ${CAUSE_ADVICE[x.cause]}`, '');
      const p = cutPieces(x);
      if (x.miss) {
        const b = x.miss.bestChunk;
        o.push(`evidence ${code(x.miss.evidence.source)} [${x.miss.evidence.start}, ${x.miss.evidence.end}); best chunk ${b ? `[${b.start}, ${b.end}) covers ${f3(b.coverage)}, rank ${x.miss.bestChunkRank ?? 'not in pool'}` : 'none'}; ${x.miss.charsBefore} evidence chars fall before the chunk, ${x.miss.charsAfter} after.`, '');
      }
      if (p) {
        if (p.before) o.push('Evidence cut off before the chunk:', '', quote(p.before), '');
        if (p.inside) o.push('Evidence inside the best chunk:', '', quote(p.inside), '');
        if (p.after) o.push('Evidence cut off after the chunk:', '', quote(p.after), '');
      } else if (x.evidenceText) o.push(quote(x.evidenceText), '');
    }
  }
  const acc = results?.acceptance;
  if (acc && (acc.stale.length || acc.ambiguous.length || acc.rejected.length)) {
    o.push('## Excluded questions (not scored)', '');
    for (const s of acc.stale) o.push(`- stale: ${esc(s.id)} in ${code(s.source)}: “${esc(String(s.exact).slice(0, 120))}”${s.reason ? ` (${esc(s.reason)})` : ''}`);
    for (const s of acc.ambiguous) o.push(`- ambiguous: ${esc(s.id)} in ${code(s.source)} (${s.candidatesTotal ?? s.candidates.length} candidates)`);
    for (const s of acc.rejected) o.push(`- rejected: ${esc(s.id)}: ${esc(s.reason)}`);
    o.push('');
  }
  if (results?.skipped.length) {
    o.push('## Skipped files', '', ...results.skipped.map((s) => `- ${code(s.source)}: ${esc(s.reason)} (${esc(s.detail)})`), '');
  }
  if (results?.errors.length) {
    o.push('## Failed items (reported, not scored)', '', ...results.errors.map((e) => `- ${esc(e.stage)}${e.config ? ` ${esc(e.config)}` : ''}${e.question ? ` × ${esc(e.question)}` : ''}: ${esc(e.message)}`), '');
  }
  return o.join('\n');
}

/** The Markdown report; with `answers` (readAnswers(runDir)) the answers section is appended. */
export function renderMarkdown(data: RunData, answers: AnswersData | null = null): string {
  const md = renderMarkdownModel(buildReportModel(data));
  const extra = [...injectionMarkdown(data.injection), ...attacksMarkdown(data.attacks), ...answersMarkdown(answers)];
  return extra.length ? `${md}${md.endsWith('\n') ? '' : '\n'}${extra.join('\n')}` : md;
}
