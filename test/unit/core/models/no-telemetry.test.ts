import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// onnxruntime-node 1.30's native library carries a 1DS telemetry client that writes
// `<tmp>/mat-debug-<pid>.log` in every process that creates a session unless ORT_DISABLE_TELEMETRY=1
// (observed on this machine: one file per process before src/core/ortEnv.ts existed). Spanproof
// promises no telemetry, so creating a session through our loader must not start it.
test('creating an ONNX session through src/core/models does not start onnxruntime telemetry', () => {
  const script = `
    const { loadDefaultEmbedder } = require('./src/core/models');
    (async () => {
      const e = await loadDefaultEmbedder({ threads: 1 });
      await e.embed(['telemetry check']);
      await e.dispose();
      process.stdout.write(JSON.stringify({ pid: process.pid, env: process.env.ORT_DISABLE_TELEMETRY }));
    })().catch((err) => { console.error(err); process.exit(1); });`;
  const env = { ...process.env };
  delete env.ORT_DISABLE_TELEMETRY;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8', env });
  assert.equal(r.status, 0, r.stderr);
  const { pid, env: flag } = JSON.parse(r.stdout) as { pid: number; env: string };
  assert.equal(flag, '1');
  assert.equal(existsSync(join(tmpdir(), `mat-debug-${pid}.log`)), false, 'onnxruntime telemetry log was created');
});
