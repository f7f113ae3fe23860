/**
 * A Markdown rendering of a bias study (for `spanproof bias` and docs/bias-study.md).
 */
import type { MeanCI } from '../stats';
import type { BiasStudy } from './types';

const f = (x: number): string => (Number.isNaN(x) ? '—' : x.toFixed(3));
const ci = (m: MeanCI): string => `${f(m.mean)} [${f(m.lo)}, ${f(m.hi)}]`;
const sci = (m: MeanCI & { significant?: boolean }): string => `${m.mean >= 0 ? '+' : ''}${ci(m)}${m.significant ? ' *' : ''}`;

/** Headline table (author × θ: ID advantage, span advantage, bias) then, per author, the config table. */
export function biasStudyMarkdown(s: BiasStudy, opts: { perConfig?: boolean } = {}): string {
  const out: string[] = [];
  out.push(`Chunk-ID bias study: hit@${s.k}, τ = ${s.tau}, θ ∈ {${s.thetas.join(', ')}}, ${s.configs.length} configs, bootstrap B = ${s.resamples} (seed ${s.seed}); * = 95% CI excludes 0.`);
  out.push('');
  out.push('| author | labelled q | θ | author advantage, ID hit@k | author advantage, span hit@k | bias (ID − span) |');
  out.push('|---|---|---|---|---|---|');
  for (const a of s.authors) {
    for (const t of s.thetas) {
      const key = String(t);
      out.push(`| ${a.author} | ${a.questions} | ${t} | ${sci(a.idAdvantage[key])} | ${sci(a.spanAdvantage)} | ${sci(a.bias[key])} |`);
    }
  }
  if (opts.perConfig ?? true) {
    for (const a of s.authors) {
      out.push('');
      out.push(`### Author ${a.author} (${a.questions} labelled questions, ${a.unlabelled.length} not labellable, ${f(a.meanRelevant)} relevant chunks per question)`);
      out.push('');
      out.push(`| config | span hit@${s.k} | ${s.thetas.map((t) => `ID hit@${s.k} θ=${t}`).join(' | ')} |`);
      out.push(`|---|---|${s.thetas.map(() => '---').join('|')}|`);
      for (const r of a.configs) out.push(`| ${r.isAuthor ? `**${r.config}**` : r.config} | ${ci(r.span)} | ${s.thetas.map((t) => ci(r.id[String(t)])).join(' | ')} |`);
    }
  }
  return `${out.join('\n')}\n`;
}
