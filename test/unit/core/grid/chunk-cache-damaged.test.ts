/**
 * Issue #16 item 15: a damaged chunk cache (truncated file; an entry that is not [start, end] pairs) is
 * rebuilt with one notice naming the file instead of failing every item of its chunker, and the run's
 * results.json is byte-identical to a cold run's. A cache file of a newer format is left as it is.
 * An edited cache — valid JSON of valid [start, end] pairs that are not what the chunker made — is
 * detected by its checksum and rebuilt with a notice, never used.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runGrid } from '../../../../src/core/grid/run';
import { chunkCacheChecksum } from '../../../../src/core/grid/chunkCache';
import { MINI, MINI_GT, smallSettings, tmp } from '../../../helpers/grid';

const settings = smallSettings({ chunkers: ['heading'], retrievers: ['bm25'], rerank: [false] });

/** A cold run under a fresh cache; `run(name)` runs again on that cache; `file` is its one chunk cache file, `good` its text. */
async function coldRun(label: string) {
  const root = tmp(label);
  const cacheDir = join(root, 'cache');
  const run = (name: string) => runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings, outDir: join(root, name), cacheDir });
  const cold = await run('cold');
  const dir = join(cacheDir, 'chunks');
  const [name] = readdirSync(dir);
  const file = join(dir, name);
  return { run, cold, file, good: readFileSync(file, 'utf8') };
}

test('a truncated or garbled chunk cache is rebuilt with a one-line notice; results stay byte-identical', async () => {
  const { run, cold, file, good } = await coldRun('chunk-cache-damaged');
  const j = JSON.parse(good) as { docs: Record<string, unknown> };
  const sha = Object.keys(j.docs)[0];
  for (const [label, damaged] of [['truncated', good.slice(0, 100)], ['garbled', JSON.stringify({ ...j, docs: { ...j.docs, [sha]: 'garbage' } })]] as const) {
    writeFileSync(file, damaged);
    const warm = await run(label);
    assert.equal(warm.status, 'succeeded', label);
    const notices = warm.warnings.filter((w) => w.includes('chunk cache'));
    assert.equal(notices.length, 1, `${label}: ${warm.warnings.join('\n')}`);
    assert.match(notices[0], new RegExp(`^the chunk cache ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} was damaged \\(.+\\); it is rebuilt\\.$`));
    assert.ok(!warm.warnings.some((w) => /failed/.test(w)), warm.warnings.join('\n'));
    assert.equal(readFileSync(join(warm.runDir!, 'results.json'), 'utf8'), readFileSync(join(cold.runDir!, 'results.json'), 'utf8'), `${label}: results.json byte-identical`);
    assert.equal(readFileSync(file, 'utf8'), good, `${label}: the cache file is rewritten whole`);
  }
  const newer = JSON.stringify({ ...j, version: 3 });
  writeFileSync(file, newer);
  const warm = await run('newer');
  assert.equal(warm.status, 'succeeded');
  assert.ok(warm.warnings.some((w) => w === `the chunk cache ${file} was written by a newer Spanproof (format 3); not used and left as it is — update Spanproof to use it.`), warm.warnings.join('\n'));
  assert.equal(readFileSync(file, 'utf8'), newer, 'a newer cache is never overwritten');
});

test('an edited chunk cache (valid pairs, not the chunker\'s) is detected by its checksum and rebuilt with a one-line notice, never used', async () => {
  const { run, cold, file, good } = await coldRun('chunk-cache-edited');
  const j = JSON.parse(good) as { version: number; key: string; sha: string; docs: Record<string, Array<[number, number]>> };
  assert.equal(j.version, 2);
  assert.equal(j.sha, chunkCacheChecksum(j.key, new Map(Object.entries(j.docs))), 'the file carries the checksum of its entries');
  // every document becomes one chunk [0, 1]: valid JSON, valid ranges, and every question would miss
  const edited = JSON.stringify({ ...j, docs: Object.fromEntries(Object.keys(j.docs).map((sha) => [sha, [[0, 1]]])) });
  // an older file (format 1, no checksum) is rebuilt too, silently (an upgrade, not a problem)
  const older = JSON.stringify({ kind: 'spanproof-chunks', version: 1, key: j.key, docs: JSON.parse(edited).docs });
  for (const [label, text, notice] of [['edited', edited, true], ['older', older, false]] as const) {
    writeFileSync(file, text);
    const warm = await run(label);
    assert.equal(warm.status, 'succeeded', label);
    const notices = warm.warnings.filter((w) => w.includes('chunk cache'));
    assert.deepEqual(notices, notice ? [`the chunk cache ${file} was edited (its entries do not match its checksum — changed after Spanproof wrote it); it is rebuilt.`] : [], label);
    assert.equal(readFileSync(join(warm.runDir!, 'results.json'), 'utf8'), readFileSync(join(cold.runDir!, 'results.json'), 'utf8'), `${label}: results.json byte-identical to the cold run's`);
    assert.equal(readFileSync(file, 'utf8'), good, `${label}: the cache file is rewritten whole`);
  }
});
