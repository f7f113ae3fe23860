/**
 * `spanproof generate <run dir> --endpoint URL --generator-model M --judge-model J [...]` (SPEC §14):
 * the generation loop and judges on an existing run directory — the same stage as `spanproof run
 * --generate`, for a run made earlier. Writes answers.jsonl, ledger.json and results.json "answers".
 * Exit codes: 0 done; 1 cancelled; 2 bad input (no endpoint/model, same model, unknown config, the
 * endpoint refused the key or the model); 3 internal error.
 */
import * as path from 'node:path';
import type { Command } from 'commander';
import { stableStringify } from '../../core/runs';
import { addJudgeOptions, generationText, runGenerateStep, type JudgeCliOptions } from '../judge';
import type { SetExit } from './index';

export function register(program: Command, setExit: SetExit): void {
  const cmd = program
    .command('generate')
    .description('Generate answers for a finished run and judge them with a different model (opt-in; sends questions, retrieved passages and answers to --endpoint only).')
    .argument('<runDir>', 'a run directory (.spanproof/runs/<id>)')
    .option('--json', 'print {"answers": <results.json answers>, "ledger": <ledger.json>} as JSON');
  addJudgeOptions(cmd, true).action(async (runDir: string, o: JudgeCliOptions & { json?: boolean }) => {
    const r = await runGenerateStep(path.resolve(runDir), o, !!o.json);
    if (o.json) process.stdout.write(`${stableStringify({ answers: r.summary, ledger: r.ledger, status: r.status }, 2)}\n`);
    else process.stdout.write(`${generationText(r).join('\n')}\n`);
    setExit(r.status === 'cancelled' ? 1 : 0);
  });
}
