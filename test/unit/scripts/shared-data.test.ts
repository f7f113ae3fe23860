// #16 item 24: no unit test may depend silently on ../shared (absent on a clean clone, as in CI) —
// 21 tests used to skip without it and the run stayed green. Data comes from test/fixtures (copies in
// test/fixtures/shared-data, SOURCE.md); a test that truly needs ../shared goes through
// `requireShared` (test/helpers/paths.ts), which fails when CI is set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO, requireShared } from '../../helpers/paths';

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? testFiles(p) : n.endsWith('.ts') ? [p] : [];
  });
}

test('no unit test reads ../shared directly (only via requireShared)', () => {
  const direct = /'\.\.', 'shared'|['"`]\.\.\/shared\/|\bSHARED\b(?!_DATA)/;
  const offenders = testFiles(join(REPO, 'test', 'unit')).filter((f) => readFileSync(f, 'utf8').split('\n')
    .some((line) => direct.test(line) && !/^\s*(\/\/|\*)/.test(line)));
  assert.deepEqual(offenders.map((f) => relative(REPO, f)), []);
});

test('requireShared: absent → skip locally, a failure that says why when CI is set', () => {
  const skipped: string[] = [];
  const t = { name: 'x', skip: (m: string) => void skipped.push(m) };
  const saved = process.env.CI;
  try {
    delete process.env.CI;
    assert.equal(requireShared(t, 'no-such-folder-7c1e'), null);
    assert.match(skipped[0], /needs \.\.\/shared\/no-such-folder-7c1e/);
    process.env.CI = 'true';
    assert.throws(() => requireShared(t, 'no-such-folder-7c1e'), /in CI every test must run: copy the data into test\/fixtures\/shared-data/);
  } finally {
    if (saved === undefined) delete process.env.CI;
    else process.env.CI = saved;
  }
});
