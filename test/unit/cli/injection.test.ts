/**
 * `spanproof run --injection-study` through the real CLI and worker on a copy of samples/fastapi-mini
 * (issue #17 item 1): the default 30-config grid, injection.json in the run folder with exposure CIs,
 * the workspace documents untouched (hashes), and the study in the md/html/csv reports.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { MINI, MINI_GT, tmp } from '../../helpers/grid';
import { hashTree } from '../../helpers/hashTree';

test('run --injection-study: 30 configs, injection.json with CIs, documents untouched, in every report format', async () => {
  const root = tmp('inj-cli');
  const ws = join(root, 'ws');
  cpSync(MINI, ws, { recursive: true });
  const before = hashTree(ws);
  const out = join(root, 'run');
  const r = await runCli(['run', '--workspace', ws, '--groundtruth', MINI_GT, '--out', out, '--cache-dir', join(root, 'cache'), '--injection-study', '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(hashTree(ws), before, 'no document changed, none added');
  const json = JSON.parse(r.stdout);
  assert.equal(json.injection.file, join(out, 'injection.json'));
  const inj = JSON.parse(readFileSync(join(out, 'injection.json'), 'utf8'));
  assert.equal(inj.configs.length, 30);
  assert.equal(inj.canaries.length, 12);
  for (const c of inj.canaries) for (const key of ['id', 'kind', 'source', 'start', 'end', 'text']) assert.ok(key in c, key);
  for (const c of inj.configs) {
    assert.ok(typeof c['exposure@5'].lo === 'number' && c['exposure@5'].lo <= c['exposure@5'].mean && c['exposure@5'].mean <= c['exposure@5'].hi, c.id);
    assert.deepEqual(Object.keys(c.byKind).sort(), ['information_gathering', 'intrusion', 'manipulated_content']);
  }
  const md = await runCli(['report', out, '--format', 'md']);
  assert.equal(md.code, 0, md.stderr);
  assert.match(md.stdout, /## Injection exposure \(exposure@5, offline\)/);
  assert.match(md.stdout, /a local judge is not Azure's safety service/);
  const html = await runCli(['report', out, '--format', 'html']);
  assert.match(html.stdout, /<h2 id="injection">/);
  const csv = await runCli(['report', out, '--format', 'csv']);
  const head = csv.stdout.split(/\r?\n/)[0].split(',');
  assert.deepEqual(head.slice(-3), ['exposure@5', 'exposure@5_lo', 'exposure@5_hi']);
  const bad = await runCli(['run', '--workspace', ws, '--groundtruth', MINI_GT, '--canaries-per-kind', '3']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--canaries-per-kind needs --injection-study/);
});
