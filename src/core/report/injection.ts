/**
 * The injection exposure section of the reports (issue #17, docs/safety.md): exposure@k per config and
 * per chunker with 95% bootstrap CIs, split by XPIA kind, the planted canaries, and the limit said in
 * every report (offline exposure is not attack success; a local judge is not Azure's safety service).
 * Markdown and HTML render the same facts from the run's injection.json; the CSV adds three columns.
 */
import type { MeanCI } from '../stats';
import type { InjectionStudy } from '../safety/types';
import { markdownCode, markdownText } from './escape';

const f = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(3));
const ci = (m: MeanCI | undefined) => (m ? `${f(m.mean)} [${f(m.lo)}, ${f(m.hi)}]` : '—');
const escHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const escMd = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n|\r/g, ' ');

/** Rows of the two tables: the config rows (sorted by exposure, highest first, then id) and the chunker rows. */
function rows(s: InjectionStudy): { head: string[]; configs: string[][]; chunkers: string[][] } {
  const key = s.metric as `exposure@${number}`;
  const head = [key, ...s.kinds];
  const byExposure = [...s.configs].sort((a, b) => (b[key]?.mean ?? 0) - (a[key]?.mean ?? 0) || (a.id < b.id ? -1 : 1));
  const kindCells = (k: Record<string, MeanCI>) => s.kinds.map((kd) => ci(k[kd]));
  return {
    head,
    configs: byExposure.map((c) => [c.id, ci(c[key]), ...kindCells(c.byKind)]),
    chunkers: s.chunkers.map((c) => [c.chunker, ci(c[key]), ...kindCells(c.byKind)]),
  };
}

function summaryLine(s: InjectionStudy): string {
  const near = s.canaries.filter((c) => c.placement === 'near').length;
  const docs = new Set(s.canaries.map((c) => c.source)).size;
  return `${s.canaries.length} canaries (${s.kinds.join(', ')}; ${near} near evidence, ${s.canaries.length - near} far) planted in ${docs} document(s) of a copy of the corpus (templates ${s.templates}, seed ${s.seed}); ${s.metric} = share of the ${s.questions} questions whose top ${s.k} results overlap a canary, 95% bootstrap CI (B = ${s.resamples}). Lower is better. The documents themselves were not modified.`;
}

const mdTable = (t: ReturnType<typeof rows>, first: string, body: string[][]) => [`| ${first} | ${t.head.join(' | ')} |`, `|---|${t.head.map(() => '---:').join('|')}|`, ...body.map((r) => `| ${r.map(escMd).join(' | ')} |`)];

/** The heading, what was measured, the limit, and the per-chunker table (what `spanproof run` prints). */
export function injectionSummaryMarkdown(s: InjectionStudy): string[] {
  return [`## Injection exposure (${s.metric}, offline)`, '', summaryLine(s), '', `_${s.note}_`, '', '### By chunker', '', ...mdTable(rows(s), 'chunker', rows(s).chunkers), ''];
}

/** Markdown lines of the section ('## Injection exposure …'), or [] without a study. */
export function injectionMarkdown(s: InjectionStudy | null | undefined): string[] {
  if (!s) return [];
  const t = rows(s);
  return [
    ...injectionSummaryMarkdown(s),
    '### By config', '', ...mdTable(t, 'config', t.configs), '',
    '### Canaries', '', '| id | kind | length | placement | source | [start, end) in the copy |', '|---|---|---|---|---|---|',
    ...s.canaries.map((c) => `| ${markdownText(c.id)} | ${c.kind} | ${c.length} | ${c.placement} | ${markdownCode(c.source)} | [${c.start}, ${c.end}) |`), '',
  ];
}

/** HTML fragment of the section, or '' without a study. */
export function injectionHtml(s: InjectionStudy | null | undefined): string {
  if (!s) return '';
  const t = rows(s);
  const table = (first: string, body: string[][]) => `<table><thead><tr><th class="l">${first}</th>${t.head.map((h) => `<th>${escHtml(h)}</th>`).join('')}</tr></thead><tbody>${body.map((r) => `<tr>${r.map((c, i) => `<td${i === 0 ? ' class="l"' : ''}>${escHtml(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
  return [
    `<h2 id="injection">Injection exposure (${escHtml(s.metric)}, offline)</h2><p>${escHtml(summaryLine(s))}</p><p class="warn">${escHtml(s.note)}</p>`,
    `<h3>By chunker</h3>${table('chunker', t.chunkers)}`, `<h3>By config</h3>${table('config', t.configs)}`,
    `<details><summary>Canaries (${s.canaries.length})</summary><ul>${s.canaries.map((c) => `<li>${escHtml(c.id)} <b>${escHtml(c.kind)}</b> (${c.length}, ${c.placement}) in <code>${escHtml(c.source)}</code> [${c.start}, ${c.end}): ${escHtml(c.text)}</li>`).join('')}</ul></details>`,
  ].join('\n');
}

/** The CSV columns of a config (`exposure@k`, `_lo`, `_hi`), empty without a study. */
export function injectionCsv(s: InjectionStudy | null | undefined): { head: string[]; cells(config: string): unknown[] } {
  if (!s) return { head: [], cells: () => [] };
  const key = s.metric as `exposure@${number}`;
  const by = new Map(s.configs.map((c) => [c.id, c[key]]));
  return { head: [key, `${key}_lo`, `${key}_hi`], cells: (id) => { const m = by.get(id); return [m?.mean, m?.lo, m?.hi]; } };
}
