import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync, readFileSync, chmodSync, readdirSync, mkdirSync, mkdtempSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { EmbeddingCache, EmbeddingPack, QUESTION_SET_KEY, embedChunksCached, PersistentRerankCache, TokenCountCache, cacheSizeReport, clearCache, loadOrBuildBm25, loadOrBuildBm25Async, bm25CacheKey, BM25_CACHE_KEEP, RERANK_CACHE_MAX, type ChunkEmbedder } from '../../../../src/core/cache/index';
import { Bm25Index } from '../../../../src/core/retrieval/index';
import { rerankPool, rerankCacheKey, type RerankScorer } from '../../../../src/core/retrieval/index';
import type { Chunk } from '../../../../src/core/types';
import { chunksOf } from '../../../helpers/retrieval';
import { tempDir } from '../../../helpers/tmp';
import { asUnprivileged } from '../../../helpers/unprivileged';

const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** Test input: a deterministic 3-d "embedder" (vowel counts, L2-normalised) that counts the texts it embeds. */
function countingEmbedder(): ChunkEmbedder & { texts: string[]; calls: number } {
  const e = {
    id: 'test:vowels@1', dim: 3, texts: [] as string[], calls: 0,
    async embed(texts: readonly string[]) {
      e.calls++;
      e.texts.push(...texts);
      const out = new Float32Array(texts.length * 3);
      texts.forEach((t, i) => {
        const v = [1 + (t.match(/a/g)?.length ?? 0), (t.match(/e/g)?.length ?? 0), (t.match(/o/g)?.length ?? 0)];
        const n = Math.hypot(...v);
        v.forEach((x, j) => { out[i * 3 + j] = x / n; });
      });
      return out;
    },
  };
  return e;
}

function corpus(texts: Record<string, string[]>): { chunks: Chunk[]; docSha: Map<string, string> } {
  const chunks = chunksOf(Object.entries(texts).flatMap(([source, ts]) => ts.map((text) => ({ source, text }))));
  const docSha = new Map(Object.entries(texts).map(([s, ts]) => [s, sha(ts.join('\n\n'))]));
  return { chunks, docSha };
}

function tmp(): string {
  return tempDir('spanproof-cache-');
}

const KEY = 'fixed/v1/{"overlap":100,"size":800}';

test('editing one document re-embeds only that document\'s chunks', async () => {
  const dir = tmp();
  try {
    const e = countingEmbedder();
    const v1 = corpus({ 'a.md': ['alpha', 'banana'], 'b.md': ['bee', 'beet', 'been'], 'c.md': ['cocoa'] });
    const fresh = await embedChunksCached(v1.chunks, v1.docSha, KEY, countingEmbedder()); // no cache: the reference matrix
    const cache = new EmbeddingCache(dir);
    assert.deepEqual(await embedChunksCached(v1.chunks, v1.docSha, KEY, e, cache), fresh);
    assert.equal(e.texts.length, 6);
    assert.equal(e.calls, 1); // all misses in one embed call

    // warm: nothing is embedded, same matrix
    const c2 = new EmbeddingCache(dir);
    assert.deepEqual(await embedChunksCached(v1.chunks, v1.docSha, KEY, e, c2), fresh);
    assert.equal(e.texts.length, 6);
    assert.deepEqual(c2.stats, { hits: 3, misses: 0, computedTexts: 0, writeErrors: 0 });

    // edit b.md: only its (new) chunks are embedded
    const v2 = corpus({ 'a.md': ['alpha', 'banana'], 'b.md': ['bee', 'boot'], 'c.md': ['cocoa'] });
    const c3 = new EmbeddingCache(dir);
    const m2 = await embedChunksCached(v2.chunks, v2.docSha, KEY, e, c3);
    assert.deepEqual(e.texts.slice(6), ['bee', 'boot']);
    assert.deepEqual(m2, await embedChunksCached(v2.chunks, v2.docSha, KEY, countingEmbedder()));
    assert.deepEqual(c3.stats, { hits: 2, misses: 1, computedTexts: 2, writeErrors: 0 });

    // another chunker config or another embedder id misses
    const c4 = new EmbeddingCache(dir);
    await embedChunksCached(v2.chunks, v2.docSha, 'fixed/v1/{"overlap":0,"size":400}', e, c4);
    assert.equal(c4.stats.misses, 3);

    // one pack file per (chunker key, first hex digit of a document hash): a.md, b.md (old and new) and c.md
    const shardsOf = (docs: Iterable<string>) => new Set([...docs].map((d) => d[0])).size;
    const packs = shardsOf([...v1.docSha.values(), ...v2.docSha.values()]) + shardsOf(v2.docSha.values());
    assert.equal(cacheSizeReport(dir).kinds.embeddings.files, packs);
    // prune: the old b.md entry (kept in its pack: it takes less room than the entries in use) is removed, the live ones stay
    assert.equal(c4.prune(new Set(v2.docSha.values())), 1);
    assert.equal(c4.prune(new Set(v2.docSha.values())), 0);
    const c5 = new EmbeddingCache(dir);
    await embedChunksCached(v2.chunks, v2.docSha, KEY, e, c5);
    assert.equal(c5.stats.hits, 3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a truncated, corrupt or foreign cache file is ignored and recomputed', async () => {
  const dir = tmp();
  try {
    const v = corpus({ 'a.md': ['alpha', 'banana'], 'b.md': ['bee'] });
    const e = countingEmbedder();
    const want = await embedChunksCached(v.chunks, v.docSha, KEY, e, new EmbeddingCache(dir));
    const cache = new EmbeddingCache(dir);
    const pa = new EmbeddingPack(cache, KEY, e.id, 3);
    const fa = pa.shardPath(v.docSha.get('a.md')![0]);
    const fb = pa.shardPath(v.docSha.get('b.md')![0]);
    assert.notEqual(fa, fb, 'the two documents are in two packs (hashes start with other digits)');
    const bytes = readFileSync(fa);
    writeFileSync(fa, bytes.subarray(0, bytes.length - 5)); // truncated
    writeFileSync(fb, 'not a cache file');
    e.texts.length = 0;
    assert.deepEqual(await embedChunksCached(v.chunks, v.docSha, KEY, e, cache), want);
    assert.deepEqual(e.texts, ['alpha', 'banana', 'bee']);
    assert.deepEqual([...cache.notices].sort(), [
      `the embedding cache ${fa} was damaged (cut short: fewer floats than its entries hold); it is rebuilt.`,
      `the embedding cache ${fb} was damaged (not an embedding pack); it is rebuilt.`,
    ].sort());
    // the rewritten packs are valid again
    const c2 = new EmbeddingCache(dir);
    await embedChunksCached(v.chunks, v.docSha, KEY, e, c2);
    assert.equal(c2.stats.hits, 2);
    assert.deepEqual(c2.notices, []);
    // same document hash but other chunk texts (e.g. a chunker bug fix without a key change) → miss, not stale data
    assert.equal(new EmbeddingPack(c2, KEY, e.id, 3).get(v.docSha.get('a.md')!, ['alpha', 'banana!']), undefined);
    assert.ok(new EmbeddingPack(c2, KEY, e.id, 3).get(v.docSha.get('a.md')!, ['alpha', 'banana']));
    assert.equal(new EmbeddingPack(c2, KEY, e.id, 4).get(v.docSha.get('a.md')!, ['alpha', 'banana']), undefined, 'another dim');
    // a pack named for another chunker key (copied over) is damaged, not used
    writeFileSync(new EmbeddingPack(cache, 'other-key', e.id, 3).shardPath(v.docSha.get('a.md')![0]), readFileSync(fa));
    const c3 = new EmbeddingCache(dir);
    assert.equal(new EmbeddingPack(c3, 'other-key', e.id, 3).get(v.docSha.get('a.md')!, ['alpha', 'banana']), undefined);
    assert.match(c3.notices[0], /was damaged \(its header names another chunker or embedder\); it is rebuilt\.$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a cache file whose header reached the disk but whose data did not (zeros, right length) is recomputed', async () => {
  // The caches are written without fsync (src/core/files durable: false): after a power loss a file
  // can keep its size with unwritten blocks read as zeros. The data checksum must catch it.
  const dir = tmp();
  try {
    const v = corpus({ 'a.md': ['alpha', 'banana'] });
    const e = countingEmbedder();
    const want = await embedChunksCached(v.chunks, v.docSha, KEY, e, new EmbeddingCache(dir));
    const cache = new EmbeddingCache(dir);
    const fa = new EmbeddingPack(cache, KEY, e.id, 3).shardPath(v.docSha.get('a.md')![0]);
    const bytes = readFileSync(fa);
    bytes.fill(0, bytes.length - 2 * 3 * 4); // the 2 × 3 floats
    writeFileSync(fa, bytes);
    assert.equal(new EmbeddingPack(new EmbeddingCache(dir), KEY, e.id, 3).get(v.docSha.get('a.md')!, ['alpha', 'banana']), undefined);
    e.texts.length = 0;
    assert.deepEqual(await embedChunksCached(v.chunks, v.docSha, KEY, e, cache), want);
    assert.deepEqual(e.texts, ['alpha', 'banana']);
    assert.match(cache.notices[0], /was edited \(its vectors do not match their checksum/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('getOrCompute calls compute once per missing entry', async () => {
  const dir = tmp();
  try {
    const cache = new EmbeddingCache(dir);
    let calls = 0;
    const compute = async (t: readonly string[]) => { calls++; return new Float32Array(t.length * 2).fill(0.5); };
    const s = sha('doc');
    const a = await cache.getOrCompute(s, KEY, 'e', ['x', 'y'], 2, compute);
    const b = await cache.getOrCompute(s, KEY, 'e', ['x', 'y'], 2, compute);
    assert.equal(calls, 1);
    assert.deepEqual(a, b);
    await assert.rejects(cache.getOrCompute(sha('other'), KEY, 'e', ['x'], 2, async () => new Float32Array(3)), /returned 3 floats/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an unwritable cache directory degrades to computing, counted, never thrown', async (t) => {
  if (asUnprivileged(t, __filename)) return; // root writes into a 0500 folder: re-run as nobody
  const dir = tmp();
  try {
    chmodSync(dir, 0o500);
    const v = corpus({ 'a.md': ['alpha'] });
    const cache = new EmbeddingCache(join(dir, 'sub'));
    const m = await embedChunksCached(v.chunks, v.docSha, KEY, countingEmbedder(), cache);
    assert.equal(m.length, 3);
    assert.equal(cache.stats.writeErrors, 1);
  } finally {
    chmodSync(dir, 0o700);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('persistent rerank cache: scores survive a reopen; damaged files start empty; size report and clear', async () => {
  const dir = tmp();
  try {
    let calls = 0;
    const scorer: RerankScorer = { id: 'maxsim:glove@abc', score: async (_q, ps) => { calls += ps.length; return Float32Array.from(ps, (p) => p.length); } };
    const chunks = chunksOf(['a', 'bbb', 'cc']);
    const pool = [0, 1, 2].map((chunk) => ({ chunk, score: 0 }));
    const c1 = PersistentRerankCache.open(dir, scorer.id);
    const r1 = await rerankPool('q', pool, chunks, scorer, c1);
    assert.equal(calls, 3);
    assert.equal(c1.flush(), true);
    const c2 = PersistentRerankCache.open(dir, scorer.id);
    assert.equal(c2.size, 3);
    assert.equal(c2.get(rerankCacheKey(scorer.id, 'q', 'bbb')), 3);
    assert.deepEqual(await rerankPool('q', pool, chunks, scorer, c2), r1);
    assert.equal(calls, 3);
    assert.equal(c2.hits, 4);

    writeFileSync(c2.file, '{"kind": "spanproof-rerank-scores", "version": 1, "scorerId": "maxsim:glove@abc", "scores": ');
    assert.equal(PersistentRerankCache.open(dir, scorer.id).size, 0);

    const emb = new EmbeddingCache(dir);
    emb.write(sha('d'), KEY, 'e', ['x'], 2, new Float32Array([0.6, 0.8]));
    const rep = cacheSizeReport(dir);
    assert.deepEqual(Object.keys(rep.kinds).sort(), ['embeddings', 'rerank']);
    assert.equal(rep.kinds.embeddings.files, 1);
    assert.equal(rep.files, 2);
    assert.equal(rep.bytes, rep.kinds.embeddings.bytes + rep.kinds.rerank.bytes);
    assert.ok(rep.kinds.embeddings.bytes > 8);
    writeFileSync(join(dir, 'keep.txt'), 'user file');
    for (const k of ['bm25', 'bm25-pools', 'dense-pools', 'chunks', 'tokens']) {
      mkdirSync(join(dir, k), { recursive: true });
      writeFileSync(join(dir, k, 'x.json'), '{}');
    }
    clearCache(dir);
    assert.deepEqual(readdirSync(dir), ['keep.txt']);
    assert.deepEqual(cacheSizeReport(join(dir, 'absent')), { dir: join(dir, 'absent'), files: 0, bytes: 0, kinds: {} });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('BM25 index cache: a hit returns the same results; other chunk texts miss; damaged entries are rebuilt; old entries pruned', () => {
  const dir = tmp();
  try {
    const chunks = chunksOf(['the cat sat', 'a dog ran', '我喜欢吃苹果', 'cat and dog']);
    const a = loadOrBuildBm25(chunks, dir);
    assert.equal(a.hit, false);
    const b = loadOrBuildBm25(chunks, dir);
    assert.equal(b.hit, true);
    const fresh = Bm25Index.build(chunks);
    for (const q of ['cat', 'dog cat', '苹果', 'zebra']) assert.deepEqual(b.index.search(q, 10), fresh.search(q, 10));
    const edited = chunksOf(['the cat sat', 'a dog ran', '我喜欢吃苹果', 'cat and dogs']);
    assert.notEqual(bm25CacheKey(edited), bm25CacheKey(chunks));
    assert.equal(loadOrBuildBm25(edited, dir).hit, false);
    writeFileSync(join(dir, 'bm25', `${bm25CacheKey(chunks)}.json`), '{"kind": "spanproof-bm25", "version": 1, "size": 4, "index": {');
    assert.equal(loadOrBuildBm25(chunks, dir).hit, false);
    assert.equal(loadOrBuildBm25(chunks, dir).hit, true);
    for (let i = 0; i < BM25_CACHE_KEEP + 3; i++) loadOrBuildBm25(chunksOf([`word${i}`]), dir);
    assert.equal(readdirSync(join(dir, 'bm25')).length, BM25_CACHE_KEEP);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('loadOrBuildBm25Async: builds with yields, stores, reads back the same index; a cancel stores nothing', async () => {
  const dir = tmp();
  try {
    const chunks = chunksOf(['the cat sat', 'a dog ran', '我喜欢吃苹果', 'cat and dog']);
    await assert.rejects(loadOrBuildBm25Async(chunks, dir, { yieldMs: 0, onYield: async () => { throw new Error('cancelled'); } }), /cancelled/);
    let yields = 0;
    const a = await loadOrBuildBm25Async(chunks, dir, { yieldMs: 0, onYield: async () => { yields++; } });
    assert.equal(a.hit, false); // the cancelled build left no entry
    assert.equal(yields, chunks.length);
    const b = await loadOrBuildBm25Async(chunks, dir, { yieldMs: 0, onYield: async () => { yields++; } });
    assert.equal(b.hit, true);
    assert.equal(yields, chunks.length); // read back: no build, no yield
    const fresh = Bm25Index.build(chunks);
    for (const q of ['cat', 'dog cat', '苹果', 'zebra']) assert.deepEqual(b.index.search(q, 10), fresh.search(q, 10));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('token count cache persists per embedder id and ignores another embedder\'s file', () => {
  const dir = tmp();
  try {
    const c = TokenCountCache.open(dir, 'emb:a');
    assert.equal(c.get('sha:0:10'), undefined);
    c.set('sha:0:10', 7);
    assert.equal(c.flush(), true);
    assert.equal(TokenCountCache.open(dir, 'emb:a').get('sha:0:10'), 7);
    assert.equal(TokenCountCache.open(dir, 'emb:b').get('sha:0:10'), undefined);
    // a rerank file of the same id is not read as token counts (another kind)
    const r = PersistentRerankCache.open(dir, 'emb:a');
    r.set('sha:0:10', 3);
    r.flush();
    assert.equal(TokenCountCache.open(dir, 'emb:a').get('sha:0:10'), 7);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('persistent rerank cache keeps the newest RERANK_CACHE_MAX pairs', () => {
  const dir = tmp();
  try {
    const c = PersistentRerankCache.open(dir, 's');
    for (let i = 0; i < RERANK_CACHE_MAX + 5; i++) c.set(`k${i}`, i);
    c.set('k2', -1); // re-scored: becomes the newest
    assert.equal(c.flush(), true);
    const back = PersistentRerankCache.open(dir, 's');
    assert.equal(back.size, RERANK_CACHE_MAX);
    // insertion order k0, k1, k3 … k(MAX+4), k2: the 5 oldest are k0, k1, k3, k4, k5
    for (const gone of ['k0', 'k1', 'k3', 'k4', 'k5']) assert.equal(back.get(gone), undefined);
    assert.equal(back.get('k6'), 6);
    assert.equal(back.get('k2'), -1);
    assert.equal(back.get(`k${RERANK_CACHE_MAX + 4}`), RERANK_CACHE_MAX + 4);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('EmbeddingCache: computeMs reads back with the vectors; keepNewest keeps the newest entries of one key', () => {
  const dir = mkdtempSync(join(tmpdir(), 'emb-keep-'));
  try {
    const cache = new EmbeddingCache(dir);
    assert.equal(cache.write(sha('q'), QUESTION_SET_KEY, 'e', ['a', 'b'], 2, new Float32Array([1, 0, 0, 1]), 12.5), true);
    assert.deepEqual(cache.readTimed(sha('q'), QUESTION_SET_KEY, 'e', ['a', 'b'], 2), { vectors: new Float32Array([1, 0, 0, 1]), computeMs: 12.5 });
    cache.write(sha('r'), QUESTION_SET_KEY, 'e', ['a'], 2, new Float32Array([1, 0]));
    assert.ok(Number.isNaN(cache.readTimed(sha('r'), QUESTION_SET_KEY, 'e', ['a'], 2)!.computeMs), 'no time given: NaN');
    cache.write(sha('x'), KEY, 'e', ['a'], 2, new Float32Array([1, 0])); // another key: untouched
    const t0 = Date.now() / 1000;
    for (const [i, s] of ['q', 'r'].entries()) utimesSync(cache.entryPath(sha(s), QUESTION_SET_KEY, 'e'), t0 - 100 + i, t0 - 100 + i);
    cache.write(sha('s'), QUESTION_SET_KEY, 'e', ['a'], 2, new Float32Array([0, 1]));
    assert.equal(cache.keepNewest(QUESTION_SET_KEY, 'e', 2), 1);
    assert.equal(cache.read(sha('q'), QUESTION_SET_KEY, 'e', ['a', 'b'], 2), undefined, 'the oldest went');
    assert.ok(cache.read(sha('r'), QUESTION_SET_KEY, 'e', ['a'], 2) && cache.read(sha('s'), QUESTION_SET_KEY, 'e', ['a'], 2));
    assert.ok(cache.read(sha('x'), KEY, 'e', ['a'], 2), 'other keys are not pruned');
    assert.equal(new EmbeddingCache(join(dir, 'absent')).keepNewest(QUESTION_SET_KEY, 'e', 1), 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('copies of a document are embedded once and share their rows, so a cold run gives them what a warm run reads (one cache entry)', async () => {
  // An embedder whose rows depend on their position in the call (as a padded batch's last bits can):
  // row p of a call gets p·1e-3 added to its first component.
  const positional = (): ChunkEmbedder & { texts: string[] } => {
    const e = {
      id: 'test:positional@1', dim: 2, texts: [] as string[],
      async embed(texts: readonly string[]) {
        e.texts.push(...texts);
        const out = new Float32Array(texts.length * 2);
        texts.forEach((t, p) => { out[2 * p] = t.length + p * 1e-3; out[2 * p + 1] = 1; });
        return out;
      },
    };
    return e;
  };
  const body = ['alpha', 'banana'];
  const chunks = chunksOf([...body.map((text) => ({ source: 'a.md', text })), { source: 'z.md', text: 'zeta' }, ...body.map((text) => ({ source: 'copy/a.md', text }))]);
  const docSha = new Map([['a.md', sha('a')], ['copy/a.md', sha('a')], ['z.md', sha('z')]]);
  const rows = (m: Float32Array, i: number) => [...m.subarray(2 * i, 2 * i + 2)];
  for (const withCache of [false, true]) {
    const dir = tmp();
    try {
      const e = positional();
      const cache = withCache ? new EmbeddingCache(dir) : undefined;
      const cold = await embedChunksCached(chunks, docSha, KEY, e, cache);
      assert.deepEqual(e.texts, ['alpha', 'banana', 'zeta'], 'the copy is not embedded again');
      assert.deepEqual([rows(cold, 3), rows(cold, 4)], [rows(cold, 0), rows(cold, 1)], 'the copy has the rows of its original');
      if (withCache) assert.deepEqual(await embedChunksCached(chunks, docSha, KEY, positional(), new EmbeddingCache(dir)), cold, 'warm = cold');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});
