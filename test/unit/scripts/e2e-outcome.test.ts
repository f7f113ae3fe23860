// #16 item 24: the e2e runner (test/e2e/run.mjs) must exit non-zero when no scenario ran — before,
// `process.exit(failed ? 1 : 0)` with zero results was a green run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
// @ts-expect-error plain ES module of the e2e harness, no type declarations
import { e2eOutcome } from '../../e2e/outcome.mjs';

const outcome = e2eOutcome as (r: { ok: boolean }[]) => { code: number; line: string };

test('e2e outcome: zero scenarios ran → exit 1 and says so', () => {
  const o = outcome([]);
  assert.equal(o.code, 1);
  assert.match(o.line, /no scenario ran/);
});

test('e2e outcome: all passed → 0; one failed → 1', () => {
  assert.deepEqual(outcome([{ ok: true }, { ok: true }]), { code: 0, line: '2 passed, 0 failed' });
  assert.deepEqual(outcome([{ ok: true }, { ok: false }]), { code: 1, line: '1 passed, 1 failed' });
});
