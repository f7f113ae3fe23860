/**
 * `npm ci` keeps onnxruntime-node's postinstall from downloading its CUDA libraries, without an npm
 * warning: package.json `allowScripts` denies that script (npm ≥ 11.16 skips it; the older
 * `.npmrc` key `onnxruntime-node-install=skip` made every npm ≥ 11.2 command print "Unknown project
 * config" and is refused by npm 12), covers every other dependency that has an install script (so
 * npm never reports one as unreviewed, and npm 12 does not block it), and `engines.npm` with
 * `engine-strict` refuses an npm that would ignore the policy and download.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../../helpers/paths';

const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean>; engines: Record<string, string> };
const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };

test('allowScripts denies onnxruntime-node\'s postinstall and covers exactly the dependencies that have install scripts', () => {
  assert.equal(pkg.allowScripts?.['onnxruntime-node'], false);
  const withScripts = Object.entries(lock.packages).filter(([p, v]) => p !== '' && v.hasInstallScript).map(([p]) => p.replace(/^.*node_modules\//, ''));
  assert.deepEqual(Object.keys(pkg.allowScripts ?? {}).sort(), [...new Set(withScripts)].sort());
});

test('npm reads the project config without a warning, and refuses an npm that would ignore allowScripts', () => {
  assert.equal(pkg.engines.npm, '>=11.16.0', 'the first npm that skips a script denied by allowScripts');
  const npmrc = readFileSync(join(REPO, '.npmrc'), 'utf8');
  assert.doesNotMatch(npmrc, /onnxruntime-node-install/);
  const r = spawnSync('npm', ['config', 'get', 'engine-strict'], { cwd: REPO, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'true');
  assert.doesNotMatch(r.stderr, /Unknown (project|env) config/);
});
