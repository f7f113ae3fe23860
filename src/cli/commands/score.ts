/**
 * `spanproof score <azure|ragas|memory> <path> [--metrics a,b] [--json]` (SPEC §11): evaluate an
 * answer-level dataset (no retrieval). azure/ragas: generation metrics per item and their means with
 * a bootstrap CI; memory: keyword-overlap accuracy/precision/recall/F1 from confusion counts,
 * coverage and latency (src/core/score/memory.ts).
 */
import type { Command } from 'commander';
import { SpanproofError } from '../../core/errors';
import { nothingToScoreError, readAzureJsonl, readMemoryEval, readRagasAnswers, SCORE_FORMATS, scoreAnswers, scoreMemoryEval, type AnswerScoreReport, type MemoryEvalReport } from '../../core/score';
import { GENERATION_METRICS, type GenerationMetric } from '../../core/metrics/generation';
import type { SetExit } from './index';
import { addJudgeOptions, judgesForScore, ledgerLine, type JudgeCliOptions } from '../judge';

interface ScoreCliOptions extends JudgeCliOptions { compat?: string; threshold?: string; metrics?: string; json?: boolean; label?: string; tokenization?: string; seed?: string; resamples?: string }

const f = (x: number | null | undefined): string => (x === null || x === undefined || Number.isNaN(x) ? '—' : x.toFixed(3));
/** A number cell of fixed width (5 = "0.123"), so "—" keeps the columns aligned. */
const c = (x: number | null | undefined): string => f(x).padStart(5);
const ci = (lo: number | null | undefined, hi: number | null | undefined): string => `[${c(lo)}, ${c(hi)}]`;

function answersText(r: AnswerScoreReport): string {
  const out = [`Scored ${r.items} item(s) from ${r.input} (${r.format}; ${r.rowsRead} rows read, ${r.rejected.length} rejected).`];
  out.push('metric         mean   95% CI            measured');
  for (const [m, a] of Object.entries(r.aggregate)) out.push(`${m.padEnd(14)} ${c(a.mean)}  ${ci(a.lo, a.hi)}    ${a.measured}/${a.total}`);
  for (const x of r.rejected) out.push(`  REJECTED line ${x.row}: ${x.reason}`);
  for (const n of r.notes) out.push(`  note: ${n}`);
  return out.join('\n');
}

function memoryText(r: MemoryEvalReport): string {
  const out = [`Scored ${r.n} memory-eval item(s) from ${r.input} (keywords: ${r.tokenizer}; correct when hit rate > ${r.threshold}).`];
  out.push(`hit rate      ${c(r.hitRate.mean)} ${ci(r.hitRate.lo, r.hitRate.hi)}`);
  out.push(`predicted ok  ${c(r.predictedCorrect.mean)} ${ci(r.predictedCorrect.lo, r.predictedCorrect.hi)}`);
  out.push(`coverage      ${c(r.coverage.mean)} ${ci(r.coverage.lo, r.coverage.hi)}`);
  if (r.confusion) out.push(`confusion     TP ${r.confusion.tp}  TN ${r.confusion.tn}  FP ${r.confusion.fp}  FN ${r.confusion.fn}`);
  const ratio = (name: string, x: { value: number | null; reason?: string }): string => `${name.padEnd(13)} ${x.value === null ? `${c(null)} (${x.reason})` : c(x.value)}`;
  out.push(`${ratio('accuracy', r.accuracy)}${r.accuracy.ci ? ` ${ci(r.accuracy.ci.lo, r.accuracy.ci.hi)}` : ''}`);
  out.push(ratio('precision', r.precision), ratio('recall', r.recall), ratio('F1', r.f1));
  out.push(`latency       ${r.latency.measured ? `${f(r.latency.latencyMs)} ms (retrieval ${f(r.latency.retrievalMs)}, generation ${f(r.latency.generationMs)})` : 'not in the data'}; scorer ${r.scorerMs.toFixed(1)} ms`);
  for (const n of r.notes) out.push(`  note: ${n}`);
  return out.join('\n');
}

export function register(program: Command, setExit: SetExit): void {
  program
    .command('score')
    .description('Score an answer-level dataset (no retrieval): generation metrics, or memory-eval keyword accuracy.')
    .argument('<format>', SCORE_FORMATS.join('|'))
    .argument('<path>', 'the dataset file')
    .option('--metrics <list>', `azure/ragas: comma-separated generation metrics (${GENERATION_METRICS.join(', ')})`)
    .option('--tokenization <mode>', 'azure/ragas: unicode (default) | reference; memory: unicode (default) | memory-eval')
    .option('--threshold <x>', 'memory: keyword hit rate above which an answer counts as correct (default 0.7, strict >)')
    .option('--label <0|1>', 'memory: the true label of every item without its own "label" field (the original tool passed one per file)')
    .option('--seed <n>', 'bootstrap seed (default 42)')
    .option('--resamples <n>', 'bootstrap resamples (default 2000)')
    .option('--compat <system>', 'azure/ragas: also report another tool\'s numbers beside the standard ones: weknora (docs/weknora-parity.md)')
    .option('--json', 'print the full report (with per-item scores) as JSON')
    .action(async (format: string, input: string, opts: ScoreCliOptions) => {
      if (!(SCORE_FORMATS as readonly string[]).includes(format)) throw new SpanproofError('bad-input', `unknown score format "${format}".`, { field: '<format>', fix: `use one of ${SCORE_FORMATS.join(', ')}.` });
      const int = (v: string | undefined, name: string): number | undefined => {
        if (v === undefined) return undefined;
        const n = Number(v);
        if (!Number.isInteger(n) || n < 0) throw new SpanproofError('bad-input', `${name} must be a whole number, got "${v}".`, { field: name, fix: `e.g. ${name} 2000` });
        return n;
      };
      const seed = int(opts.seed, '--seed');
      const resamples = int(opts.resamples, '--resamples');
      if (format === 'memory') {
        if (opts.metrics) throw new SpanproofError('bad-input', '--metrics does not apply to the memory format (it reports keyword accuracy, coverage and latency).', { field: '--metrics', fix: 'drop --metrics.' });
        if (opts.label !== undefined && opts.label !== '0' && opts.label !== '1') throw new SpanproofError('bad-input', `--label must be 0 or 1, got "${opts.label}".`, { field: '--label', fix: '--label 1 when every answer is meant to be correct, 0 when wrong.' });
        const tok = opts.tokenization ?? 'unicode';
        if (tok !== 'unicode' && tok !== 'memory-eval') throw new SpanproofError('bad-input', `unknown tokenization "${tok}" for memory.`, { field: '--tokenization', fix: 'use unicode or memory-eval.' });
        const threshold = opts.threshold === undefined ? undefined : Number(opts.threshold);
        if (threshold !== undefined && !(threshold >= 0 && threshold <= 1)) throw new SpanproofError('bad-input', `--threshold must be a number in [0, 1], got "${opts.threshold}".`, { field: '--threshold', fix: 'e.g. --threshold 0.5' });
        const memItems = readMemoryEval(input);
        if (memItems.length === 0) throw nothingToScoreError('memory', input, 0, []);
        const r = scoreMemoryEval(input, memItems, { threshold, tokenizer: tok, label: opts.label === undefined ? undefined : (Number(opts.label) as 0 | 1), seed, resamples });
        process.stdout.write(opts.json ? `${JSON.stringify(r, null, 2)}\n` : `${memoryText(r)}\n`);
        return setExit(0);
      }
      const metrics = opts.metrics?.split(',').map((s) => s.trim()).filter(Boolean) as GenerationMetric[] | undefined;
      const tok = opts.tokenization ?? 'unicode';
      if (tok !== 'unicode' && tok !== 'reference') throw new SpanproofError('bad-input', `unknown tokenization "${tok}".`, { field: '--tokenization', fix: 'use unicode or reference.' });
      if (opts.compat !== undefined && opts.compat !== 'weknora') throw new SpanproofError('bad-input', `unknown --compat "${opts.compat}".`, { field: '--compat', fix: 'use --compat weknora.' });
      const read = format === 'azure' ? readAzureJsonl(input) : readRagasAnswers(input);
      if (read.items.length === 0) {
        if (!opts.json) for (const x of read.rejected.slice(0, 10)) process.stderr.write(`  REJECTED line ${x.row}: ${x.reason}\n`);
        throw nothingToScoreError(format as 'azure' | 'ragas', input, read.rowsRead, read.rejected);
      }
      const judged = judgesForScore(opts, read.items); // LLM judges when --endpoint is given (SPEC §14, src/cli/judge.ts)
      const r = await scoreAnswers(format as 'azure' | 'ragas', input, read, { metrics, tokenization: tok, seed, resamples, judges: judged?.judges, compat: opts.compat as 'weknora' | undefined });
      const ledger = judged?.ledger();
      if (ledger?.status === 'failed') throw new SpanproofError('bad-input', `every request to the endpoint failed (${ledger.requests} request(s)); no judge metric was measured.`, { field: '--endpoint', fix: 'check the endpoint URL, --judge-model, SPANPROOF_API_KEY and the server\'s log.' });
      process.stdout.write(opts.json ? `${JSON.stringify(ledger ? { ...r, ledger } : r, null, 2)}\n` : `${answersText(r)}${ledger ? `\n${ledgerLine(ledger)}` : ''}\n`);
      setExit(0);
    });
  // LLM judges for azure/ragas (SPEC §14): --endpoint, --judge-model, --judge-metrics… (src/cli/judge.ts).
  addJudgeOptions(program.commands.find((c) => c.name() === 'score')!, false);
}
