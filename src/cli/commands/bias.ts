/**
 * `spanproof bias <run dir> [--thetas 1,0.9,0.7,0.5,0.3] [--json] [--out FILE]` (SPEC §7.5): the chunk-ID
 * ground-truth bias study over a finished run that kept its chunks (`spanproof run --keep-chunks`).
 * Writes `bias.json` into the run directory (or --out) and prints the Markdown tables.
 */
import * as path from 'node:path';
import type { Command } from 'commander';
import { biasStudyMarkdown, readBiasInputFromRun, runBiasStudy } from '../../core/bias';
import { SpanproofError } from '../../core/errors';
import { checkOutputFile, outputPathError } from '../../core/fsErrors';
import { writeBiasStudy } from '../../core/runs';
import type { SetExit } from './index';
import { makeDirs } from '../../core/files/dirs';

interface BiasCliOptions { thetas?: string; json?: boolean; out?: string; k?: string; force?: boolean }

/** Runs the study over `runDir`, writes `<runDir>/bias.json` and (unless quiet) the headline table to stderr. Used by `spanproof run --bias-study`. */
export function runAndWriteBiasStudy(runDir: string, opts: { quiet?: boolean } = {}): string {
  const study = runBiasStudy(readBiasInputFromRun(runDir));
  const out = writeBiasStudy(runDir, study);
  if (!opts.quiet) process.stderr.write(`${biasStudyMarkdown(study, { perConfig: false })}Bias study written to ${out} (spanproof bias ${JSON.stringify(runDir)} prints every table).\n`);
  return out;
}

export function register(program: Command, setExit: SetExit): void {
  program
    .command('bias')
    .description('Chunk-ID ground-truth bias study over a run directory (needs a run made with --keep-chunks).')
    .argument('<runDir>', 'a run directory under .spanproof/runs/')
    .option('--thetas <list>', 'IoU thresholds for counting a chunk as the same ID (default 1,0.9,0.7,0.5,0.3)')
    .option('--k <n>', 'result-list size (default: the run\'s k)')
    .option('--out <file>', 'where to write the study as JSON (default <runDir>/bias.json; never over an existing file without --force)')
    .option('--force', 'with --out: replace an existing file')
    .option('--json', 'print the study as JSON instead of Markdown')
    .action((runDir: string, opts: BiasCliOptions) => {
      const given = opts.out === undefined ? undefined : path.resolve(opts.out);
      if (given) checkOutputFile(given, '--out', 'bias.json', opts.force === true); // before the study
      const input = readBiasInputFromRun(runDir);
      if (opts.thetas) {
        const ts = opts.thetas.split(',').map(Number);
        if (!ts.length || ts.some((t) => !(t > 0 && t <= 1))) throw new SpanproofError('bad-input', `--thetas must be numbers in (0, 1], got "${opts.thetas}".`, { field: '--thetas', fix: 'e.g. --thetas 1,0.5' });
        input.thetas = ts;
      }
      if (opts.k) {
        const k = Number(opts.k);
        if (!Number.isInteger(k) || k < 1) throw new SpanproofError('bad-input', `--k must be a positive integer, got "${opts.k}".`, { field: '--k', fix: 'e.g. --k 5' });
        input.k = k;
      }
      const study = runBiasStudy(input);
      const out = given ?? path.join(runDir, 'bias.json');
      try {
        makeDirs(path.dirname(out));
        writeBiasStudy(runDir, study, out);
      } catch (e) {
        throw given ? outputPathError(e, out, '--out') : e;
      }
      process.stdout.write(opts.json ? `${JSON.stringify(study, null, 2)}\n` : `${biasStudyMarkdown(study)}\nWrote ${out}\n`);
      setExit(0);
    });
}
