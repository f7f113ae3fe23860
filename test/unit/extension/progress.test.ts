import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeProgress, describeStage } from '../../../src/shared/protocol';

// Expected strings are the wording asked for by the new-user test (stage names of src/core/grid/engine.ts).
test('describeStage maps engine stages to words', () => {
  assert.equal(describeStage('index:fixed'), 'Chunking and indexing (fixed)…');
  assert.equal(describeStage('chunk:markdown'), 'Chunking and indexing (markdown)…');
  assert.equal(describeStage('retrieve:fixed'), 'Retrieving (fixed)…');
  assert.equal(describeStage('score:fixed'), 'Scoring (fixed)…');
  assert.equal(describeStage('write'), 'Writing run…');
  assert.equal(describeStage('embed:questions'), 'Embedding questions…');
  assert.equal(describeStage('something-new'), 'something-new');
});

test('describeProgress keeps done/total and adds a floored percent', () => {
  // 1/1395 = 0.07 % → 0 %; 1394/1395 = 99.93 % → 99 % (never shows 100 % before the end).
  assert.equal(describeProgress({ stage: 'index:fixed', done: 1, total: 1395 }), 'Chunking and indexing (fixed)… 0% (1/1395)');
  assert.equal(describeProgress({ stage: 'score:fixed', done: 1394, total: 1395 }), 'Scoring (fixed)… 99% (1394/1395)');
  assert.equal(describeProgress({ stage: 'load', done: 0, total: 0 }), 'Loading corpus and ground truth… 0% (0/0)');
});
