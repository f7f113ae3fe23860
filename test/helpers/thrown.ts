/** Test helper: the SpanproofError a call throws. */
import assert from 'node:assert/strict';
import type { SpanproofError } from '../../src/core/errors';

/** The SpanproofError `f` throws (fails when it throws nothing or something else). */
export function thrown(f: () => unknown): SpanproofError {
  try {
    f();
  } catch (e) {
    assert.equal((e as Error).name, 'SpanproofError', String(e));
    return e as SpanproofError;
  }
  assert.fail('expected a SpanproofError');
}
