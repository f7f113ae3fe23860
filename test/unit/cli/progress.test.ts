/**
 * #16 item 18: the run's progress says the stage in words (never an internal id such as
 * `embed:recursive`), with elapsed time and an ETA.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clock, progressLine, progressPrinter } from '../../../src/cli/progress';

test('progress line: stage in words, percent, elapsed and ETA; no internal ids', () => {
  const line = progressLine({ done: 25, total: 100, stage: 'embed:recursive' }, 30_000);
  assert.doesNotMatch(line, /embed:recursive/);
  // 25 % in 30 s → 90 s left at that rate
  assert.equal(line, `[${'#'.repeat(8)}${'.'.repeat(22)}]  25% Embedding chunks (recursive)…  0:30 elapsed, ~1:30 left`);
  assert.equal(progressLine({ done: 0, total: 10, stage: 'chunk:heading' }, 1_000, 0), '  0% Chunking and indexing (heading)…  0:01 elapsed');
  assert.equal(progressLine({ done: 10, total: 10, stage: 'write' }, 65_000, 0), '100% Writing run…  1:05 elapsed');
  assert.equal(progressLine({ done: 3, total: 4, stage: 'retrieve:fixed' }, 3_600_000, 0), ' 75% Retrieving (fixed)…  1:00:00 elapsed, ~20:00 left');
});

test('clock: m:ss, h:mm:ss', () => {
  assert.deepEqual([clock(0), clock(59_400), clock(61_000), clock(3_725_000)], ['0:00', '0:59', '1:01', '1:02:05']);
});

test('progress printer (not a terminal): one line per change of words, not per internal stage id', (t) => {
  const lines: string[] = [];
  t.mock.method(process.stderr, 'write', (s: string) => (lines.push(s), true));
  let clockMs = 0;
  const p = progressPrinter(false, () => clockMs);
  p.update(0, 10, 'chunk:fixed');
  p.update(1, 10, 'index:fixed'); // same words: no new line
  clockMs = 500;
  p.update(2, 10, 'embed:fixed');
  clockMs = 3000;
  p.update(2, 10, 'embed:fixed'); // 2 s later: a line again
  t.mock.restoreAll();
  p.end();
  assert.deepEqual(lines, [
    'progress   0% Chunking and indexing (fixed)…  0:00 elapsed\n',
    'progress  20% Embedding chunks (fixed)…  0:01 elapsed, ~0:02 left\n',
    'progress  20% Embedding chunks (fixed)…  0:03 elapsed, ~0:12 left\n',
  ]);
});
