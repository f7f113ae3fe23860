// How run files write numbers (src/core/runs/json.ts): `Number(x.toFixed(6))`, -0 as 0, non-finite
// as null. The integer fast path must print exactly what that definition prints.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roundForJson, stableStringify } from '../../../../src/core/runs/json';
import { createRng } from '../../../../src/core/stats';

/** The definition, written out (the module comment's formula). */
const byDefinition = (x: number): number | null => {
  if (!Number.isFinite(x)) return null;
  const r = Number(x.toFixed(6));
  return Object.is(r, -0) ? 0 : r;
};

test('roundForJson equals Number(x.toFixed(6)) for integers of every size, fractions, -0 and non-finite numbers', () => {
  const xs = [0, -0, 1, -1, 2 ** 53, 2 ** 53 + 2, -(2 ** 60), 1e21, -1e21, 1e21 + 2 ** 20, 1.7976931348623157e308, -1e300, 5e-324, -5e-324, 1e-7, -1e-7, 4e-7, -4e-7, 0.5, 2.5e-7, 0.1234565, 1 / 3, NaN, Infinity, -Infinity];
  const rng = createRng(11);
  for (let i = 0; i < 20000; i++) {
    const big = Math.round((rng() - 0.5) * 2 ** (rng() * 90));
    xs.push(big, big + rng(), (rng() - 0.5) * 10 ** Math.floor(rng() * 8 - 4));
  }
  for (const x of xs) assert.ok(Object.is(roundForJson(x), byDefinition(x)), `${x}: ${roundForJson(x)} vs ${byDefinition(x)}`);
  assert.equal(stableStringify({ b: [-0, 3, 1e21, 0.1234567], a: NaN }), '{"a":null,"b":[0,3,1e+21,0.123457]}');
});
