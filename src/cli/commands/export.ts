/**
 * `spanproof export mlflow RUN... --tracking-uri URI [--experiment NAME]` (issue #18, docs/mlflow.md):
 * one MLflow run per Spanproof run (src/core/export/mlflow.ts); a re-export updates the same MLflow
 * run. The token, when the server needs one, comes from MLFLOW_TRACKING_TOKEN. Exit 0; 2 when the
 * server is unreachable or refuses (the message names the step and the URL).
 */
import type { Command } from 'commander';
import { exportRunToMlflow } from '../../core/export/mlflow';
import type { SetExit } from './index';

export function register(program: Command, setExit: SetExit): void {
  const exp = program.command('export').description('Export runs to other tools.');
  exp
    .command('mlflow')
    .description('Export runs to an MLflow tracking server (params, metrics with CIs, tags, artifacts).')
    .argument('<runs...>', 'run folders')
    .requiredOption('--tracking-uri <uri>', 'the MLflow tracking server, e.g. http://127.0.0.1:5000')
    .option('--experiment <name>', 'experiment name', 'spanproof')
    .action(async (runs: string[], o: { trackingUri: string; experiment: string }) => {
      for (const dir of runs) {
        const r = await exportRunToMlflow(dir, { trackingUri: o.trackingUri, experiment: o.experiment, token: process.env.MLFLOW_TRACKING_TOKEN || undefined });
        process.stdout.write(`${dir}: MLflow run ${r.runId} in experiment ${r.experimentId} (${r.created ? 'created' : 'updated'}): ${r.params} params, ${r.metrics} metrics, ${r.tags} tags, ${r.artifacts.length} artifact files.\n`);
      }
      setExit(0);
    });
}
