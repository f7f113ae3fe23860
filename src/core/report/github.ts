/**
 * The GitHub report of a run (issue #18, `spanproof report RUN --format github`): Markdown for a pull
 * request comment or a job summary (`>> "$GITHUB_STEP_SUMMARY"`) — the verdict and its status, the
 * top configs with the primary metric's CI and the paired CI of (config − best), and, with a baseline
 * run, what changed since it (the recommendation, each top config's primary metric) and the questions
 * the recommended config newly fails.
 *
 * Every string that comes from a run (config ids, question ids and texts, verdict sentences) goes
 * through {@link githubText}: Markdown and HTML are escaped, `@` mentions and `#123` references are
 * neutralised, lines are joined — a question text can never ping someone, link somewhere or break
 * the table.
 */
import { metricDef, metricLabel } from '../metrics/registry';
import type { ConfigResult, QuestionRecord, RunData } from '../runs/types';
import { markdownCode, markdownText } from './escape';

/** A run's string as inert GitHub Markdown text (one line; table-safe): {@link markdownText}. */
export const githubText = markdownText;

/** A run's string inside a code span (`…`), table-safe: {@link markdownCode}. */
export const githubCode = markdownCode;

const n3 = (x: number | null | undefined): string => (x === null || x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(3));
const signed = (x: number): string => (x >= 0 ? `+${n3(x)}` : n3(x));
const ciText = (m: { mean: number; lo: number; hi: number } | undefined): string => (m ? `${n3(m.mean)} [${n3(m.lo)}, ${n3(m.hi)}]` : 'n/a');

/** Question ids the config hits (primary metric's per-question value 1, or > 0 for graded metrics). */
function hits(questions: readonly QuestionRecord[], config: string, key: string): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const q of questions) {
    if (q.config !== config || q.status !== 'ok') continue;
    const m = (q.metrics as Record<string, number> | undefined)?.[key];
    out.set(q.question, (m ?? 0) >= 1);
  }
  return out;
}

/**
 * What differs between `run` and its `baseline` besides the configurations' results, one sentence
 * each (empty when they are comparable): other documents (run.json `corpusHash`, with the document
 * counts when known), another ground truth (`groundTruthHash`), another k or τ. A change then mixes
 * those edits with the configurations' own effect, which the reader must know.
 */
export function baselineDifferences(run: RunData, base: RunData): string[] {
  const out: string[] = [];
  const docs = (d: RunData) => d.run.counts?.documents;
  if (run.run.corpusHash !== base.run.corpusHash) {
    const counts = docs(run) !== undefined && docs(base) !== undefined ? ` (${docs(base)} → ${docs(run)} documents)` : '';
    out.push(`the baseline ran on other documents${counts}: a change below may come from the edited documents, not from the configuration`);
  }
  if (run.run.groundTruthHash !== base.run.groundTruthHash) out.push('the baseline used another ground truth (questions or evidence were edited): the scores are over other questions');
  if (run.results && base.results && run.results.k !== base.results.k) out.push(`the baseline used k = ${base.results.k}, this run k = ${run.results.k}: the metrics have other cutoffs`);
  if (run.results && base.results && run.results.tau !== base.results.tau) out.push(`the baseline used τ = ${base.results.tau}, this run τ = ${run.results.tau}`);
  return out;
}

function baselineLines(run: RunData, base: RunData, primary: string, top: readonly ConfigResult[]): string[] {
  const o: string[] = ['', '### Changes since the baseline', ''];
  for (const d of baselineDifferences(run, base)) o.push(`> **Note:** ${githubText(d)}.`, '');
  const rec = run.verdict?.recommended ?? null;
  const baseRec = base.verdict?.recommended ?? null;
  o.push(rec === baseRec ? `Recommendation unchanged: ${githubCode(rec ?? 'none')}.` : `Recommendation changed: ${githubCode(baseRec ?? 'none')} → ${githubCode(rec ?? 'none')}.`, '');
  o.push(`| config | ${metricLabel(primary)} now | baseline | change |`, '|---|---:|---:|---:|');
  for (const c of top) {
    const b = base.results?.configs.find((x) => x.id === c.id)?.metrics[primary];
    const now = c.metrics[primary];
    o.push(`| ${githubText(c.id)} | ${n3(now?.mean)} | ${n3(b?.mean)} | ${now && b ? signed(now.mean - b.mean) : 'new'} |`);
  }
  if (rec) {
    // Each run's own primary metric (a baseline may have another k).
    const was = hits(base.questions, rec, metricDef(base.verdict?.primaryMetric ?? primary).questionKey);
    const is = hits(run.questions, rec, metricDef(primary).questionKey);
    const newly = [...is].filter(([id, ok]) => !ok && was.get(id) === true).map(([id]) => id);
    const text = new Map((run.evidence?.questions ?? []).map((q) => [q.id, q.question]));
    o.push('', newly.length ? `**${newly.length} question${newly.length > 1 ? 's' : ''} newly failing** in ${githubCode(rec)} (hit in the baseline, missed now):` : `No question newly fails in ${githubCode(rec)}.`);
    if (newly.length) o.push('', ...newly.slice(0, 50).map((id) => {
      const r = run.questions.find((q) => q.question === id && q.config === rec);
      return `- ${githubText(id)}: ${githubText(text.get(id) ?? '')}${r?.cause ? ` — cause ${githubCode(r.cause)}` : ''}`;
    }), ...(newly.length > 50 ? [`- … ${newly.length - 50} more`] : []));
  }
  return o;
}

/** The GitHub Markdown report of `run` (optionally against `baseline`). `top` = configs shown (default 5). */
export function renderGithubReport(run: RunData, baseline: RunData | null = null, top = 5): string {
  const v = run.verdict ?? null;
  const results = run.results;
  if (!results || !v) return `## Spanproof\n\nThis run has no verdict (status ${githubText(run.run.status)}).\n`;
  const primary = v.primaryMetric;
  const acc = results.acceptance ?? run.run.acceptance; // a hand-made results.json may lack it
  const ranked = [...results.configs].sort((a, b) => a.rank - b.rank).slice(0, top);
  const o: string[] = [`## Spanproof: ${v.recommended ? `use ${githubCode(v.recommended)}` : 'no recommendation'} (${v.status})`, ''];
  o.push(githubText(v.summary), '');
  o.push(`${results.questions} questions scored, k = ${results.k}, τ = ${results.tau}; ${acc ? `${acc.resolved}/${acc.total} questions resolved.` : 'resolution not recorded.'}${results.shard ? ` **Shard ${results.shard.index}/${results.shard.count} only: merge the shards for the whole run.**` : ''}`, '');
  o.push(`| rank | config | ${metricLabel(primary)} [95% CI] | Δ vs best [paired 95% CI] | MRR |`, '|---:|---|---:|---:|---:|');
  for (const c of ranked) {
    const mark = c.id === v.recommended ? ' ✅' : '';
    o.push(`| ${c.rank} | ${githubCode(c.id)}${mark} | ${ciText(c.metrics[primary])} | ${c.vsTop ? `${signed(c.vsTop.diff.mean)} [${signed(c.vsTop.diff.lo)}, ${signed(c.vsTop.diff.hi)}]${c.vsTop.significant ? ' *' : ''}` : 'best'} | ${n3(c.metrics.mrr?.mean)} |`);
  }
  o.push('', '_* significantly worse than the best (Holm-adjusted p < 0.05)._');
  if (baseline) o.push(...baselineLines(run, baseline, primary, ranked));
  return o.join('\n') + '\n';
}
