/**
 * `spanproof run` and `spanproof report` as a user runs them (from sources through tsx, the worker
 * from src/worker/main.ts): exit codes 0/1/2, --fail-under gates, --json output, --config errors that
 * name the file and key, and the report formats.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MINI, MINI_GT, REPO, WORKER_TS, tmp } from './helpers';

function cli(args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(REPO, 'src', 'cli', 'main.ts'), ...args], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, SPANPROOF_WORKER: WORKER_TS },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const base = (root: string) => ['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--runs-dir', join(root, 'runs'), '--cache-dir', join(root, 'cache'), '--chunkers', 'heading', '--retrievers', 'bm25', '--rerank', 'off'];

test('run --json prints results.json plus runDir; --fail-under passes (0) and fails (1); report renders md/html/csv', () => {
  const root = tmp('cli');
  const ok = cli([...base(root), '--json', '--fail-under', 'hit@5=0', '--fail-under', 'acceptance=1', '--keep-chunks']);
  assert.equal(ok.code, 0, ok.stderr);
  const out = JSON.parse(ok.stdout);
  assert.equal(out.spanproof, 1);
  assert.equal(out.configs.length, 1);
  assert.equal(out.configs[0].id, 'heading/bm25/none');
  const { runDir, ...rest } = out;
  assert.deepEqual(JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8')), rest);
  assert.ok(existsSync(join(out.runDir, 'chunks', 'heading.jsonl')));
  const chunkLine = JSON.parse(readFileSync(join(out.runDir, 'chunks', 'heading.jsonl'), 'utf8').split('\n')[0]);
  assert.deepEqual(Object.keys(chunkLine), ['chunker', 'id', 'source', 'start', 'end', 'text']);

  const gate = cli([...base(root), '--fail-under', 'hit@5=1.01']);
  assert.equal(gate.code, 1);
  assert.match(gate.stderr, /gate failed: hit@5 = [0-9.]+ \(heading\/bm25\/none\) < 1\.01/);
  assert.match(gate.stdout, /Acceptance: 10\/10 questions resolved/);
  assert.match(gate.stdout, /heading\/bm25\/none \*/);

  for (const [fmt, check] of [
    ['md', (s: string) => assert.match(s, /^# Spanproof run /)],
    ['csv', (s: string) => assert.equal(s.trim().split('\r\n').length, 2)],
    ['html', (s: string) => { assert.match(s, /<div class="ci"/); assert.doesNotMatch(s, /(src|href)="https?:/); }],
  ] as const) {
    const file = join(root, `report.${fmt}`);
    const r = cli(['report', out.runDir, '--format', fmt, '--out', file]);
    assert.equal(r.code, 0, r.stderr);
    check(readFileSync(file, 'utf8'));
  }
});

test('bad input exits 2 with a message naming the file, the key and the fix', () => {
  const root = tmp('cli-bad');
  const cfg = join(root, 'cfg.json');
  writeFileSync(cfg, JSON.stringify({ chunkerz: ['fixed'] }));
  const r1 = cli([...base(root), '--config', cfg]);
  assert.equal(r1.code, 2);
  assert.match(r1.stderr, new RegExp(`${cfg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: chunkerz: .*Fix: remove chunkerz`));
  writeFileSync(cfg, JSON.stringify({ k: 0 }));
  const r1b = cli([...base(root), '--config', cfg]);
  assert.equal(r1b.code, 2);
  assert.match(r1b.stderr, /cfg\.json: k: /);
  const r2 = cli([...base(root), '--fail-under', 'hits=0.5']);
  assert.equal(r2.code, 2);
  assert.match(r2.stderr, /--fail-under/);
  const r3 = cli(['run', '--workspace', MINI, '--groundtruth', join(root, 'missing.json'), '--runs-dir', join(root, 'runs')]);
  assert.equal(r3.code, 2);
  assert.match(r3.stderr, /missing\.json/);
  const r4 = cli([...base(root), '--chunkers', 'bogus']);
  assert.equal(r4.code, 2);
  assert.match(r4.stderr, /--chunkers/);
  assert.ok(!existsSync(join(root, 'runs')) || readdirSync(join(root, 'runs')).length === 0, 'no run directory for rejected input');
});

test('SIGINT cancels the run cleanly: exit 1, run.json status cancelled', async () => {
  const { spawn } = await import('node:child_process');
  const root = tmp('cli-sigint');
  const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'src', 'cli', 'main.ts'), 'run', '--workspace', MINI, '--groundtruth', MINI_GT, '--runs-dir', join(root, 'runs'), '--cache-dir', join(root, 'cache')], {
    cwd: REPO, env: { ...process.env, SPANPROOF_WORKER: WORKER_TS }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let sent = false;
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (!sent && /progress \d+\/\d+ (chunk|index|embed|retrieve|score):/.test(stderr)) {
      sent = true;
      child.kill('SIGINT');
    }
  });
  const code: number = await new Promise((res) => child.on('close', (c) => res(c ?? -1)));
  assert.ok(sent, stderr);
  assert.equal(code, 1, stderr);
  assert.match(stderr, /run cancelled; run directory .* \(status cancelled\)/);
  const dirs = readdirSync(join(root, 'runs'));
  assert.equal(dirs.length, 1);
  assert.equal(JSON.parse(readFileSync(join(root, 'runs', dirs[0], 'run.json'), 'utf8')).status, 'cancelled');
  assert.ok(!existsSync(join(root, 'runs', dirs[0], 'results.json')));
});
