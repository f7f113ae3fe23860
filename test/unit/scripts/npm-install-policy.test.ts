/**
 * `npm ci` keeps onnxruntime-node's postinstall from downloading its CUDA libraries on every npm:
 * the `.npmrc` key `onnxruntime-node-install=skip` (read by its script/install on any npm; npm ≥ 11.2
 * prints "Unknown project config" for it — accepted, so that the npm 10 of Node 20/22 and an npm older
 * than 11.16 still install offline), and package.json `allowScripts` denying the script (npm ≥ 11.16
 * skips it), which also covers every other dependency that has an install script (so npm never
 * reports one as unreviewed). No `engines.npm` floor: an older npm must not be refused.
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

test('the .npmrc key keeps an npm that ignores allowScripts from downloading, and no npm version is refused', () => {
  const npmrc = readFileSync(join(REPO, '.npmrc'), 'utf8');
  assert.match(npmrc, /^onnxruntime-node-install=skip$/m);
  assert.doesNotMatch(npmrc, /engine-strict/);
  assert.equal(pkg.engines.npm, undefined);
  // the key reaches onnxruntime-node's install script as npm_config_onnxruntime_node_install
  const r = spawnSync('npm', ['config', 'get', 'onnxruntime-node-install'], { cwd: REPO, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'skip');
});
