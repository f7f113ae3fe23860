/**
 * `spanproof generate <run dir> --endpoint URL --generator-model M --judge-model J [...]` (SPEC §14):
 * the generation loop and judges on an existing run directory — the same stage as `spanproof run
 * --generate`, for a run made earlier. Writes answers.jsonl, ledger.json and results.json "answers".
 * Refuses (exit 2) when the run already has answers.jsonl, unless --overwrite.
 * Exit codes: 0 done; 130 cancelled with Ctrl-C (like `run`); 2 bad input (no endpoint/model, same model, unknown config, existing
 * answers without --overwrite, the endpoint unreachable or refusing the key or the model); 3 internal error.
 */
import { existsSync } from 'node:fs';
import { MAX_DATA_FILE_BYTES, readRegularTextSync } from '../../core/files/read';
import * as path from 'node:path';
import { SpanproofError } from '../../core/errors';
import type { Command } from 'commander';
import { stableStringify, workspaceOfRunDir } from '../../core/runs';
import { mergeSettingsLayers, readSettingsLayers, settingOrigins, workspaceSettingsNotes, type RunSettings } from '../../core/settings';
import { addJudgeOptions, generationText, runGenerateStep, type JudgeCliOptions } from '../judge';
import type { SetExit } from './index';
import { EXIT } from '../exit';

export function register(program: Command, setExit: SetExit): void {
  const cmd = program
    .command('generate')
    .description('Generate answers for a finished run and judge them with a different model (opt-in; sends questions, retrieved passages and answers to --endpoint only).')
    .argument('<runDir>', 'a run directory (.spanproof/runs/<id>)')
    .option('--json', 'print {"answers": <results.json answers>, "ledger": <ledger.json>} as JSON')
    .option('--overwrite', 'replace the answers, ledger and results.json "answers" of an earlier generate on this run')
    .option('--workspace <dir>', 'the corpus the run was made on (default: the folder holding .spanproof/runs/<id>; needed for runs written elsewhere)')
    .option('--groundtruth <file>', 'ground truth with the reference answers (default: the run\'s, when inside the workspace)');
  addJudgeOptions(cmd, true).action(async (runDir: string, o: JudgeCliOptions & { json?: boolean; overwrite?: boolean; workspace?: string; groundtruth?: string }) => {
    // Never lose earlier answers silently (a re-run with fewer --judge-metrics would replace the others),
    // nor those a killed generate left in answers.partial.jsonl.
    for (const name of ['answers.partial.jsonl', 'answers.jsonl']) { // a stopped generate's first: its answers are the newest
      const answersFile = path.join(path.resolve(runDir), name);
      if (existsSync(answersFile) && !o.overwrite) {
        throw new SpanproofError('bad-input', `this run already has answers${name.includes('partial') ? ' (from a generate that was stopped)' : ''}; generating again would replace them and their ledger.`, { file: answersFile, fix: 'pass --overwrite to replace them (the reply cache makes unchanged requests free), or copy the run directory first.' });
      }
    }
    // The endpoint comes from --endpoint only: a run folder's run.json never chooses where data and the key go.
    const target = { endpoint: o.endpoint ?? '', workspace: o.workspace && path.resolve(o.workspace), groundTruthFile: o.groundtruth && path.resolve(o.groundtruth), judge: workspaceJudgeSettings(path.resolve(runDir), o.workspace, !!o.json) };
    const r = await runGenerateStep(path.resolve(runDir), target, o, !!o.json);
    if (o.json) process.stdout.write(`${stableStringify({ answers: r.summary, ledger: r.ledger, status: r.status }, 2)}\n`);
    else process.stdout.write(`${generationText(r).join('\n')}\n`);
    setExit(r.status === 'cancelled' ? EXIT.cancelled : EXIT.ok);
  });
}

/**
 * The `spanproof.judge.*` keys the workspace's .vscode/settings.json sets (timeout, retries, concurrency,
 * rate limit), read as `run` reads them (src/core/settings layers; endpoints and models are never taken
 * from it) — so a generate on an earlier run follows the settings as they are now, not run.json's.
 */
function workspaceJudgeSettings(runDir: string, given: string | undefined, quiet: boolean): Partial<RunSettings['judge']> {
  let recorded: string | undefined;
  try {
    recorded = (JSON.parse(readRegularTextSync(path.join(runDir, 'run.json'), MAX_DATA_FILE_BYTES)) as { workspace?: string }).workspace;
  } catch {
    /* not a run: the generation stage says so */
  }
  const ws = given ?? workspaceOfRunDir(runDir, recorded);
  if (!ws) return {};
  const { layers } = readSettingsLayers(ws, undefined, quiet ? undefined : (w) => process.stderr.write(workspaceSettingsNotes(w)));
  const set = settingOrigins(mergeSettingsLayers(layers), layers).filter((x) => x.key.startsWith('judge.') && x.from !== 'default');
  return Object.fromEntries(set.map((x) => [x.key.slice('judge.'.length), x.value]));
}
