/**
 * `--explain-settings` marks the settings this run does not read ("not used: …"), and a count that is
 * a slip — `--k 1e3`, `--pool 2.5`, `k` of a million — is refused before anything runs, naming the flag
 * or key and the range.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { MINI, tmp } from '../../helpers/grid';

test('--explain-settings says "not used" for settings this run does not read, and only for those', async () => {
  const r = await runCli(['run', '--workspace', MINI, '--chunkers', 'heading', '--rerank', 'off', '--explain-settings']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^draft\.model +"" +← default +\(not used: read by spanproof draft only\)$/m);
  assert.match(r.stdout, /^judge\.endpoint +"" +← default +\(not used: only with --generate\)$/m);
  assert.match(r.stdout, /^chunkerParams\.fixed\.size +800 +← default +\(not used: the fixed chunker is not in chunkers\)$/m);
  assert.match(r.stdout, /^rerankerModel +"" +← default +\(not used: rerank has no on\)$/m);
  assert.match(r.stdout, /^modelEndpoint\.url +"" +← default +\(not used: no endpoint:<model> embedder or reranker\)$/m);
  assert.match(r.stdout, /^injection\.study +false +← default +\(not used: the CLI takes --injection-study/m);
  for (const used of ['chunkerParams.heading.maxSize', 'k', 'poolSize', 'chunkers', 'mlflow.trackingUri', 'bootstrap.seed']) {
    assert.match(r.stdout, new RegExp(`^${used.replace(/\./g, '\\.')} +\\S+ +← [^(]+$`, 'm'), used);
  }
  const gen = await runCli(['run', '--workspace', MINI, '--generate', '--explain-settings', '--json']);
  assert.equal(gen.code, 0, gen.stderr);
  const settings = JSON.parse(gen.stdout).settings as Array<{ key: string; notUsed?: string }>;
  assert.equal(settings.find((s) => s.key === 'judge.endpoint')!.notUsed, undefined);
  assert.equal(settings.find((s) => s.key === 'draft.count')!.notUsed, 'read by spanproof draft only');
});

test('absurd or non-integer counts are refused: --k / --pool of run and query, k / poolSize of --config', async () => {
  const root = tmp('counts');
  for (const [flag, v] of [['--k', '20000'], ['--k', '1e3'], ['--k', '0x10'], ['--pool', '2.5'], ['--pool', '100000000']]) {
    const r = await runCli(['run', '--workspace', MINI, flag, v, '--explain-settings']);
    assert.equal(r.code, 2, `${flag} ${v}: ${r.stderr}`);
    assert.equal(r.stderr, `spanproof: ${flag} "${v}" is not a whole number from 1 to 10000. Fix: pass a whole number in digits, e.g. ${flag} ${flag === '--k' ? 5 : 20}.\n`);
  }
  const q = await runCli(['query', '--workspace', MINI, '--chunker', 'heading', '--retriever', 'bm25', '--k', '1e3', 'q']);
  assert.equal(q.code, 2, q.stderr);
  assert.match(q.stderr, /^spanproof: --k "1e3" is not a whole number from 1 to 10000\. Fix: /);
  const cfg = join(root, 'cfg.json');
  writeFileSync(cfg, JSON.stringify({ k: 50000, poolSize: 60000 }));
  const c = await runCli(['run', '--workspace', MINI, '--config', cfg, '--explain-settings']);
  assert.equal(c.code, 2, c.stderr);
  assert.match(c.stderr, /k is 50000; at most 10000 is accepted\. Fix: set --k \(setting k\) to at most 10000/);
  assert.match(c.stderr, /poolSize is 60000; at most 10000 is accepted\./);
});
