/**
 * `spanproof runs [--workspace DIR] [--runs-dir DIR] [--json]`: the runs of a workspace, newest first,
 * with their status as core `listRuns` reads it — a run whose writing process is gone is
 * `interrupted`, never `running` forever (issue #16 item 16).
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { listRuns } from '../../core/runs';
import { terminalSafe } from '../../core/text/terminal';
import type { SetExit } from './index';

interface RunsOptions { workspace: string; runsDir?: string; json?: boolean }

export function register(program: Command, setExit: SetExit): void {
  program
    .command('runs')
    .description('List the runs of a workspace, newest first, with their status (a run whose process is gone is "interrupted").')
    .option('--workspace <dir>', 'corpus root (its runs are in <dir>/.spanproof/runs)', '.')
    .option('--runs-dir <dir>', 'list the runs in this folder instead')
    .option('--json', 'print the list as JSON')
    .action((opts: RunsOptions) => {
      const root = path.resolve(opts.runsDir ?? path.join(opts.workspace, '.spanproof', 'runs'));
      // a damaged run folder is left out of the list, but never silently (#16)
      const runs = existsSync(root) ? listRuns(root, (dir, reason) => process.stderr.write(`note: ${terminalSafe(dir)}: ${terminalSafe(reason.replace(/\.?$/, ''))}; left out of the list.\n`)) : [];
      if (opts.json) process.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
      else if (!runs.length) process.stdout.write(`No runs in ${root}.\n`);
      else {
        const rows = runs.map((r) => [r.id, r.status, r.startedAt, r.questions === null ? '—' : String(r.questions), r.configs === null ? '—' : String(r.configs), r.top ?? '—']);
        const head = ['run', 'status', 'started', 'questions', 'configs', 'rank 1'];
        const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
        const line = (c: string[]) => c.map((x, i) => x.padEnd(w[i])).join('  ').trimEnd();
        process.stdout.write(`${[line(head), ...rows.map(line)].join('\n')}\n`);
      }
      setExit(0);
    });
}
