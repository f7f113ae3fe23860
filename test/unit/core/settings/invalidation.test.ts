// Settings → what they invalidate (src/core/settings/invalidation.ts, from the schema's `invalidates`).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { INVALIDATES, invalidationOf } from '../../../../src/core/settings';
import { DEFAULT_SETTINGS } from '../../../../src/core/settings';

test('every RunSettings key has an invalidation, and no other key does', () => {
  assert.deepEqual(Object.keys(INVALIDATES).sort(), Object.keys(DEFAULT_SETTINGS).sort());
});

test('the most expensive invalidation wins; nothing changed → undefined', () => {
  assert.equal(invalidationOf([]), undefined);
  assert.equal(invalidationOf(['weights']), 'ranking');
  assert.equal(invalidationOf(['k', 'tau']), 'metrics');
  assert.equal(invalidationOf(['tau', 'poolSize']), 'retrieval');
  assert.equal(invalidationOf(['k', 'chunkerParams']), 'index');
  assert.equal(invalidationOf(['include', 'chunkers']), 'corpus');
  assert.equal(invalidationOf(['minQuoteLength', 'include']), 'groundtruth');
});
