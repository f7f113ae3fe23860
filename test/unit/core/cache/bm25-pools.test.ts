// The BM25 list cache (src/core/cache/bm25-pools.ts): a remembered list is exactly what
// Bm25Index.search returned — for the n it was searched with and for every smaller n (the list is
// sorted by compareHits, so a search for m ≤ n returns its first m), and for any n when it holds
// fewer hits than it was searched for (every chunk sharing a token is in it). Files that are not
// what Spanproof wrote are not used.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bm25PoolCache, bm25CacheKey } from '../../../../src/core/cache';
import { Bm25Index } from '../../../../src/core/retrieval';
import type { Chunk } from '../../../../src/core/types';

const WORDS = ['path', 'query', 'parameter', 'body', 'model', 'response', 'cookie', 'header', 'async', 'test', 'the', 'a'];
function chunks(count: number, seed: number): Chunk[] {
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  return Array.from({ length: count }, (_, i) => {
    const text = Array.from({ length: 5 + Math.floor(rnd() * 30) }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ');
    return { id: `d.md#${i * 1000}-${i * 1000 + text.length}`, source: 'd.md', start: i * 1000, end: i * 1000 + text.length, text } as Chunk;
  });
}
const QUERIES = ['path parameter', 'the model response', 'async test header', 'cookie', 'nothing matches zzz'];

test('remembered lists read back bit for bit and answer every n ≤ the searched n (and any n when the list is short)', () => {
  const cs = chunks(300, 7);
  const index = Bm25Index.build(cs);
  const dir = mkdtempSync(join(tmpdir(), 'bm25-pools-'));
  const key = bm25CacheKey(cs);
  const write = Bm25PoolCache.open(dir, key, cs.length);
  for (const q of QUERIES) write.set(q, 20, index.search(q, 20), 1.5);
  assert.equal(write.flush(), true);
  const read = Bm25PoolCache.open(dir, key, cs.length);
  assert.equal(read.notice, null);
  for (const q of QUERIES) {
    for (const m of [1, 5, 19, 20]) assert.deepEqual(read.get(q, m), { hits: index.search(q, m), ms: 1.5 }, `${q} @${m}`);
    const full = index.search(q, 1000);
    assert.equal(read.has(q, 21), full.length < 20, `${q}: a list of ${full.length} hits answers n = 21 only when it is short`);
    if (full.length < 20) assert.deepEqual(read.get(q, 1000)!.hits, full);
  }
  assert.equal(read.has('another question', 1), false);
  assert.deepEqual(read.get('nothing matches zzz', 20), { hits: [], ms: 1.5 });
});

test('a file for another index, with a chunk beyond the index, edited, or of a newer format is not used', () => {
  const cs = chunks(50, 3);
  const index = Bm25Index.build(cs);
  const dir = mkdtempSync(join(tmpdir(), 'bm25-pools-'));
  const key = bm25CacheKey(cs);
  const c = Bm25PoolCache.open(dir, key, cs.length);
  c.set('path', 10, index.search('path', 10), 2);
  c.flush();
  const file = join(dir, 'bm25-pools', `${key}.json`);
  const good = readFileSync(file, 'utf8');

  assert.match(Bm25PoolCache.open(dir, key, 3).notice ?? '', /was damaged \(a chunk index beyond the index\); it is rebuilt\.$/);
  const j = JSON.parse(good);
  writeFileSync(file, JSON.stringify({ ...j, key: 'f'.repeat(64) }));
  assert.match(Bm25PoolCache.open(dir, key, cs.length).notice ?? '', /damaged \(made for another index\)/);
  j.entries[0][3].reverse();
  writeFileSync(file, JSON.stringify(j));
  const edited = Bm25PoolCache.open(dir, key, cs.length);
  assert.match(edited.notice ?? '', /^the BM25 list cache .+ was edited \(its lists do not match its checksum/);
  assert.equal(edited.has('path', 10), false, 'an edited file answers nothing');

  const newer = JSON.stringify({ ...JSON.parse(good), version: 2 });
  writeFileSync(file, newer);
  const n = Bm25PoolCache.open(dir, key, cs.length);
  assert.match(n.notice ?? '', /written by a newer Spanproof \(format 2\); not used and left as it is/);
  n.set('query', 10, index.search('query', 10), 1);
  assert.equal(n.flush(), true);
  assert.equal(readFileSync(file, 'utf8'), newer, 'never overwritten');
  assert.deepEqual(readdirSync(join(dir, 'bm25-pools')), [`${key}.json`], 'no temporary file left');
});
