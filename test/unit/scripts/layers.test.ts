/**
 * The layer rules (scripts/layers.mjs, run by `npm run lint` inside `npm test`) catch what they
 * promise: ESLint, with the repository's own eslint.config.mjs, is run on test/fixtures/layers — a
 * miniature tree that breaks each rule once — and must fail naming every broken rule, and must not
 * flag the type-only cycle there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { FIXTURES, REPO } from '../../helpers/paths';

const ESLINT = path.join(REPO, 'node_modules', 'eslint', 'bin', 'eslint.js');
const ROOT = path.join(FIXTURES, 'layers');

interface Finding { file: string; rule: string | null; message: string }

let cached: { status: number | null; findings: Finding[] } | null = null;
function lintFixture(): { status: number | null; findings: Finding[] } {
  if (cached) return cached;
  // cwd = the fixture root: the zones of no-restricted-paths are relative to the working directory.
  const r = spawnSync(process.execPath, [ESLINT, '--config', path.join(REPO, 'eslint.config.mjs'), '--no-ignore', '--format', 'json', 'src', 'webview'], { cwd: ROOT, encoding: 'utf8' });
  const files = JSON.parse(r.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string | null; message: string }> }>;
  return (cached = { status: r.status, findings: files.flatMap((f) => f.messages.map((m) => ({ file: path.relative(ROOT, f.filePath).split(path.sep).join('/'), rule: m.ruleId, message: m.message }))) });
}

test('an upward import, a value from core in shared, host code in the webview and a runtime cycle each fail the lint with the rule named', () => {
  const { status, findings } = lintFixture();
  assert.equal(status, 1, 'eslint exits 1 on the fixture');
  const has = (file: string, rule: string, text: string) =>
    assert.ok(findings.some((f) => f.file === file && f.rule === rule && f.message.includes(text)), `${file}: ${rule} "${text}" in ${JSON.stringify(findings, null, 1)}`);
  has('src/core/upward.ts', 'import-x/no-restricted-paths', '[layers/core-at-bottom]');
  has('src/shared/protocol.ts', '@typescript-eslint/no-restricted-imports', '[layers/shared-types-only]');
  has('webview/main.ts', 'import-x/no-restricted-paths', '[layers/webview-is-a-browser-bundle]');
  has('src/core/cycle-a.ts', 'import-x/no-cycle', 'Dependency cycle');
  has('src/core/cycle-b.ts', 'import-x/no-cycle', 'Dependency cycle');
});

test('allowed imports are not flagged: types across a cycle, src/core from the webview, a type from core in shared', () => {
  const { findings } = lintFixture();
  assert.deepEqual(findings.filter((f) => f.file.startsWith('src/core/types-')), []);
  // webview/main.ts imports src/core/upward (allowed) and src/worker/host (not): one finding only
  assert.equal(findings.filter((f) => f.file === 'webview/main.ts').length, 1);
  // src/shared/protocol.ts has a value import (flagged) and a type import (allowed) from src/core
  assert.equal(findings.filter((f) => f.file === 'src/shared/protocol.ts').length, 1);
  assert.deepEqual(findings.filter((f) => f.file === 'src/worker/host.ts'), []);
});
