/**
 * docs/ci.md's GitHub Actions and GitLab CI workflows, run locally: every `npx spanproof …` command of
 * each YAML block, with the job matrix expanded (shards 1..3), in order, in a folder holding
 * samples/fastapi-mini as `docs`. The merged run equals an unsharded run byte for byte and the
 * documented gate passes; a gate above the recommended config's score fails with exit 1.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../../helpers/paths';
import { runCli } from '../../helpers/cli';
import { MINI, MINI_GT, tmp } from '../../helpers/grid';

const doc = readFileSync(join(REPO, 'docs', 'ci.md'), 'utf8');
const blocks = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);

/** The `npx spanproof …` commands of a block, each expanded for shards 1..3 when it names the matrix. */
function commands(block: string, expand: (line: string, i: number) => string): string[][] {
  const out: string[][] = [];
  for (const m of block.matchAll(/^\s*- (?:run: )?npx spanproof (.+)$/gm)) {
    const line = m[1].replace(/\s*>>\s*"\$GITHUB_STEP_SUMMARY"$/, '');
    const lines = /matrix\.shard|CI_NODE_/.test(line) ? [1, 2, 3].map((i) => expand(line, i)) : [line];
    for (const l of lines) out.push(l.split(/\s+/).filter(Boolean));
  }
  return out;
}

function workspace(prefix: string): string {
  const root = tmp(prefix);
  cpSync(MINI, join(root, 'docs'), { recursive: true });
  mkdirSync(join(root, 'docs', '.spanproof'), { recursive: true });
  cpSync(MINI_GT, join(root, 'docs', '.spanproof', 'groundtruth.json'));
  return root;
}

/** The CLI as the workflow runs it in `root` (its relative folders made absolute; the CLI itself runs from the repository). */
function cliIn(root: string, args: string[]) {
  return runCli(args.map((a) => (/^(docs|shards|merged|single)(\/|$)/.test(a) ? join(root, a) : a)));
}

async function runAll(cmds: string[][], root: string): Promise<void> {
  for (const args of cmds) {
    const r = await cliIn(root, args);
    assert.equal(r.code, 0, `spanproof ${args.join(' ')}\n${r.stderr}`);
  }
}

test('docs/ci.md GitHub Actions: shard matrix, merge with the gate, job summary — run locally', async () => {
  assert.equal(blocks.length, 2, 'docs/ci.md has the GitHub and the GitLab workflow');
  const root = workspace('ci-gh');
  // Artifacts: upload shards/<i> as spanproof-shard-<i>, download into shards/spanproof-shard-<i>.
  const cmds = commands(blocks[0], (l, i) => l.replaceAll('${{ matrix.shard }}', String(i)).replace(/--out shards\/\d+/, `--out shards/spanproof-shard-${i}`));
  assert.deepEqual(cmds.map((c) => c[0]), ['run', 'run', 'run', 'merge', 'report']);
  await runAll(cmds, root);
  const single = await cliIn(root, ['run', '--workspace', 'docs', '--chunkers', 'heading,recursive', '--retrievers', 'bm25,hybrid', '--out', 'single']);
  assert.equal(single.code, 0, single.stderr);
  for (const f of ['results.json', 'ranking.json', 'questions.jsonl']) assert.equal(readFileSync(join(root, 'merged', f), 'utf8'), readFileSync(join(root, 'single', f), 'utf8'), f);
  const res = JSON.parse(readFileSync(join(root, 'merged', 'results.json'), 'utf8'));
  const rec = JSON.parse(readFileSync(join(root, 'merged', 'ranking.json'), 'utf8')).verdict.recommended as string;
  const score = res.configs.find((c: { id: string }) => c.id === rec).metrics['hit@5'].mean as number;
  assert.ok(score >= 0.5, 'the documented gate passes on the sample');
  // a gate the merged run fails: above its MRR (< 1), within the metric's range [0, 1]
  const mrr = res.configs.find((c: { id: string }) => c.id === rec).metrics.mrr.mean as number;
  assert.ok(mrr < 1, String(mrr));
  const gate = await cliIn(root, ['merge', '--out', 'merged/../merged-2', ...['1', '2', '3'].map((i) => `shards/spanproof-shard-${i}`), '--fail-under', `mrr=${(mrr + 1) / 2}`]);
  assert.equal(gate.code, 1, gate.stderr);
  assert.match(gate.stderr, /gate failed: mrr/);
  const missing = await cliIn(root, ['merge', '--out', 'merged/../merged-3', 'shards/spanproof-shard-1', 'shards/spanproof-shard-3']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /missing shard 2\/3/);
});

test('docs/ci.md GitLab CI: parallel: 3 and the merge job — run locally', async () => {
  const root = workspace('ci-gl');
  const cmds = commands(blocks[1], (l, i) => l.replaceAll('$CI_NODE_INDEX', String(i)).replaceAll('$CI_NODE_TOTAL', '3'));
  assert.deepEqual(cmds.map((c) => c[0]), ['run', 'run', 'run', 'merge']);
  await runAll(cmds, root);
  assert.equal(JSON.parse(readFileSync(join(root, 'merged', 'run.json'), 'utf8')).status, 'succeeded');
});
