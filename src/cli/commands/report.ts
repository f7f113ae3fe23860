/**
 * `spanproof report <run dir> [--format md|html|csv|github] [--baseline RUN] [--out FILE]` (SPEC §11):
 * renders a run directory. Without --out the report goes to stdout. The HTML file is self-contained.
 * `github` is the PR-comment / job-summary Markdown (src/core/report/github.ts; issue #18), with the
 * changes since `--baseline RUN` and the questions that newly fail.
 */
import * as path from 'node:path';
import type { Command } from 'commander';
import { SpanproofError } from '../../core/errors';
import { checkOutputFile, outputPathError } from '../../core/fsErrors';
import { writeFileAtomic } from '../../core/files';
import { baselineDifferences, renderGithubReport, renderRunReport, type ReportFormat } from '../../core/report';
import { readRun, type RunData } from '../../core/runs';
import type { SetExit } from './index';

/** What a run that never finished says about itself, for report's error line. */
function unfinished(run: RunData['run']): { message: string; fix: string } | null {
  const why = run.error?.message ? ` (${run.error.message.replace(/\.$/, '')})` : '';
  switch (run.status) {
    case 'cancelled':
      return { message: 'this run was cancelled before it finished (run.json status `cancelled`), so it has no results to report.', fix: 're-run `spanproof run` on the workspace and let it finish; `spanproof runs` lists the finished runs.' };
    case 'interrupted':
      return { message: 'this run was interrupted: the process that wrote it ended before the run finished (killed, crashed or out of disk space), so it has no results to report.', fix: 're-run `spanproof run` on the workspace; `spanproof runs` lists the finished runs.' };
    case 'failed':
      return { message: `this run failed${why}, so it has no results to report.`, fix: 'fix the cause and re-run `spanproof run` on the workspace; `spanproof runs` lists the finished runs.' };
    case 'running':
    case 'pending':
      return { message: 'this run is still running, so it has no results yet.', fix: 'wait for it to finish (`spanproof runs` shows its status), then run `spanproof report` again.' };
    default:
      return null;
  }
}

/**
 * readRun, refusing a run that has nothing to report — its report would be empty tables and exit 0:
 * a run whose run.json says `succeeded` but whose results.json is missing or not JSON (a folder
 * copied in part, or a file deleted), and a cancelled, interrupted, failed or still running run
 * without results (each named as such).
 */
function readComplete(dir: string, field?: string): RunData {
  const data = readRun(dir);
  if (data.results) return data;
  const stopped = unfinished(data.run);
  if (stopped) throw new SpanproofError('bad-input', stopped.message, { file: path.join(path.resolve(dir), 'run.json'), field, fix: stopped.fix });
  throw new SpanproofError('bad-input', 'this run finished, but its results.json is missing or unreadable, so there is nothing to report.', {
    file: path.join(path.resolve(dir), 'results.json'),
    field,
    fix: 'copy the whole run folder again, or re-run `spanproof run` on the workspace.',
  });
}

export function register(program: Command, setExit: SetExit): void {
  program
    .command('report')
    .description('Render a run directory as Markdown, HTML, CSV or a GitHub PR comment / job summary.')
    .argument('<runDir>', 'a run directory (.spanproof/runs/<id>)')
    .option('--format <fmt>', 'md | html | csv | github (PR comment / job summary)', 'md')
    .option('--baseline <runDir>', 'with --format github: show the changes since this run and the questions that newly fail')
    .option('--out <file>', 'write to this file instead of stdout (never over an existing file without --force); - is stdout')
    .option('--force', 'with --out: replace an existing file')
    .action(async (runDir: string, o: { format: string; out?: string; baseline?: string; force?: boolean }) => {
      if (!['md', 'html', 'csv', 'github'].includes(o.format)) {
        throw new SpanproofError('bad-input', `unknown format "${o.format}".`, { field: '--format', fix: 'use md, html, csv or github.' });
      }
      if (o.baseline !== undefined && o.format !== 'github') throw new SpanproofError('bad-input', '--baseline applies to --format github only.', { field: '--baseline', fix: 'add --format github, or drop --baseline.' });
      const out = o.out === undefined || o.out === '-' ? undefined : path.resolve(o.out); // `--out -` is stdout, as in chunks
      if (out) checkOutputFile(out, '--out', `report.${o.format}`, o.force === true); // before rendering: a bad --out fails fast
      const run = readComplete(runDir);
      const baseline = o.baseline === undefined ? null : readComplete(o.baseline, '--baseline');
      if (baseline) for (const d of baselineDifferences(run, baseline)) process.stderr.write(`note: ${d}.\n`);
      // renderRunReport also reads answers.jsonl, so a run with answers gets its answers section.
      const text = o.format === 'github' ? renderGithubReport(run, baseline) : renderRunReport(runDir, o.format as ReportFormat);
      if (out) {
        try {
          writeFileAtomic(out, text);
        } catch (e) {
          throw outputPathError(e, out, '--out');
        }
        process.stderr.write(`report written to ${out}\n`);
      } else process.stdout.write(text);
      setExit(0);
    });
}
