// The network and import libraries are loaded on first use (src/core/net/sdk.ts): a process that only
// runs the grid or prints `--version` does not execute `openai` (≈ 6 MB RSS), `undici` (≈ 10 MB),
// `stopword` or `hyparquet-compressors` (issue #13's memory figures). Runs in its own process
// (node --test isolates files), so require.cache shows what this file's imports loaded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { registerCommands } from '../../../../src/cli/commands';
import { runGrid } from '../../../../src/core/grid/run';
import { openaiSdk, undici, isOpenAIError } from '../../../../src/core/net/sdk';

const LAZY = ['openai', 'undici', 'stopword', 'hyparquet-compressors'];
const loaded = (pkg: string) => Object.keys(require.cache).some((k) => k.includes(join('node_modules', pkg) + '/') || k.includes(join('node_modules', pkg) + '\\'));

test('importing every CLI command and the grid loads none of the lazily loaded packages', () => {
  assert.equal(typeof registerCommands, 'function');
  assert.equal(typeof runGrid, 'function');
  for (const pkg of LAZY) assert.equal(loaded(pkg), false, `${pkg} was loaded at import time`);
  assert.equal(isOpenAIError(new Error('x'), 'APIError'), false, 'the check answers without loading openai');
  assert.equal(loaded('openai'), false);
});

test('the first call loads the package (the check above can see a load)', () => {
  const sdk = openaiSdk();
  assert.equal(loaded('openai'), true);
  assert.equal(isOpenAIError(new sdk.APIUserAbortError(), 'APIUserAbortError'), true);
  assert.equal(isOpenAIError(new Error('x'), 'APIError'), false);
  assert.equal(typeof undici().request, 'function');
  assert.equal(loaded('undici'), true);
});
