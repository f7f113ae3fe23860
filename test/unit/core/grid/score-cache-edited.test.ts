/**
 * Issue #16: a hand-edited BM25 index cache, rerank-score cache or token-count cache used to be read
 * as it was and change the results silently. Each now carries a checksum: an edited file is not used,
 * it is rebuilt with one notice naming it, and results.json is byte-identical to a cold run's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runGrid } from '../../../../src/core/grid/run';
import { MINI, MINI_GT, smallSettings, tmp } from '../../../helpers/grid';

/** The file with every value of its `scores` set to `v` (valid JSON, checksum left as it was). */
function setAll(text: string, v: number): string {
  const j = JSON.parse(text) as { scores: Record<string, number> };
  for (const k of Object.keys(j.scores)) j.scores[k] = v;
  return JSON.stringify(j);
}

const settings = smallSettings({ chunkers: ['heading'], retrievers: ['bm25'], rerank: [true] });

test('an edited BM25, rerank-score or token-count cache is rebuilt with a one-line notice; results stay byte-identical', async () => {
  const root = tmp('score-cache-edited');
  const cacheDir = join(root, 'cache');
  const run = (name: string) => runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings, outDir: join(root, name), cacheDir });
  const cold = await run('cold');
  const results = readFileSync(join(cold.runDir!, 'results.json'), 'utf8');
  const one = (sub: string) => join(cacheDir, sub, readdirSync(join(cacheDir, sub))[0]);
  const edits: Array<[string, string, (s: string) => string]> = [
    // a term frequency 1 → 9: still valid JSON, another ranking
    ['bm25', 'BM25 index cache', (s) => s.replace(/":1\}/, '":9}')],
    // every score 0.5 → the reranker's order is lost
    ['rerank', 'rerank-score cache', (s) => setAll(s, 0.5)],
    ['tokens', 'token-count cache', (s) => setAll(s, 1)],
  ];
  for (const [sub, label, edit] of edits) {
    const file = one(sub);
    const good = readFileSync(file, 'utf8');
    const edited = edit(good);
    assert.notEqual(edited, good, `${sub}: the edit changed the file`);
    writeFileSync(file, edited);
    // a warm run of the same questions takes its BM25 lists from cache/bm25-pools and never reads the
    // index: forget them so the edited index file is read (the list cache's own checks: index-caches-edited)
    if (sub === 'bm25') rmSync(join(cacheDir, 'bm25-pools'), { recursive: true, force: true });
    const warm = await run(`warm-${sub}`);
    assert.equal(warm.status, 'succeeded');
    const notices = warm.warnings.filter((w) => w.startsWith(`the ${label} `));
    assert.deepEqual(notices, [`the ${label} ${file} was edited (${notices[0]?.match(/\(([^)]*)\)/)?.[1]}); it is rebuilt.`], `${sub}: ${warm.warnings.join('\n')}`);
    assert.equal(readFileSync(join(warm.runDir!, 'results.json'), 'utf8'), results, `${sub}: results.json byte-identical to the cold run`);
    const again = await run(`again-${sub}`);
    assert.ok(!again.warnings.some((w) => w.includes(label)), `${sub}: the rebuilt file is used without a notice`);
  }
});
