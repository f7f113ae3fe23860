/**
 * Self-contained HTML report (one file, inline CSS, no script, no external fetch): ranking table
 * with CI bars, cause breakdown as stacked bars, τ sweep, and the misses of the recommended config
 * with the evidence and where the chunk boundary cut it (evidence inside the best chunk highlighted,
 * the cut-off parts struck through). Light/dark via `prefers-color-scheme`.
 */
import { CAUSES, type Cause } from '../types';
import { CAUSE_ADVICE } from '../attribution';
import { TAU_SWEEP } from '../grid/plan';
import { buildReportModel, cutPieces, rowLatencyText, verdictLines, type ReportModel } from './model';
import { rankingColumns, rankingLegend } from './columns';
import { f3 } from './format';
import type { RunData } from '../runs/types';
import type { AnswersData } from '../judge/types';
import { BASELINE_RERANKER_LABEL } from '../models/embedderSpec';
import { answersHtml } from './answers';
import { injectionHtml } from './injection';
import { attacksHtml } from './attacks';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const pct = (x: number) => `${(Math.max(0, Math.min(1, Number.isFinite(x) ? x : 0)) * 100).toFixed(2)}%`;

const CAUSE_CLASS: Record<Cause, string> = {
  'chunker-destroyed': 'c1',
  'chunker-degraded': 'c2',
  'passage-split': 'c6',
  'retriever-missed': 'c3',
  'reranker-demoted': 'c4',
  'ranked-too-low': 'c5',
};

const CSS = `
:root{--fg:#1b1f23;--bg:#fff;--mut:#6a737d;--line:#e1e4e8;--bar:#0366d6;--mark:#fff3b0;--cut:#ffd7d5}
@media (prefers-color-scheme:dark){:root{--fg:#e1e4e8;--bg:#0d1117;--mut:#8b949e;--line:#30363d;--bar:#58a6ff;--mark:#5a4a00;--cut:#6e1b1b}}
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;color:var(--fg);background:var(--bg);max-width:1200px;margin:2em auto;padding:0 1em}
h1{font-size:1.5em}h2{margin-top:2em;border-bottom:1px solid var(--line)}
table{border-collapse:collapse;width:100%;margin:.5em 0}th,td{padding:3px 8px;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap}
th:nth-child(2),td:nth-child(2){text-align:left}td.l,th.l{text-align:left}
.ci{position:relative;width:220px;height:14px;background:linear-gradient(90deg,var(--line) 1px,transparent 1px) 0 0/25% 100%}
.ci .r{position:absolute;top:5px;height:4px;background:var(--bar);opacity:.45}.ci .m{position:absolute;top:1px;width:3px;height:12px;background:var(--bar)}
.stack{display:flex;width:260px;height:14px;background:var(--line)}.stack span{display:block;height:100%}
.c1{background:#d73a49}.c2{background:#f66a0a}.c3{background:#6f42c1}.c4{background:#b08800}.c5{background:#2188ff}.c6{background:#e36209}
.legend span{display:inline-block;width:10px;height:10px;margin:0 4px 0 12px}
table.mx{width:auto}table.mx td,table.mx th{padding:0;width:14px;height:14px;border:1px solid var(--bg)}table.mx th.q,table.mx td.q{width:auto;padding:0 6px;text-align:left}
table.mx td.hit{background:#2ea04366}table.mx td.fail{background:repeating-linear-gradient(45deg,var(--line),var(--line) 3px,transparent 3px,transparent 6px)}
.rec{font-weight:600}.mut{color:var(--mut)}pre{white-space:pre-wrap;background:rgba(127,127,127,.08);padding:.6em;border-radius:4px}
mark{background:var(--mark);color:inherit}.warn{color:#d73a49}del{background:var(--cut);text-decoration:line-through}
`;

/** The page head, title and the run facts (status, inputs, settings, models). */
function headHtml(m: ReportModel, data: RunData): string[] {
  const { run, results } = data;
  const o: string[] = [];
  o.push('<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">');
  o.push(`<title>Spanproof run ${esc(run.id)}</title><style>${CSS}</style></head><body>`);
  o.push(`<h1>Spanproof run ${esc(run.id)}</h1>`);
  o.push('<ul>');
  o.push(`<li>status <b>${esc(run.status)}</b>; started ${esc(run.startedAt)}${run.endedAt ? `, ended ${esc(run.endedAt)}` : ''}; Spanproof ${esc(run.toolVersion)}</li>`);
  o.push(`<li>workspace <code>${esc(run.workspace)}</code>; ground truth <code>${esc(run.groundTruthFile)}</code></li>`);
  o.push(`<li>acceptance: ${esc(m.acceptanceRate)}</li>`);
  if (results) o.push(`<li>k = ${results.k}, τ = ${results.tau}, pool N = ${results.poolSize ?? results.n}, bootstrap B = ${results.resamples} (seed ${results.seed}), ${results.questions} questions scored</li>`);
  for (const e of m.embedders) o.push(`<li>embedder ${esc(e)}</li>`);
  if (m.baselineReranker) o.push(`<li>rerank = the built-in MaxSim reranker over static word vectors: <b>${esc(BASELINE_RERANKER_LABEL)}</b></li>`);
  if (run.error) o.push(`<li>error: ${esc(run.error.code)}: ${esc(run.error.message)}</li>`);
  o.push('</ul>');
  return o;
}

/** The verdict paragraphs, its reasons and the recommended config's explanation. */
function verdictHtml(m: ReportModel, _data: RunData): string[] {
  const o: string[] = [];
  const vl = verdictLines(m);
  if (vl.length) {
    const r = m.rows.find((x) => x.config.id === m.recommended);
    o.push(`<h2>Verdict</h2><p><b>${esc(vl[0])}</b></p>`, ...vl.slice(1).map((l) => `<p>${esc(l)}</p>`));
    if (m.verdict?.reasons.length) o.push(`<details><summary>Reasons</summary><ul>${m.verdict.reasons.map((x) => `<li>${esc(x)}</li>`).join('')}</ul></details>`);
    if (r?.ranking?.explanation) o.push(`<p><b>${esc(m.recommended ?? '')}</b> — ${esc(r.ranking.explanation)} Measured latency: ${esc(rowLatencyText(r))}.</p>`);
  }
  return o;
}

/** The ranking table with a CI bar per config. */
function rankingHtml(m: ReportModel, _data: RunData): string[] {
  const o: string[] = [];
  const tableCols = rankingColumns(m);
  const q = tableCols[2];
  o.push(`<h2>Ranking</h2>${rankingLegend(m).map((l) => `<p class="mut">${esc(l)}</p>`).join('')}<table><thead><tr>${tableCols.map((c, i) => `<th${c.num ? '' : ' class="l"'}>${esc(c.head)}</th>${i === 2 ? '<th class="l">0 ─ 0.5 ─ 1</th>' : ''}`).join('')}</tr></thead><tbody>`);
  for (const r of m.rows) {
    const c = r.config;
    const qv = c.metrics[m.metric];
    const bar = qv && Number.isFinite(qv.mean) ? `<div class="ci" title="${esc(q.cell(r))}"><div class="r" style="left:${pct(qv.lo)};width:${pct(qv.hi - qv.lo)}"></div><div class="m" style="left:calc(${pct(qv.mean)} - 1px)"></div></div>` : '';
    o.push(`<tr${c.id === m.recommended ? ' class="rec"' : ''}>${tableCols.map((col, i) => `<td${col.num ? '' : ' class="l"'}>${esc(col.cell(r))}</td>${i === 2 ? `<td class="l">${bar}</td>` : ''}`).join('')}</tr>`);
  }
  o.push('</tbody></table>');
  return o;
}

/** Failure causes per config as stacked bars, with the advice of each cause. */
function causesHtml(m: ReportModel, data: RunData): string[] {
  const { results } = data;
  const o: string[] = [];
  const nq = Math.max(1, results?.questions ?? 1);
  o.push('<h2>Failure causes</h2><p class="legend">' + CAUSES.map((c) => `<span class="${CAUSE_CLASS[c]}"></span>${esc(c)} (${m.causeTotals[c]})`).join('') + '</p>');
  o.push(`<table><thead><tr><th>misses</th><th>config</th><th class="l">share of ${nq} questions</th>${CAUSES.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead><tbody>`);
  for (const r of m.rows) {
    const c = r.config;
    const total = CAUSES.reduce((s, x) => s + (c.causes[x] ?? 0), 0);
    const stack = CAUSES.map((x) => (c.causes[x] ? `<span class="${CAUSE_CLASS[x]}" style="width:${pct(c.causes[x] / nq)}" title="${esc(x)}: ${c.causes[x]}"></span>` : '')).join('');
    o.push(`<tr><td>${total}</td><td>${esc(c.id)}</td><td class="l"><div class="stack">${stack}</div></td>${CAUSES.map((x) => `<td>${c.causes[x] ?? 0}</td>`).join('')}</tr>`);
  }
  o.push('</tbody></table><ul>' + CAUSES.map((c) => `<li><b>${esc(c)}</b>: ${esc(CAUSE_ADVICE[c])}</li>`).join('') + '</ul>');
  return o;
}

/** Question × config matrix: a cell per item, green when hit@k, else coloured by its cause. */
function matrixHtml(m: ReportModel, data: RunData): string[] {
  const { results } = data;
  const o: string[] = [];
  // Question × config matrix: a cell per item, green when hit@k, else coloured by its cause.
  const cols = m.rows.map((r) => r.config.id);
  const cell = new Map(data.questions.map((q) => [`${q.question}\u0000${q.config}`, q]));
  const qids = data.evidence?.questions.map((q) => q.id) ?? [...new Set(data.questions.map((q) => q.question))];
  if (qids.length && cols.length) {
    o.push(`<h2>Question × config</h2><p class="legend"><span style="background:#2ea04366"></span>hit@${results?.k ?? 5}${CAUSES.map((c) => `<span class="${CAUSE_CLASS[c]}"></span>${esc(c)}`).join('')}<span class="fail" style="background:var(--line)"></span>failed item</p>`);
    o.push(`<table class="mx"><thead><tr><th class="q">question</th>${cols.map((c, i) => `<th title="${esc(c)}">${i + 1}</th>`).join('')}</tr></thead><tbody>`);
    for (const q of qids) {
      o.push(`<tr><td class="q">${esc(q)}</td>${cols.map((c) => {
        const rec = cell.get(`${q}\u0000${c}`);
        if (!rec) return '<td></td>';
        if (rec.status === 'failed') return `<td class="fail" title="${esc(c)}: failed"></td>`;
        return rec.cause ? `<td class="${CAUSE_CLASS[rec.cause]}" title="${esc(c)}: ${esc(rec.cause)}"></td>` : `<td class="hit" title="${esc(c)}: hit"></td>`;
      }).join('')}</tr>`);
    }
    o.push('</tbody></table><p class="mut">Columns are numbered in ranking order (hover for the config id).</p>');
  }
  return o;
}

/** hit@k of each config over the τ sweep. */
function tauHtml(m: ReportModel, _data: RunData): string[] {
  const o: string[] = [];
  o.push(`<h2>τ sweep (hit@k)</h2><table><thead><tr><th></th><th>config</th>${TAU_SWEEP.map((t) => `<th>τ=${t}</th>`).join('')}</tr></thead><tbody>`);
  for (const r of m.rows) o.push(`<tr><td></td><td>${esc(r.config.id)}</td>${TAU_SWEEP.map((t) => `<td>${f3(r.config.tauSweep?.[String(t)]?.mean)}</td>`).join('')}</tr>`);
  o.push('</tbody></table>');
  return o;
}

/** The misses of the focus config with the evidence and where the chunk boundary cut it. */
function missesHtml(m: ReportModel, _data: RunData): string[] {
  const o: string[] = [];
  if (m.focus) {
    o.push(`<h2>Misses of ${esc(m.focus)} (${m.misses.length})</h2>`);
    o.push('<p class="mut">Evidence inside the best chunk is <mark>highlighted</mark>; evidence the chunk boundary cut off is <del>struck through</del>, shown on the side of the cut.</p>');
    for (const x of m.misses) {
      o.push(`<h3>${esc(x.question)}: ${esc(x.questionText)}</h3><p>cause <b>${esc(x.cause)}</b> — ${esc(CAUSE_ADVICE[x.cause])}</p>`);
      if (x.miss) {
        const b = x.miss.bestChunk;
        o.push(`<p class="mut">evidence <code>${esc(x.miss.evidence.source)}</code> [${x.miss.evidence.start}, ${x.miss.evidence.end}); best chunk ${b ? `[${b.start}, ${b.end}) covers ${f3(b.coverage)}, rank in result list: ${x.miss.bestChunkRank ?? 'not in pool'}` : 'none'}; ${x.miss.charsBefore} evidence characters before the chunk, ${x.miss.charsAfter} after.</p>`);
      }
      const p = cutPieces(x);
      if (p) {
        const pre = p.chunkPrefix.length > 300 ? `…${p.chunkPrefix.slice(-300)}` : p.chunkPrefix;
        const post = p.chunkSuffix.length > 300 ? `${p.chunkSuffix.slice(0, 300)}…` : p.chunkSuffix;
        const chunkPart = x.chunkText !== null ? `${esc(pre)}<mark>${esc(p.inside)}</mark>${esc(post)}` : `<mark>${esc(p.inside)}</mark>`;
        o.push(`<pre>${p.before ? `<del>${esc(p.before)}</del>│` : ''}${chunkPart}${p.after ? `│<del>${esc(p.after)}</del>` : ''}</pre>`);
      } else if (x.evidenceText) o.push(`<pre>${esc(x.evidenceText)}</pre>`);
    }
  }
  return o;
}

/** Questions excluded from scoring, skipped files and failed items. */
function excludedHtml(m: ReportModel, data: RunData): string[] {
  const { results } = data;
  const o: string[] = [];
  const acc = results?.acceptance;
  if (acc && (acc.stale.length || acc.ambiguous.length || acc.rejected.length)) {
    o.push('<h2>Excluded questions (not scored)</h2><ul>');
    for (const s of acc.stale) o.push(`<li>stale: ${esc(s.id)} in <code>${esc(s.source)}</code>: “${esc(String(s.exact).slice(0, 160))}”${s.reason ? ` (${esc(String(s.reason))})` : ''}</li>`);
    for (const s of acc.ambiguous) o.push(`<li>ambiguous: ${esc(s.id)} in <code>${esc(s.source)}</code> (${s.candidatesTotal ?? s.candidates.length} candidates)</li>`);
    for (const s of acc.rejected) o.push(`<li>rejected: ${esc(s.id)}: ${esc(s.reason)}</li>`);
    o.push('</ul>');
  }
  if (results?.skipped.length) o.push('<h2>Skipped files</h2><ul>' + results.skipped.map((s) => `<li><code>${esc(s.source)}</code>: ${esc(s.reason)} (${esc(s.detail)})</li>`).join('') + '</ul>');
  if (results?.errors.length) o.push('<h2>Failed items (reported, not scored)</h2><ul>' + results.errors.map((e) => `<li>${esc(e.stage)}${e.config ? ` ${esc(e.config)}` : ''}${e.question ? ` × ${esc(e.question)}` : ''}: ${esc(e.message)}</li>`).join('') + '</ul>');
  return o;
}

/** The HTML report; with `answers` (readAnswers(runDir)) the answers section is added before the end. */
export function renderHtml(data: RunData, answers: AnswersData | null = null): string {
  const m = buildReportModel(data);
  const o: string[] = [];
  for (const section of [headHtml, verdictHtml, rankingHtml, causesHtml, matrixHtml, tauHtml, missesHtml, excludedHtml]) o.push(...section(m, data));
  const inj = injectionHtml(data.injection);
  if (inj) o.push(inj);
  const att = attacksHtml(data.attacks);
  if (att) o.push(att);
  const ans = answersHtml(answers);
  if (ans) o.push(ans);

  o.push('</body></html>\n');
  return o.join('\n');
}
