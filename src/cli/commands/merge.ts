/**
 * `spanproof merge --out DIR RUN...` (issue #18, docs/ci.md): joins the run folders of
 * `spanproof run --shard i/n` into one run folder whose results.json, ranking.json and
 * questions.jsonl are byte-identical to an unsharded run with the same settings
 * (src/core/grid/merge.ts). `--fail-under` gates the merged verdict like `run` does. Exit codes: 0;
 * 1 a gate failed; 2 the shards do not belong together, one is missing or given twice (the message
 * names them), or `--out` holds an earlier run.
 */
import * as path from 'node:path';
import type { Command } from 'commander';
import { mergeShards } from '../../core/grid/merge';
import { assertNewOutDir, stableStringify } from '../../core/runs';
import type { SetExit } from './index';
import { applyGates, parseGates, resolveGates } from './gates';

const collect = (v: string, prev: string[]) => [...prev, v];

export function register(program: Command, setExit: SetExit): void {
  program
    .command('merge')
    .description('Merge the run folders of `spanproof run --shard i/n` into one run (identical to an unsharded run).')
    .argument('<runs...>', 'the shard run folders, one per shard')
    .requiredOption('--out <dir>', 'the merged run folder (new or empty)')
    .option('--json', 'print only JSON (results.json content plus runDir) on stdout')
    .option('--fail-under <metric=value>', 'exit 1 when the recommended config scores below (repeatable; e.g. hit@k=0.8)', collect, [])
    .option('--gate-config <id>', 'gate --fail-under on this config instead of the recommended one')
    .action(async (runs: string[], o: { out: string; json?: boolean; failUnder: string[]; gateConfig?: string }) => {
      const parsed = parseGates(o.failUnder, o.gateConfig);
      const out = path.resolve(o.out);
      assertNewOutDir(out);
      const m = mergeShards(runs, out);
      const gates = resolveGates(parsed, m.settings, o.gateConfig);
      if (o.json) process.stdout.write(`${stableStringify({ ...m.results, runDir: m.runDir, verdict: m.verdict }, 2)}\n`);
      else {
        for (const w of m.warnings) process.stderr.write(`warning: ${w}\n`);
        process.stdout.write(`Merged ${runs.length} shards into ${m.runDir}.\n${m.verdict.recommended ? `Recommended: ${m.verdict.recommended} (${m.verdict.status}).` : m.verdict.summary}\n`);
      }
      setExit(applyGates(gates, m.results, m.verdict, o.gateConfig) ? 1 : 0);
    });
}
