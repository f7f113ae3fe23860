// `spanproof query` end to end through the real CLI entry (TypeScript via tsx), inside a network-less
// namespace (`unshare -n`) when the machine allows it, so it proves the command needs no network.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp';
import { REPO } from '../../helpers/paths';

const FIXTURE = join(REPO, 'test/fixtures/retrieval/corpus');
const NO_NET = spawnSync('unshare', ['-n', 'true']).status === 0;

interface Row { rank: number; source: string; start: number; end: number; score: number; text: string }
interface Answer { config: string; results: Row[]; pool: Row[] }

function cli(workspace: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const node = [process.execPath, '--import', 'tsx', join(REPO, 'src/cli/main.ts'), 'query', '--workspace', workspace, ...args];
  const r = NO_NET ? spawnSync('unshare', ['-n', ...node], { encoding: 'utf8', cwd: REPO }) : spawnSync(node[0], node.slice(1), { encoding: 'utf8', cwd: REPO });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test(`spanproof query answers every retriever × rerank combination offline${NO_NET ? ' (inside unshare -n)' : ' (unshare -n not permitted here: network not removed)'}`, async () => {
  const ws = tempDir('spanproof-query-');
  try {
    cpSync(FIXTURE, ws, { recursive: true });
    const docs = new Map<string, string>();
    for (const f of ['query-params.md', 'cookie-params.md', 'header-params.md', 'path-params.md', 'apples-zh.md']) docs.set(f, readFileSync(join(ws, f), 'utf8'));
    for (const retriever of ['bm25', 'dense', 'hybrid']) {
      for (const rerank of ['off', 'on']) {
        const r = cli(ws, ['--chunker', 'heading', '--retriever', retriever, '--rerank', rerank, '--k', '3', '--pool', '6', '--json', 'How do I declare cookie parameters?']);
        assert.equal(r.status, 0, r.stderr);
        const a = JSON.parse(r.stdout) as Answer;
        assert.equal(a.config, `heading/${retriever}/${rerank === 'on' ? 'rerank' : 'none'}`);
        assert.equal(a.results.length, 3);
        assert.ok(a.pool.length >= 3 && a.pool.length <= 6);
        for (const row of [...a.results, ...a.pool]) {
          assert.deepEqual(Object.keys(row).sort(), ['end', 'rank', 'score', 'source', 'start', 'text']);
          assert.equal(docs.get(row.source)!.slice(row.start, row.end), row.text, `${row.source} [${row.start}, ${row.end})`);
        }
        a.results.forEach((row, i) => assert.equal(row.rank, i + 1));
        const poolKeys = a.pool.map((p) => `${p.source}#${p.start}`);
        for (const row of a.results) assert.ok(poolKeys.includes(`${row.source}#${row.start}`), 'results come from the pool');
        if (rerank === 'off') assert.deepEqual(a.results, a.pool.slice(0, 3));
        for (let i = 1; i < a.results.length; i++) assert.ok(a.results[i - 1].score >= a.results[i].score);
        for (let i = 1; i < a.pool.length; i++) assert.ok(a.pool[i - 1].score >= a.pool[i].score);
        if (retriever === 'bm25') assert.equal(a.pool[0].source, 'cookie-params.md');
      }
    }
    // CJK query through BM25
    const zh = cli(ws, ['--chunker', 'heading', '--retriever', 'bm25', '--json', '苹果']);
    assert.equal(zh.status, 0, zh.stderr);
    const za = JSON.parse(zh.stdout) as Answer;
    assert.equal(za.results.length, 1);
    assert.equal(za.results[0].source, 'apples-zh.md');
    assert.match(za.results[0].text, /我喜欢吃苹果/);
    // the embeddings were cached in the workspace
    assert.ok(existsSync(join(ws, '.spanproof/cache/embeddings')));
    // bad input → exit 2 with the field named
    const bad = cli(ws, ['--chunker', 'nope', '--retriever', 'bm25', 'x']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--chunker/);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});

test('spanproof query --k larger than the pool blames --k (the option given), not the default --pool', () => {
  const ws = tempDir('spanproof-query-k-');
  try {
    cpSync(FIXTURE, ws, { recursive: true });
    const big = cli(ws, ['--chunker', 'heading', '--retriever', 'bm25', '--k', '1000', 'cookies']);
    assert.equal(big.status, 2, big.stderr);
    // default pool = DEFAULT_SETTINGS.poolSize (20)
    assert.equal(big.stderr.trim(), 'spanproof: --k 1000 is larger than the candidate pool (--pool 20, the default). Fix: lower --k or raise --pool.');
    const both = cli(ws, ['--chunker', 'heading', '--retriever', 'bm25', '--k', '8', '--pool', '4', 'cookies']);
    assert.equal(both.status, 2, both.stderr);
    assert.equal(both.stderr.trim(), 'spanproof: --k/--pool: --k 8 is larger than the candidate pool (--pool 4). Fix: lower --k or raise --pool.');
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});

test('spanproof query --embedders a,b --retriever dense prints one JSON line per dense:<name> config; dense:<name> names one; an unknown name lists the ids', () => {
  const ws = tempDir('spanproof-query-emb-');
  try {
    cpSync(FIXTURE, ws, { recursive: true });
    const args = ['--chunker', 'heading', '--embedders', 'static-glove,use-lite', '--k', '3', '--pool', '6', '--json'];
    const both = cli(ws, [...args, '--retriever', 'dense', 'How do I declare cookie parameters?']);
    assert.equal(both.status, 0, both.stderr);
    const lines = both.stdout.trim().split('\n').map((l) => JSON.parse(l) as Answer);
    assert.deepEqual(lines.map((a) => a.config), ['heading/dense:static-glove/none', 'heading/dense:use-lite/none']);
    const one = cli(ws, [...args, '--retriever', 'dense:use-lite', 'How do I declare cookie parameters?']);
    assert.equal(one.status, 0, one.stderr);
    assert.deepEqual(JSON.parse(one.stdout), lines[1], 'the named config answers as in the list of both');
    const bad = cli(ws, [...args, '--retriever', 'dense:nope', 'x']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--retriever: .*no "nope".*use one of bm25, dense, hybrid, dense:static-glove, dense:use-lite, hybrid:static-glove, hybrid:use-lite/);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});
