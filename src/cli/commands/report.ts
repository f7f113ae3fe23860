/**
 * `spanproof report <run dir> [--format md|html|csv] [--out FILE]` (SPEC §11): renders a run
 * directory. Without --out the report goes to stdout. The HTML file is self-contained.
 */
import * as path from 'node:path';
import type { Command } from 'commander';
import { SpanproofError } from '../../core/errors';
import { checkOutputFile, outputPathError } from '../../core/fsErrors';
import { writeFileAtomic } from '../../core/files';
import { renderRunReport, type ReportFormat } from '../../core/report';
import type { SetExit } from './index';

export function register(program: Command, setExit: SetExit): void {
  program
    .command('report')
    .description('Render a run directory as Markdown, HTML or CSV.')
    .argument('<runDir>', 'a run directory (.spanproof/runs/<id>)')
    .option('--format <fmt>', 'md | html | csv', 'md')
    .option('--out <file>', 'write to this file instead of stdout')
    .action(async (runDir: string, o: { format: string; out?: string }) => {
      if (!['md', 'html', 'csv'].includes(o.format)) {
        throw new SpanproofError('bad-input', `unknown format "${o.format}".`, { field: '--format', fix: 'use md, html or csv.' });
      }
      const out = o.out === undefined ? undefined : path.resolve(o.out);
      if (out) checkOutputFile(out, '--out', `report.${o.format}`); // before rendering: a bad --out fails fast
      // renderRunReport also reads answers.jsonl, so a run with answers gets its answers section.
      const text = renderRunReport(runDir, o.format as ReportFormat);
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
