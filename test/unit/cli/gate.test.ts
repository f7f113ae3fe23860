/**
 * `spanproof run --fail-under` reads the deterministic verdict (SPEC §9 v2): identical runs gate
 * identically and write byte-identical ranking.json, `--gate-config ID` gates a named config, `hit@k`
 * follows --k, and bad gate input is exit 2 before anything runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MINI, MINI_GT, REPO, WORKER_TS, tmp } from '../../helpers/grid';
import { parseGate } from '../../../src/cli/commands/gates';
import { isSpanproofError } from '../../../src/core/errors';
import { thrown } from '../../helpers/thrown';

function cli(args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(REPO, 'src', 'cli', 'main.ts'), ...args], { cwd: REPO, encoding: 'utf8', env: { ...process.env, SPANPROOF_WORKER: WORKER_TS } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const grid = (root: string) => ['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--runs-dir', join(root, 'runs'), '--cache-dir', join(root, 'cache'), '--chunkers', 'heading,fixed', '--retrievers', 'bm25,dense', '--rerank', 'off,on'];

test('--fail-under is stable over repeated identical runs (timings differ, the verdict does not)', () => {
  const root = tmp('gate-stable');
  const runs = [0, 1, 2].map(() => cli([...grid(root), '--json', '--fail-under', 'hit@5=0.95']));
  for (const r of runs) assert.equal(r.code, 0, r.stderr);
  const outs = runs.map((r) => JSON.parse(r.stdout));
  const rankings = outs.map((o) => readFileSync(join(o.runDir, 'ranking.json'), 'utf8'));
  const timings = outs.map((o) => readFileSync(join(o.runDir, 'timings.json'), 'utf8'));
  assert.equal(new Set(rankings).size, 1, 'ranking.json differs between identical runs');
  assert.equal(new Set(outs.map((o) => o.verdict.recommended)).size, 1);
  assert.ok(new Set(timings).size > 1, 'the timings did vary (the test would prove nothing otherwise)');
  assert.equal(outs[0].verdict.recommended, 'heading/bm25/none');
});

test('--gate-config gates a named config; hit@k follows --k', () => {
  const root = tmp('gate-config');
  // heading/dense/none misses one of the 10 questions at k = 5 (hit@5 0.9)
  const named = cli([...grid(root), '--fail-under', 'hit@5=0.95', '--gate-config', 'heading/dense/none']);
  assert.equal(named.code, 1, named.stderr);
  assert.match(named.stderr, /gate failed: hit@5 = 0\.9000 \(heading\/dense\/none\) < 0\.95/);
  // heading/dense/none misses at k = 3 too (it does at 5), so hit@k = 1 — the top of hit's range — fails
  const k3 = cli([...grid(root), '--k', '3', '--json', '--fail-under', 'hit@k=1', '--gate-config', 'heading/dense/none']);
  assert.equal(k3.code, 1, k3.stderr);
  assert.match(k3.stderr, /gate failed: hit@3 = 0\.\d+ \(heading\/dense\/none\) < 1/);
  assert.equal(JSON.parse(k3.stdout).verdict.primaryMetric, 'hit@3');
});

test('bad gate input and a bad primary metric are exit 2 before the run', () => {
  const root = tmp('gate-bad');
  const bad = cli([...grid(root), '--fail-under', 'hit@5=0.5', '--gate-config', 'heading/bm25/nope']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /spanproof: --gate-config "heading\/bm25\/nope" is not a config of this grid\. Fix: use one of heading\/bm25\/none, /);
  const noKey = cli([...grid(root), '--fail-under', 'coverage@7=0.5']);
  assert.equal(noKey.code, 2);
  assert.match(noKey.stderr, /this run \(k = 5\) reports no coverage@7/);
  const cfg = join(root, 'cfg.json');
  writeFileSync(cfg, JSON.stringify({ primaryMetric: 'hit@50' }));
  const pm = cli([...grid(root), '--config', cfg]);
  assert.equal(pm.code, 2);
  assert.match(pm.stderr, /cfg\.json: primaryMetric "hit@50" has cutoff 50, larger than the candidate pool \(poolSize 20\)/);
  writeFileSync(cfg, JSON.stringify({ primaryMetric: 'precision@5' }));
  assert.equal(cli([...grid(root), '--config', cfg]).code, 2);
  writeFileSync(cfg, JSON.stringify({ verdict: { margin: 0 } }));
  const m0 = cli([...grid(root), '--config', cfg]);
  assert.equal(m0.code, 2);
  assert.match(m0.stderr, /verdict\.margin/);
});

test('weights.latency > 0: run --json adds the timing-dependent verdict and the table says the verdict depends on timings', () => {
  const root = tmp('gate-timed');
  const cfg = join(root, 'cfg.json');
  writeFileSync(cfg, JSON.stringify({ weights: { latency: 1 } }));
  const j = cli([...grid(root), '--config', cfg, '--json']);
  assert.equal(j.code, 0, j.stderr);
  const out = JSON.parse(j.stdout);
  assert.equal(out.timedVerdict.dependsOnTimings, true);
  assert.equal(out.verdict.dependsOnTimings, false);
  assert.equal(out.verdict.recommended, 'heading/bm25/none'); // the deterministic verdict is unchanged
  const t = cli([...grid(root), '--config', cfg]);
  assert.match(t.stdout, /Timing-dependent verdict \(weights\.latency > 0\): With weights\.latency = 1 the timing-dependent verdict is /);
});

test('a --fail-under threshold outside its metric\'s range is exit 2 before anything runs, naming the flag, the value and the range', () => {
  const root = tmp('gate-range');
  const r = cli([...grid(root), '--fail-under', 'hit@k=1.01']);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr, 'spanproof: --fail-under "hit@k=1.01": the threshold 1.01 is outside the range of hit@k, [0, 1]. Fix: give a threshold from 0 to 1, e.g. --fail-under hit@k=0.8.\n');
  const merge = cli(['merge', '--out', join(root, 'merged'), join(root, 'no-shard'), '--fail-under', 'mrr=-0.1']);
  assert.equal(merge.code, 2, merge.stderr);
  assert.match(merge.stderr, /^spanproof: --fail-under "mrr=-0\.1": the threshold -0\.1 is outside the range of mrr, \[0, 1\]\./);
  // every span metric and the acceptance rate are in [0, 1]; both ends are thresholds a run can meet
  for (const spec of ['ndcg@5=1.5', 'coverage@5=100', 'precision@5=-1', 'reachable=2', 'acceptance=1.2', 'iou@5=1.0001']) {
    assert.throws(() => parseGate(spec), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && e.field === '--fail-under' && /is outside the range of .*, \[0, 1\]\./.test(e.message), spec);
  }
  for (const spec of ['hit@k=1', 'mrr=0', 'acceptance=1', 'ndcg@10=0.5']) assert.equal(parseGate(spec).value, Number(spec.split('=')[1]), spec);
});

test('--fail-under: an unknown metric names the flag once and lists the metrics; a threshold is a plain decimal (no hex, exponent, Infinity or empty value)', () => {
  const r = cli(['run', '--workspace', MINI, '--fail-under', 'bogus=0.5']);
  assert.equal(r.code, 2, r.stderr);
  assert.doesNotMatch(r.stderr, /--fail-under: --fail-under/);
  assert.doesNotMatch(r.stderr, /\n\s+at /); // no stack trace
  assert.equal(r.stderr.split('\n').filter(Boolean).length, 1, r.stderr);
  assert.match(r.stderr, /^spanproof: --fail-under "bogus=0\.5": "bogus" is not a metric\. Fix: use one of acceptance, hit@k, hit@1, .*\bmrr\b.*\bndcg@10\b/);
  for (const spec of ['hit@5=0x1', 'hit@5=1e-400', 'hit@5=Infinity', 'hit@5=', 'hit@5= ', 'mrr=+0.5', 'mrr=0.5.1', 'acceptance=1e0', '=0.5', 'hit@5']) {
    assert.throws(() => parseGate(spec), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && e.field === '--fail-under' && /Fix: /.test(e.message) && !/--fail-under: --fail-under/.test(e.message), spec);
  }
  assert.match(thrown(() => parseGate('hit@5=0x1')).message, /the threshold "0x1" must be a decimal number from 0 to 1\. Fix: write it as a plain decimal, e\.g\. --fail-under hit@5=0\.8\./);
  for (const [spec, v] of [['hit@5=.5', 0.5], ['mrr=0.80', 0.8], ['acceptance=1', 1], ['hit@k= 0 ', 0]] as const) assert.equal(parseGate(spec).value, v, spec);
});

test('a passing --fail-under gate says so on one line (metric, value, config, threshold); --gate-config without --fail-under is refused before anything runs', () => {
  const root = tmp('gate-pass');
  const small = (runs: string) => ['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--runs-dir', join(root, runs), '--cache-dir', join(root, 'cache'), '--chunkers', 'heading', '--retrievers', 'bm25', '--rerank', 'off'];
  const ok = cli([...small('runs'), '--json', '--fail-under', 'hit@5=0.5', '--fail-under', 'acceptance=0.5']);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stderr, /^gate passed: hit@5 = 1\.0000 \(heading\/bm25\/none, recommended\) ≥ 0\.5$/m);
  assert.match(ok.stderr, /^gate passed: acceptance = 1\.0000 ≥ 0\.5$/m);
  const alone = cli([...small('runs-alone'), '--gate-config', 'heading/bm25/none']);
  assert.equal(alone.code, 2, alone.stderr);
  assert.equal(alone.stderr, 'spanproof: --gate-config "heading/bm25/none" is given without --fail-under, so nothing would be gated. Fix: add the gate, e.g. --fail-under hit@k=0.8 --gate-config heading/bm25/none, or drop --gate-config.\n');
  assert.throws(() => readFileSync(join(root, 'runs-alone')), /ENOENT/); // nothing ran
  const merged = cli(['merge', '--out', join(root, 'merged'), join(root, 'no-shard'), '--gate-config', 'heading/bm25/none']);
  assert.equal(merged.code, 2, merged.stderr);
  assert.match(merged.stderr, /^spanproof: --gate-config "heading\/bm25\/none" is given without --fail-under/);
});
