/**
 * Issue #16 (a fresh-user finding after item 15): a hand-edited BM25 index cache, rerank-score cache
 * or embedding cache was used silently and changed the results. Each now carries a checksum: an
 * edited or damaged file is not used, it is rebuilt with a one-line notice, and results.json is
 * byte-identical to the cold run's. A file of a newer format is never overwritten.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, sep } from 'node:path';
import { QUESTION_SET_KEY } from '../../../../src/core/cache';
import { runGrid } from '../../../../src/core/grid/run';
import { MINI, MINI_GT, smallSettings, tmp } from '../../../helpers/grid';

/** The folder of the question-vector entries under cache/embeddings/<embedder>/ (src/core/cache/embeddings.ts `entryPath`). */
const questionSetFolder = createHash('sha256').update(QUESTION_SET_KEY).digest('hex').slice(0, 16);

const settings = smallSettings({ chunkers: ['heading'], retrievers: ['bm25', 'dense'], rerank: [true] });

/** Every file under `dir`, recursively. */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
}

async function coldRun(label: string) {
  const root = tmp(label);
  const cacheDir = join(root, 'cache');
  const run = (name: string) => runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings, outDir: join(root, name), cacheDir });
  return { ...(await firstRun(run)), cacheDir };
}

/**
 * As {@link coldRun}, but each later run first forgets the remembered BM25 and dense lists
 * (cache/bm25-pools, cache/dense-pools), so it must read the BM25 index and embedding caches.
 */
async function coldRunReadingIndex(label: string) {
  const root = tmp(label);
  const cacheDir = join(root, 'cache');
  const run = (name: string) => {
    rmSync(join(cacheDir, 'bm25-pools'), { recursive: true, force: true });
    rmSync(join(cacheDir, 'dense-pools'), { recursive: true, force: true });
    return runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings, outDir: join(root, name), cacheDir });
  };
  return { ...(await firstRun(run)), cacheDir };
}

async function firstRun(run: (name: string) => ReturnType<typeof runGrid>) {
  const cold = await run('cold');
  const results = readFileSync(join(cold.runDir!, 'results.json'), 'utf8');
  return { run, results };
}

test('an edited BM25 index, rerank-score or embedding cache is rebuilt with one notice each; results stay byte-identical', async () => {
  const { run, cacheDir, results } = await coldRunReadingIndex('index-caches-edited');
  const [bm25] = files(join(cacheDir, 'bm25'));
  const [rerank] = files(join(cacheDir, 'rerank'));
  const [embedding] = files(join(cacheDir, 'embeddings'));
  const good = { bm25: readFileSync(bm25, 'utf8'), rerank: readFileSync(rerank, 'utf8'), embedding: readFileSync(embedding) };

  // BM25: a term frequency of the first posting list raised (still valid JSON and a loadable index)
  const nl = good.bm25.indexOf('\n');
  const body = good.bm25.slice(nl + 1);
  const edited = body.replace(/":1([,}])/, '":7$1');
  assert.notEqual(edited, body, 'the edit changes the index');
  writeFileSync(bm25, `${good.bm25.slice(0, nl + 1)}${edited}`);
  // rerank: every stored score negated (valid numbers; the reranked order would flip)
  const rj = JSON.parse(good.rerank) as { scores: Record<string, number> };
  writeFileSync(rerank, JSON.stringify({ ...rj, scores: Object.fromEntries(Object.entries(rj.scores).map(([k, v]) => [k, -v])) }));
  // embeddings: the last float's bytes changed (length and header intact)
  const eb = Buffer.from(good.embedding);
  eb[eb.length - 2] ^= 0x40;
  writeFileSync(embedding, eb);

  const warm = await run('warm');
  assert.equal(warm.status, 'succeeded');
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  for (const [what, file] of [['BM25 index cache', bm25], ['rerank-score cache', rerank], ['embedding cache', embedding]] as const) {
    const lines = warm.warnings.filter((w) => w.includes(file));
    assert.equal(lines.length, 1, `${what}: ${warm.warnings.join('\n')}`);
    assert.match(lines[0], new RegExp(`^the ${what} ${esc(file)} was edited \\(.+\\); it is rebuilt\\.$`), what);
  }
  assert.equal(readFileSync(join(warm.runDir!, 'results.json'), 'utf8'), results, 'results.json byte-identical to the cold run');
  assert.equal(readFileSync(bm25, 'utf8'), good.bm25, 'BM25 cache rewritten as the cold run wrote it');
  assert.ok(readFileSync(embedding).equals(good.embedding), 'embedding cache rewritten');
  assert.deepEqual(JSON.parse(readFileSync(rerank, 'utf8')).scores, rj.scores, 'rerank scores rewritten');

  const again = await run('again');
  assert.deepEqual(again.warnings.filter((w) => /cache/.test(w)), [], 'the rebuilt files are used without a notice');
  assert.equal(readFileSync(join(again.runDir!, 'results.json'), 'utf8'), results);
});

test('a truncated BM25 cache is damaged (rebuilt); one of a newer format is left as it is', async () => {
  const { run, cacheDir, results } = await coldRunReadingIndex('bm25-cache-newer');
  const [bm25] = files(join(cacheDir, 'bm25'));
  const good = readFileSync(bm25, 'utf8');
  writeFileSync(bm25, good.slice(0, Math.floor(good.length / 2)));
  const cut = await run('cut');
  assert.ok(cut.warnings.some((w) => w.startsWith(`the BM25 index cache ${bm25} was edited (`) || w.startsWith(`the BM25 index cache ${bm25} was damaged (`)), cut.warnings.join('\n'));
  assert.equal(readFileSync(join(cut.runDir!, 'results.json'), 'utf8'), results);
  assert.equal(readFileSync(bm25, 'utf8'), good);
  const nl = good.indexOf('\n');
  const newer = `${JSON.stringify({ ...JSON.parse(good.slice(0, nl)), version: 99 })}\n${good.slice(nl + 1)}`;
  writeFileSync(bm25, newer);
  const warm = await run('newer');
  assert.ok(warm.warnings.includes(`the BM25 index cache ${bm25} was written by a newer Spanproof (format 99); not used and left as it is — update Spanproof to use it.`), warm.warnings.join('\n'));
  assert.equal(readFileSync(bm25, 'utf8'), newer, 'never overwritten');
  assert.equal(readFileSync(join(warm.runDir!, 'results.json'), 'utf8'), results);
});

test('a warm run of the same questions takes the BM25 lists from the list cache: the index is neither read nor built, results byte-identical', async () => {
  const { run, cacheDir, results } = await coldRun('bm25-lists-warm');
  const [lists] = files(join(cacheDir, 'bm25-pools'));
  rmSync(join(cacheDir, 'bm25'), { recursive: true });
  const warm = await run('warm');
  assert.deepEqual(warm.warnings.filter((w) => /cache/.test(w)), []);
  assert.equal(readFileSync(join(warm.runDir!, 'results.json'), 'utf8'), results, 'results.json byte-identical to the cold run');
  assert.equal(existsSync(join(cacheDir, 'bm25')), false, 'the BM25 index was not needed, so not rebuilt');

  // edited: one remembered score changed (valid JSON, same shape) → not used, recomputed (so the index is built), one notice
  const good = await expectEditedListsRebuilt(run, lists, 'BM25 list cache', results);
  assert.equal(existsSync(join(cacheDir, 'bm25')), true, 'the lists were recomputed from the index');

  // truncated → damaged, rebuilt
  writeFileSync(lists, good.slice(0, good.length >> 1));
  const cut = await run('cut');
  assert.ok(cut.warnings.some((w) => w.startsWith(`the BM25 list cache ${lists} was damaged (`)), cut.warnings.join('\n'));
  assert.equal(readFileSync(join(cut.runDir!, 'results.json'), 'utf8'), results);
  assert.deepEqual(listsOf(readFileSync(lists, 'utf8')), listsOf(good));
});

test('a warm run of the same questions takes the dense lists from the list cache: the chunk embeddings are neither read nor computed, results byte-identical', async () => {
  const { run, cacheDir, results } = await coldRun('dense-lists-warm');
  const [lists] = files(join(cacheDir, 'dense-pools'));
  assert.ok(lists, 'the cold run remembered its dense lists');
  rmSync(join(cacheDir, 'embeddings'), { recursive: true });
  const warm = await run('warm');
  assert.deepEqual(warm.warnings.filter((w) => /cache/.test(w)), []);
  assert.equal(readFileSync(join(warm.runDir!, 'results.json'), 'utf8'), results, 'results.json byte-identical to the cold run');
  assert.deepEqual(files(join(cacheDir, 'embeddings')).filter((f) => !f.includes(`${sep}${questionSetFolder}${sep}`)), [], 'the chunk embeddings were not needed, so not recomputed (only the question vectors were)');

  // edited: one remembered score changed → not used, every question searched again (so the chunks are embedded), one notice
  await expectEditedListsRebuilt(run, lists, 'dense list cache', results);
  assert.ok(files(join(cacheDir, 'embeddings')).some((f) => !f.includes(`${sep}${questionSetFolder}${sep}`)), 'the lists were recomputed from the chunk embeddings');

  // a BM25 list file put in its place (same key, the other kind) is not used
  const [bm25Lists] = files(join(cacheDir, 'bm25-pools'));
  writeFileSync(lists, readFileSync(bm25Lists));
  const swapped = await run('swapped');
  assert.ok(swapped.warnings.some((w) => w.startsWith(`the dense list cache ${lists} was damaged (not a spanproof-dense-pools file)`)), swapped.warnings.join('\n'));
  assert.equal(readFileSync(join(swapped.runDir!, 'results.json'), 'utf8'), results);
});

test('a warm run reads the question vectors of the same question list; an edited entry is rebuilt with one notice; results byte-identical', async () => {
  const { run, cacheDir, results } = await coldRun('question-vectors');
  const entries = () => files(join(cacheDir, 'embeddings')).filter((f) => f.includes(`${sep}${questionSetFolder}${sep}`));
  const [entry] = entries();
  assert.equal(entries().length, 1, 'one entry for the one question list');
  const header = JSON.parse(readFileSync(entry).toString('utf8', 12, 12 + readFileSync(entry).readUInt32LE(8))) as { count: number; computeMs: number };
  assert.equal(header.count, 10, 'the ten questions of the sample');
  assert.ok(header.computeMs >= 0, 'the embedding time is kept, to be reported again');
  const good = readFileSync(entry);
  const warm = await run('warm');
  assert.deepEqual(warm.warnings.filter((w) => /cache/.test(w)), []);
  assert.equal(readFileSync(join(warm.runDir!, 'results.json'), 'utf8'), results);
  // a vector byte flipped (length and header intact) → not used, the questions embedded again, one notice
  const bad = Buffer.from(good);
  bad[bad.length - 2] ^= 0x40;
  writeFileSync(entry, bad);
  // without the dense lists, the changed vectors would change the results if they were used
  rmSync(join(cacheDir, 'dense-pools'), { recursive: true, force: true });
  const edited = await run('edited');
  const notes = edited.warnings.filter((w) => w.includes(entry));
  assert.equal(notes.length, 1, edited.warnings.join('\n'));
  assert.match(notes[0], /^the embedding cache .+ was edited \(its vectors do not match their checksum/);
  assert.equal(readFileSync(join(edited.runDir!, 'results.json'), 'utf8'), results);
  assert.deepEqual(readFileSync(entry).subarray(12 + good.readUInt32LE(8)), good.subarray(12 + good.readUInt32LE(8)), 'rewritten with the same vectors');
});

/**
 * Raises one remembered score of the list file `lists` (valid JSON, same shape), runs, and checks the
 * file was not used (one `the <label> … was edited` notice), results.json is `results` and the file
 * was rewritten with the same lists. Returns the file as it was before the edit.
 */
async function expectEditedListsRebuilt(run: (name: string) => ReturnType<typeof runGrid>, lists: string, label: string, results: string): Promise<string> {
  const good = readFileSync(lists, 'utf8');
  const j = JSON.parse(good) as { entries: [string, number, number, number[], number[]][] };
  j.entries[0][4][0] += 1;
  writeFileSync(lists, JSON.stringify(j));
  const edited = await run('edited');
  const notes = edited.warnings.filter((w) => w.includes(lists));
  assert.equal(notes.length, 1, edited.warnings.join('\n'));
  assert.match(notes[0], new RegExp(`^the ${label} .+ was edited \\(its lists do not match its checksum .+\\); it is rebuilt\\.$`));
  assert.equal(readFileSync(join(edited.runDir!, 'results.json'), 'utf8'), results);
  assert.deepEqual(listsOf(readFileSync(lists, 'utf8')), listsOf(good), 'rewritten with the lists the cold run wrote (the ms are measured again)');
  return good;
}

/** The remembered lists of a list-cache file without their search times: [query, n, chunks, scores]. */
function listsOf(text: string): unknown[] {
  return (JSON.parse(text) as { entries: unknown[][] }).entries.map(([q, n, , chunks, scores]) => [q, n, chunks, scores]);
}
