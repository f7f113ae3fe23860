/**
 * Fresh-user findings after #16: a fix names the flag or --config key the CLI really reads (never a
 * .vscode/settings.json key the CLI ignores), `generate` without --endpoint speaks of no ledger, and a
 * URL that is not http(s) (`--endpoint`, `--retriever-url`, modelEndpoint.url / externalRetrievers in
 * --config) is refused when it is read — before any "Sending …" line and before the grid runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { MINI, MINI_GT, tmp } from '../../helpers/grid';
import { checkModels } from '../../../src/core/judge/loop';
import { thrown } from '../../helpers/thrown';

const grid = (root: string) => ['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--runs-dir', join(root, 'runs'), '--cache-dir', join(root, 'cache'), '--chunkers', 'heading', '--retrievers', 'bm25', '--rerank', 'off'];
const oneLine = (stderr: string) => assert.equal(stderr.split('\n').filter(Boolean).length, 1, stderr);

test('hints name --generator-model / --endpoint / --config keys, not the workspace keys the CLI ignores', async () => {
  const root = tmp('hints');
  const noUrl = await runCli([...grid(root), '--embedders', 'endpoint:emb']);
  assert.equal(noUrl.code, 2, noUrl.stderr);
  assert.match(noUrl.stderr, /Fix: pass --endpoint URL \(or set modelEndpoint\.url in the --config file; in VS Code: the setting spanproof\.modelEndpoint\.url\)/);
  assert.doesNotMatch(noUrl.stderr, /or set spanproof\.modelEndpoint\.url\)/);
  const gen = thrown(() => checkModels('', 'judge'));
  assert.match(gen.message, /Fix: pass --generator-model NAME \(or set judge\.generatorModel in the --config file of spanproof run; in VS Code: the setting spanproof\.judge\.generatorModel\)\./);
  const noGen = await runCli([...grid(root), '--generate', '--endpoint', 'http://127.0.0.1:9/v1', '--judge-model', 'j']);
  assert.equal(noGen.code, 2, noGen.stderr);
  assert.match(noGen.stderr, /Fix: pass --generator-model NAME \(or set judge\.generatorModel in the --config file/);
  assert.ok(!existsSync(join(root, 'runs')), 'refused before the grid ran');
});

test('generate without --endpoint, or on a folder that is not a run, names no ledger and no --overwrite', async () => {
  const root = tmp('gen-no-endpoint');
  const r = await runCli([...grid(root), '--json']);
  assert.equal(r.code, 0, r.stderr);
  const runDir = JSON.parse(r.stdout).runDir as string;
  const noEp = await runCli(['generate', runDir, '--generator-model', 'g', '--judge-model', 'j']);
  assert.equal(noEp.code, 2, noEp.stderr);
  oneLine(noEp.stderr);
  assert.match(noEp.stderr, /^spanproof: --endpoint: no endpoint given; .* Fix: pass --endpoint URL, e\.g\. http:\/\/localhost:11434\/v1 for Ollama\.\n$/);
  assert.doesNotMatch(noEp.stderr, /ledger|--overwrite/);
  const noModel = await runCli(['generate', runDir, '--endpoint', 'http://127.0.0.1:9/v1', '--judge-model', 'j']);
  assert.equal(noModel.code, 2, noModel.stderr);
  assert.doesNotMatch(noModel.stderr, /ledger|--overwrite|Sending/);
  const notRun = await runCli(['generate', join(root, 'nothing-here'), '--endpoint', 'http://127.0.0.1:9/v1', '--generator-model', 'g', '--judge-model', 'j']);
  assert.equal(notRun.code, 2, notRun.stderr);
  assert.match(notRun.stderr, /not a Spanproof run directory \(no run\.json\)\. Fix: /);
  assert.doesNotMatch(notRun.stderr, /ledger|internal error|\n\s+at /);
});

test('a URL that is not http(s) is refused when read: --endpoint before any "Sending" line, --retriever-url before the grid', async () => {
  const root = tmp('urls');
  for (const args of [[...grid(root), '--embedders', 'endpoint:emb', '--endpoint', 'not-a-url'], ['generate', join(root, 'x'), '--endpoint', 'not-a-url'], ['query', '--chunker', 'heading', '--retriever', 'bm25', '--endpoint', 'ftp://x', 'q']]) {
    const r = await runCli(args);
    assert.equal(r.code, 2, r.stderr);
    oneLine(r.stderr);
    assert.doesNotMatch(r.stderr, /Sending/);
    assert.match(r.stderr, /^spanproof: --endpoint "(not-a-url|ftp:\/\/x)" is not an http:\/\/ or https:\/\/ URL\. Fix: give a full URL such as http:\/\/localhost:11434\/v1 \(Ollama\) or https:\/\/api\.openai\.com\/v1\.\n$/);
  }
  const ftp = await runCli([...grid(root), '--retriever-url', 'ftp://x']);
  assert.equal(ftp.code, 2, ftp.stderr);
  assert.equal(ftp.stderr, 'spanproof: --retriever-url "ftp://x" is not an http:// or https:// URL. Fix: give a full URL such as http://localhost:8080/search.\n');
  assert.ok(!existsSync(join(root, 'runs')), 'refused before the grid ran');
  const cfg = join(root, 'cfg.json');
  writeFileSync(cfg, JSON.stringify({ externalRetrievers: [{ name: 'mine', url: 'ftp://x' }] }));
  const fromConfig = await runCli([...grid(root), '--config', cfg]);
  assert.equal(fromConfig.code, 2, fromConfig.stderr);
  assert.match(fromConfig.stderr, /externalRetrievers/);
  assert.ok(!existsSync(join(root, 'runs')), 'refused before the grid ran');
  writeFileSync(cfg, JSON.stringify({ modelEndpoint: { url: 'localhost:11434' }, embedders: ['endpoint:emb'] }));
  const epConfig = await runCli([...grid(root), '--config', cfg]);
  assert.equal(epConfig.code, 2, epConfig.stderr);
  assert.match(epConfig.stderr, /^spanproof: modelEndpoint\.url "localhost:11434" is not an http:\/\/ or https:\/\/ URL\. Fix: /);
  assert.doesNotMatch(epConfig.stderr, /Sending/);
});
