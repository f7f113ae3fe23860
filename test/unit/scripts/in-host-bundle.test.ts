// The in-host suites' bundle (test/integration/bundle.mjs) must load. In CI at f7a33b3 it threw at
// import (jsonc-parser's UMD `main` requires './impl/format', which esbuild cannot follow), so VS Code's
// test route ended the extension host at once, no test ran, and e2e scenario 0 waited 10 minutes.
// Here the bundle is required in a child Node process with a stand-in `vscode` module: any property
// is a callable, constructible stand-in, enough for import-time code (`class X extends vscode.TreeItem`);
// the suites' bodies run only in VS Code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error plain ES module of the integration harness, no type declarations
import { bundleInHostSuites } from '../../integration/bundle.mjs';
import { tempDir } from '../../helpers/tmp';

const LOADER = `
const Module = require('node:module');
const { readFileSync } = require('node:fs');
const stand = () => new Proxy(function () {}, { get: (_t, p) => (p === 'then' ? undefined : stand()), apply: () => stand(), construct: () => stand() });
// esbuild's __toESM copies the module's own property names: list every vscode.<name> the bundle uses.
const names = [...new Set([...readFileSync(process.argv[2], 'utf8').matchAll(/\\bvscode\\d*\\.([A-Za-z_$][\\w$]*)/g)].map((m) => m[1]))];
const api = new Proxy({}, {
  get: (_t, p) => (p === '__esModule' ? false : stand()),
  ownKeys: () => names,
  getOwnPropertyDescriptor: (_t, p) => (names.includes(p) ? { configurable: true, enumerable: true, value: stand() } : undefined),
});
const load = Module._load;
Module._load = function (request, ...rest) { return request === 'vscode' ? api : load.call(this, request, ...rest); };
const m = require(process.argv[2]);
process.stdout.write(typeof m.run);
`;

test('the in-host bundle of every integration suite loads and exports run()', async () => {
  const dir = tempDir('spanproof-inhost-');
  const bundle = join(dir, 'index.js');
  const files = (await bundleInHostSuites(bundle)) as string[];
  assert.ok(files.length >= 8, `suites found: ${files.join(', ')}`);
  writeFileSync(join(dir, 'load.cjs'), LOADER);
  const r = spawnSync(process.execPath, [join(dir, 'load.cjs'), bundle], { encoding: 'utf8' });
  assert.equal(r.status, 0, `the bundle threw at import:\n${r.stderr.split('\n').slice(0, 12).join('\n')}`);
  assert.equal(r.stdout, 'function');
});
