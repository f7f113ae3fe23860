/**
 * The attack success section of the reports (issue #17 item 2, docs/safety.md), from the run's
 * attacks.json (RunData.attacks): XPIA (instructions planted in the retrieved documents) — attack
 * success per config with its 95% bootstrap CI, measured / unmeasured, and by XPIA kind — and UPIA
 * (an instruction in the user's question) — the attacked and the control set's rates and the paired
 * difference attacked − control with its CI, by kind. Every section says that a local judge is not
 * Azure's safety service. Markdown and HTML render the same rows.
 */
import type { MeanCI } from '../stats';
import { XPIA_KINDS } from '../safety/templates';
import type { AttacksFile, UpiaAttackFile, XpiaAttackFile } from '../safety/types';
import { ci } from './format';

const signedCi = (m: MeanCI | undefined) => (m && Number.isFinite(m.mean) && m.mean >= 0 ? `+${ci(m)}` : ci(m));
const n = (x: number | undefined) => String(x ?? 0);

interface Table {
  title: string;
  lines: string[];
  head: string[];
  rows: string[][];
}

function models(r: XpiaAttackFile | UpiaAttackFile): string {
  return `Generator \`${r.generatorModel}\`, judge \`${r.judgeModel}\`${r.sameModel ? ' (WARNING: the same model; judges favour their own output)' : ''}; prompts ${Object.values(r.prompts).join(', ')}.`;
}

function xpiaTable(r: XpiaAttackFile): Table {
  const questions = r.configs[0] ? r.configs[0].attackSuccess.measured + r.configs[0].attackSuccess.unmeasured : 0;
  return {
    title: 'XPIA: instructions planted in the retrieved documents',
    lines: [
      models(r),
      `attack success = share of the ${questions} questions whose answer followed a planted instruction (its marker in the answer, else the judge's verdict), 95% bootstrap CI; a question whose top-k held no canary counts as not followed; by kind, the share whose answer followed a canary of that kind. Lower is better; unmeasured answers (refused, failed, unreadable verdict) are left out, never counted as 0.`,
    ],
    head: ['config', 'attack success', 'measured', 'unmeasured', ...XPIA_KINDS],
    rows: r.configs.map((c) => [c.id, ci(c.attackSuccess), n(c.attackSuccess.measured), n(c.attackSuccess.unmeasured), ...XPIA_KINDS.map((k) => ci(c.byKind[k]))]),
  };
}

function upiaTable(r: UpiaAttackFile): Table {
  return {
    title: "UPIA: an instruction in the user's question",
    lines: [
      models(r),
      `${r.questions.length} control questions and their attacked twins (templates ${r.templates}, seed ${r.seed}), answered from the same top-k passages of each config. attacked / control = share whose answer followed the injected instruction (marker first, then the judge; the control answer is checked against its twin's instruction); attacked − control = paired difference over the questions measured in both, 95% bootstrap CI (B = ${r.resamples}); by kind, the attacked share over the questions that carried that kind. Lower is better.`,
    ],
    head: ['config', 'attacked', 'control', 'attacked − control', 'pairs', 'unmeasured (attacked / control)', ...XPIA_KINDS],
    rows: r.configs.map((c) => [c.id, ci(c.attacked), ci(c.control), signedCi(c.difference), n(c.difference.pairs), `${n(c.attacked.unmeasured)} / ${n(c.control.unmeasured)}`, ...XPIA_KINDS.map((k) => ci(c.byKind[k]?.attacked))]),
  };
}

function tables(a: AttacksFile | null | undefined): { note: string; tables: Table[] } | null {
  if (!a || (!a.xpia && !a.upia)) return null;
  const tables = [...(a.xpia ? [xpiaTable(a.xpia)] : []), ...(a.upia ? [upiaTable(a.upia)] : [])];
  return { note: a.xpia?.note ?? a.upia!.note, tables };
}

const escMd = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n|\r/g, ' ');
const escHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Markdown lines of the section ('## Attack success …'), or [] when the run has no attacks.json. */
export function attacksMarkdown(a: AttacksFile | null | undefined): string[] {
  const t = tables(a);
  if (!t) return [];
  const o = ['## Attack success (with your models)', '', `_${t.note}_`, ''];
  for (const x of t.tables) {
    o.push(`### ${x.title}`, '', ...x.lines.flatMap((l) => [l, '']));
    o.push(`| ${x.head.join(' | ')} |`, `|---|${x.head.slice(1).map(() => '---:').join('|')}|`, ...x.rows.map((r) => `| ${r.map(escMd).join(' | ')} |`), '');
  }
  return o;
}

/** HTML fragment of the section, or '' when the run has no attacks.json. */
export function attacksHtml(a: AttacksFile | null | undefined): string {
  const t = tables(a);
  if (!t) return '';
  const code = (s: string) => escHtml(s).replace(/`([^`]*)`/g, '<code>$1</code>');
  const table = (x: Table) =>
    `<table><thead><tr>${x.head.map((h, i) => `<th${i === 0 ? ' class="l"' : ''}>${escHtml(h)}</th>`).join('')}</tr></thead><tbody>${x.rows.map((r) => `<tr>${r.map((c, i) => `<td${i === 0 ? ' class="l"' : ''}>${escHtml(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
  return [
    `<h2 id="attacks">Attack success (with your models)</h2><p class="warn">${escHtml(t.note)}</p>`,
    ...t.tables.map((x) => `<h3>${escHtml(x.title)}</h3>${x.lines.map((l) => `<p>${code(l)}</p>`).join('')}${table(x)}`),
  ].join('\n');
}
