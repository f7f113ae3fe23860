import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bm25Index, bm25Tokens, bm25TokensUnsplit } from '../../../../src/core/retrieval/index';
import { postingsJson } from '../../../../src/core/retrieval/bm25';
import { loadOrBuildBm25 } from '../../../../src/core/cache/index';
import { chunksOf } from '../../../helpers/retrieval';
import { SHARED_DATA } from '../../../helpers/paths';

// Toy corpus for a hand computation of BM25 as MiniSearch 7.2 computes it with
// bm25 {k: 1.2, b: 0.75, d: 0} (node_modules/minisearch/dist/es/index.js, calcBM25Score and add()):
//   IDF(t) = ln(1 + (N − n + 0.5) / (n + 0.5))                    (the non-negative "Lucene" IDF)
//   term   = IDF · tf·(k1+1) / (tf + k1·(1 − b + b·|D|/avgdl))
//   |D|    = number of DISTINCT tokens of the chunk (MiniSearch's field length).
// d0 "The cat sat on the mat"        tokens the cat sat on the mat → distinct 5
// d1 "the dog sat"                   distinct 3
// d2 "cat and dog and cat and bird"  distinct 4 (cat and dog bird)
// N = 3, avgdl = (5 + 3 + 4) / 3 = 4.
const TOY = chunksOf(['The cat sat on the mat', 'the dog sat', 'cat and dog and cat and bird']);
const LN16 = Math.log(1 + (3 - 2 + 0.5) / (2 + 0.5)); // n = 2 for cat, dog and sat: ln 1.6 = 0.47000362924573563

test('bm25 scores equal the hand-computed BM25 on a 3-chunk corpus', () => {
  const idx = Bm25Index.build(TOY);
  // query "cat": d2 tf=2 |D|=4 → 2·2.2/(2 + 1.2·(0.25 + 0.75·4/4)) = 4.4/3.2 = 1.375
  //              d0 tf=1 |D|=5 → 2.2/(1 + 1.2·(0.25 + 0.75·5/4)) = 2.2/2.425
  const cat = idx.search('cat', 10);
  assert.deepEqual(cat.map((h) => h.chunk), [2, 0]);
  assert.ok(Math.abs(cat[0].score - LN16 * 1.375) < 1e-12);
  assert.ok(Math.abs(cat[1].score - LN16 * (2.2 / 2.425)) < 1e-12);
  assert.ok(Math.abs(cat[0].score - 0.6462549902128865) < 1e-12); // the numbers, evaluated once by hand in Python
  assert.ok(Math.abs(cat[1].score - 0.42639504508891485) < 1e-12);

  // query "Dog SAT" (case-insensitive): d1 |D|=3 → K = 1.2·(0.25 + 0.75·3/4) = 0.975, each term 2.2/1.975;
  // d2: dog tf=1 |D|=4 → 2.2/2.2 = 1; d0: sat → 2.2/2.425.
  const ds = idx.search('Dog SAT', 10);
  assert.deepEqual(ds.map((h) => h.chunk), [1, 2, 0]);
  assert.ok(Math.abs(ds[0].score - 2 * LN16 * (2.2 / 1.975)) < 1e-12);
  assert.ok(Math.abs(ds[1].score - LN16) < 1e-12);
  assert.ok(Math.abs(ds[2].score - LN16 * (2.2 / 2.425)) < 1e-12);
  // a repeated query term counts once per occurrence (MiniSearch sums one clause per query token)
  const cc = idx.search('cat cat', 10);
  assert.ok(Math.abs(cc[0].score - 2 * LN16 * 1.375) < 1e-12);
  // n cuts the list
  assert.deepEqual(idx.search('Dog SAT', 2).map((h) => h.chunk), [1, 2]);
});

test('bm25: a term in every chunk still scores > 0 with the Lucene IDF; unknown terms and punctuation give nothing', () => {
  const idx = Bm25Index.build(chunksOf(['alpha beta', 'alpha gamma', 'alpha delta']));
  const hits = idx.search('alpha', 5);
  // n = N = 3: IDF = ln(1 + 0.5/3.5) = ln(8/7); all |D| = 2 = avgdl → term = 2.2/2.2 = 1
  assert.deepEqual(hits.map((h) => h.chunk), [0, 1, 2]);
  for (const h of hits) assert.ok(Math.abs(h.score - Math.log(8 / 7)) < 1e-12);
  assert.deepEqual(idx.search('zeta', 5), []);
  assert.deepEqual(idx.search('?! ...', 5), []);
  assert.deepEqual(idx.search('alpha', 0), []);
});

test('bm25 tokens are Intl.Segmenter word segments, lower-cased; Chinese and Japanese queries find their chunks', () => {
  assert.deepEqual(bm25Tokens('FastAPI path-params, 3.14!'), ['fastapi', 'path', 'params', '3.14']);
  assert.deepEqual(bm25Tokens('我喜欢吃苹果'), ['我', '喜欢', '吃', '苹果']);
  const idx = Bm25Index.build(chunksOf([
    'FastAPI uses Pydantic models for request bodies.',
    '我喜欢吃苹果。苹果很好吃。',
    '東京都に住んでいます。',
    'Path parameters are declared in the route.',
  ]));
  assert.deepEqual(idx.search('苹果', 5).map((h) => h.chunk), [1]);
  assert.deepEqual(idx.search('東京に', 5).map((h) => h.chunk), [2]);
  assert.deepEqual(idx.search('PYDANTIC', 5).map((h) => h.chunk), [0]);
});

test('bm25 ties are broken by ascending chunk index ((source, start) order), deterministically', () => {
  const chunks = chunksOf([
    { source: 'a.md', text: 'nothing here' },
    { source: 'a.md', text: 'same words here' },
    { source: 'b.md', text: 'other text' },
    { source: 'b.md', text: 'same words here' },
    { source: 'c.md', text: 'same words here' },
  ]);
  const hits = Bm25Index.build(chunks).search('same words', 10);
  assert.deepEqual(hits.map((h) => h.chunk), [1, 3, 4]);
  assert.equal(hits[0].score, hits[1].score);
  assert.equal(hits[1].score, hits[2].score);
  // a second build gives the very same list; cutting at n keeps the lowest indexes among the tied
  assert.deepEqual(Bm25Index.build(chunks).search('same words', 10), hits);
  assert.deepEqual(Bm25Index.build(chunks).search('same words', 2).map((h) => h.chunk), [1, 3]);
});

test('bm25 index survives toJSON/fromJSON with identical results; foreign JSON is refused', () => {
  const idx = Bm25Index.build(TOY);
  const back = Bm25Index.fromJSON(JSON.parse(JSON.stringify(idx.toJSON())));
  for (const q of ['cat', 'dog sat', 'the mat bird']) assert.deepEqual(back.search(q, 10), idx.search(q, 10));
  assert.throws(() => Bm25Index.fromJSON({ kind: 'x' }), /not a Spanproof BM25 index/);
  assert.throws(() => Bm25Index.fromJSON(null), /not a Spanproof BM25 index/);
  // the cache holds MiniSearch's own JSON; the own-postings format 2 of d6088d6 is refused (rebuilt)
  const json = idx.toJSON() as { version: number; index: { documentCount: number; serializationVersion: number } };
  assert.equal(json.index.documentCount, 3);
  assert.equal(typeof json.index.serializationVersion, 'number');
  assert.throws(() => Bm25Index.fromJSON({ kind: 'spanproof-bm25', version: 2, size: 3, avgLength: 4, lengths: [5, 3, 4], terms: [] }), /not a Spanproof BM25 index/);
  assert.throws(() => Bm25Index.fromJSON({ ...json, index: {} }), /damaged BM25 index/);
  assert.throws(() => Bm25Index.fromJSON({ ...json, size: 4 }), /damaged BM25 index/);
});

test('bm25Tokens (split at ASCII whitespace, memoised) equals one Intl.Segmenter pass over the whole text', () => {
  const alphabet = ['a', 'Z', 'x', '1', '9', '_', '.', "'", '’', ',', ';', ':', '-', '@', ' ', ' ', '\n', '\t', '\r', '\f', '\v',
    '我', '喜', '欢', '苹', '果', '東', '京', 'に', 'ア', 'ー', '😀', '\u200d', '\u0301', '\u00ad', '\u00a0', 'é', 'İ', '\u200b', '\ufe0f', '🇫', '🇷', 'ß', 'ǅ'];
  fc.assert(fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 80 }), (chars) => {
    const text = chars.join('');
    assert.deepEqual(bm25Tokens(text), bm25TokensUnsplit(text));
  }), { numRuns: 3000, seed: 20261129 });
  // every ASCII punctuation character around ASCII words and numbers (the segmenter-free fast path)
  const punct = [...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'];
  fc.assert(fc.property(fc.array(fc.constantFrom(...punct, 'a', 'Zq', '7', '42', 'x9', ' ', '\n', 'é', '\u0301'), { maxLength: 30 }), (chars) => {
    const text = chars.join('');
    assert.deepEqual(bm25Tokens(text), bm25TokensUnsplit(text));
  }), { numRuns: 5000, seed: 99 });
  const words = ['FastAPI', 'path-params', 'e.g.', '3.14', "don't", '__init__', 'a_b', '我喜欢吃苹果', '東京都に住んでいます', '👍🏽', 'x\u0301y', '(see', 'it).', '"quoted"', '$5', 'v1.2,', '`code`', '#tag', '_x', 'x_'];
  fc.assert(fc.property(fc.array(fc.constantFrom(...words, ' ', '\n', '\r\n', '  ', '\t'), { maxLength: 40 }), (parts) => {
    const text = parts.join('');
    assert.deepEqual(bm25Tokens(text), bm25TokensUnsplit(text));
  }), { numRuns: 1000, seed: 7 });
});

// The engine is MiniSearch itself (no own postings to check against it); what must hold is that the
// disk cache's round trip (toJSON → JSON text → fromJSON, i.e. MiniSearch.toJSON → MiniSearch.loadJS)
// and the async build give the very same hits — chunk ids and score doubles — as a fresh sync build.
test('bm25 cache round trip and buildAsync give identical hits on random corpora and queries (repeated terms, empty chunks, ties)', async () => {
  const vocab = ['cat', 'dog', 'the', 'a', 'Cat', 'sat', 'mat', 'bird', 'fastapi', 'path', 'params', '3.14', '苹果', '東京', '', '!', 'x'];
  const text = fc.array(fc.constantFrom(...vocab), { maxLength: 30 }).map((w) => w.join(' '));
  await fc.assert(fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 25 }), fc.array(text, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 30 }), async (docs, queries, n) => {
    const chunks = chunksOf(docs);
    const idx = Bm25Index.build(chunks);
    const idxAsync = await Bm25Index.buildAsync(chunks, { yieldMs: 0, onYield: async () => undefined });
    const text = idx.toJSONText();
    // the cache file's text (written term by term) is exactly MiniSearch.toJSON's JSON
    assert.equal(text, JSON.stringify(idx.toJSON()));
    const back = Bm25Index.fromJSON(JSON.parse(text));
    assert.equal(back.size, docs.length);
    for (const q of queries) {
      const want = idx.search(q, n);
      assert.deepEqual(idxAsync.search(q, n), want);
      assert.deepEqual(back.search(q, n), want);
    }
  }), { numRuns: 300, seed: 42 });
});

test('bm25 on the FastAPI docs: hits read back from the disk cache equal the built index', () => {
  const dir = join(SHARED_DATA, 'fastapi-docs');
  const files = readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.md')).sort().slice(0, 60);
  // paragraph-sized chunks of real Markdown
  const chunks = chunksOf(files.flatMap((f) => readFileSync(join(dir, f), 'utf8').split(/\n\s*\n/)).filter((x) => x.trim()));
  const cacheDir = mkdtempSync(join(tmpdir(), 'spanproof-bm25-'));
  try {
    const built = loadOrBuildBm25(chunks, cacheDir);
    const read = loadOrBuildBm25(chunks, cacheDir);
    assert.deepEqual([built.hit, read.hit], [false, true]);
    for (const q of ['How do I declare a path parameter with a type?', 'OAuth2 password flow with JWT tokens', 'the the the', 'response_model exclude_unset', 'CORS middleware allow_origins']) {
      const want = built.index.search(q, 50);
      assert.ok(want.length > 0, q);
      assert.deepEqual(read.index.search(q, 50), want);
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
});

test('bm25 buildAsync yields during a long build and stops with the error its onYield throws', async () => {
  const chunks = chunksOf(Array.from({ length: 3000 }, (_, i) => `chunk ${i} with some words about cats and dogs ${i % 7}`));
  let yields = 0;
  await Bm25Index.buildAsync(chunks, { yieldMs: 0, onYield: async () => { yields++; } });
  assert.equal(yields, 3000); // yieldMs 0: after every chunk
  await assert.rejects(Bm25Index.buildAsync(chunks, { yieldMs: 0, onYield: async () => { throw new Error('cancelled'); } }), /cancelled/);
});

// The cache writer's postings text (bm25.ts postingsJson) is JSON.stringify of the objects MiniSearch's
// toJSON builds — also when a Map's keys are not in ascending order (an object lists integer keys ascending).
test('postingsJson equals JSON.stringify of Object.fromEntries for any key order', () => {
  fc.assert(fc.property(fc.array(fc.tuple(fc.nat(5), fc.array(fc.tuple(fc.nat(5000), fc.integer({ min: 1, max: 300 })), { maxLength: 20 })), { maxLength: 4 }), (fields) => {
    const fieldIndex = new Map(fields.map(([f, docs]) => [f, new Map(docs)]));
    const data: Record<string, unknown> = {};
    for (const [f, freqs] of fieldIndex) data[f] = Object.fromEntries(freqs);
    assert.equal(postingsJson(fieldIndex), JSON.stringify(data));
  }), { numRuns: 500, seed: 3 });
});
