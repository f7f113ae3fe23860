/**
 * feedsFor writes int64 tensors through 32-bit words (no BigInt per element): the tensors must equal
 * the obvious BigInt construction, element for element, for every input name a session may declare.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type * as ort from 'onnxruntime-node';
import { feedsFor } from '../../../../src/core/models/session';
import type { EncodedRow } from '../../../../src/core/models/tokenizer';

const ALL = ['input_ids', 'attention_mask', 'token_type_ids', 'position_ids'];

/** The reference: one BigInt per element, as the tensors were built before. */
function reference(rows: readonly EncodedRow[], padId: number): Record<string, bigint[]> {
  const width = Math.max(1, ...rows.map((r) => r.ids.length));
  const out: Record<string, bigint[]> = { input_ids: [], attention_mask: [], token_type_ids: [], position_ids: [] };
  for (const r of rows) {
    for (let j = 0; j < width; j++) {
      const inRow = j < r.ids.length;
      out.input_ids.push(BigInt(inRow ? r.ids[j] : padId));
      out.attention_mask.push(inRow ? 1n : 0n);
      out.token_type_ids.push(BigInt(inRow ? r.typeIds[j] : 0));
      out.position_ids.push(BigInt(j));
    }
  }
  return out;
}

const row = fc.array(fc.tuple(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 1 })), { maxLength: 12 })
  .map((t): EncodedRow => ({ ids: t.map((x) => x[0]), typeIds: t.map((x) => x[1]), contentTokens: t.length }));

test('feedsFor: int64 tensors equal one BigInt per element (ids, pad, mask, type ids, positions)', () => {
  fc.assert(
    fc.property(fc.array(row, { minLength: 1, maxLength: 6 }), fc.integer({ min: -3, max: 70000 }), fc.subarray(ALL, { minLength: 1 }), (rows, padId, names) => {
      const session = { inputNames: names } as unknown as ort.InferenceSession;
      const { feeds, width } = feedsFor(session, rows, padId);
      assert.equal(width, Math.max(1, ...rows.map((r) => r.ids.length)));
      assert.deepEqual(Object.keys(feeds), names);
      const ref = reference(rows, padId);
      for (const name of names) {
        assert.equal(feeds[name].type, 'int64');
        assert.deepEqual(feeds[name].dims, [rows.length, width]);
        assert.deepEqual([...(feeds[name].data as BigInt64Array)], ref[name], name);
      }
    }),
    { numRuns: 300, seed: 13 },
  );
});

test('feedsFor: a pad id of -1 is sign-extended to int64 -1', () => {
  const session = { inputNames: ['input_ids'] } as unknown as ort.InferenceSession;
  const { feeds } = feedsFor(session, [{ ids: [7], typeIds: [0], contentTokens: 1 }, { ids: [1, 2, 3], typeIds: [0, 0, 0], contentTokens: 3 }], -1);
  assert.deepEqual([...(feeds.input_ids.data as BigInt64Array)], [7n, -1n, -1n, 1n, 2n, 3n]);
});
