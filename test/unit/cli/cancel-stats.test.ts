/**
 * #16 N6: Ctrl-C / SIGTERM during the statistics of a run (bootstrap CIs, aggregation, the verdict's
 * paired comparisons) was ignored — nothing there checked the abort signal, so a run with
 * bootstrap.resamples = 100000 (~20 s of bootstrap on samples/fastapi-mini's full grid) could not be
 * cancelled and even finished `succeeded`. The CLI is interrupted once its progress says "Computing
 * metrics…": it must end as cancelled (exit 130 for SIGINT, 143 for SIGTERM; run.json status
 * `cancelled`) within a generous bound.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../../helpers/paths';
import { tempDir } from '../../helpers/tmp';

const MINI = join(REPO, 'samples', 'fastapi-mini');
const MINI_GT = join(REPO, 'samples', 'fastapi-mini.groundtruth.json');
/** Far more than the ~40 ms of work between two cancellation points; catches "never" (the stage alone takes ~20 s). */
const BOUND_MS = 8000;

for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  test(`${signal} during the bootstrap of a 100000-resample run ends it as cancelled (exit ${code}) within ${BOUND_MS / 1000} s`, { skip: !existsSync(MINI_GT) && 'samples/fastapi-mini is absent', timeout: 180000 }, async (t) => {
    const root = tempDir('spanproof-cancel-stats-', t);
    const config = join(root, 'settings.json');
    writeFileSync(config, JSON.stringify({ 'spanproof.bootstrap.resamples': 100000 }));
    const runs = join(root, 'runs');
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'src', 'cli', 'main.ts'), 'run', '--workspace', MINI, '--groundtruth', MINI_GT, '--config', config, '--runs-dir', runs, '--cache-dir', join(root, 'cache')], { cwd: REPO, env: { ...process.env, SPANPROOF_WORKER: join(REPO, 'src', 'worker', 'main.ts') } });
    let stderr = '';
    let sentAt = 0;
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
      if (!sentAt && stderr.includes('Computing metrics')) {
        sentAt = Date.now();
        child.kill(signal);
      }
    });
    const exit = await new Promise<number | null>((res) => child.on('close', res));
    assert.ok(sentAt > 0, `the run reached the statistics: ${stderr}`);
    const took = Date.now() - sentAt;
    assert.equal(exit, code, stderr);
    assert.ok(took < BOUND_MS, `ended ${took} ms after ${signal}`);
    t.diagnostic(`ended ${took} ms after ${signal}`);
    const [id] = readdirSync(runs);
    assert.equal(JSON.parse(readFileSync(join(runs, id, 'run.json'), 'utf8')).status, 'cancelled');
  });
}
