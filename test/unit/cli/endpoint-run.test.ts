/**
 * `spanproof run --embedders endpoint:<model> --reranker endpoint:<model> --endpoint URL` as a user runs
 * it, against a fake embeddings + rerank server on 127.0.0.1 (rate-limiting every 5th request): the key
 * from SPANPROOF_API_KEY reaches the server and no file, the stderr says where texts go and how many
 * requests were sent, an identical second run sends zero requests; a missing endpoint or a catalogue
 * model not downloaded is refused before anything runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModelServer } from '../../helpers/fakeModelServer';
import type { JsonReply } from '../../helpers/jsonServer';
import { runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/tmp';
import { MINI, MINI_GT } from '../../helpers/grid';

test('run with endpoint models: key sent, ledger printed, identical re-run sends zero requests', async (t) => {
  let n = 0;
  const srv = await startFakeModelServer({ script: (): JsonReply | undefined => (++n % 5 === 0 ? { status: 429, headers: { 'retry-after': '0' } } : undefined) });
  t.after(() => srv.close());
  const root = tempDir('sp-ep-cli-', t);
  const args = (out: string) => ['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--out', join(root, out), '--cache-dir', join(root, 'cache'), '--chunkers', 'heading', '--retrievers', 'dense', '--rerank', 'off,on', '--embedders', 'endpoint:bow', '--reranker', 'endpoint:bow-rerank', '--endpoint', srv.url];
  const env = { SPANPROOF_API_KEY: 'sk-cli' };

  const a = await runCli(args('a'), env);
  assert.equal(a.code, 0, a.stderr);
  assert.match(a.stderr, new RegExp(`Sending chunk and question texts to http://127\\.0\\.0\\.1:\\d+/v1 \\(embedder endpoint:bow, reranker endpoint:bow-rerank\\)`));
  const sent = srv.requests.length;
  assert.match(a.stderr, new RegExp(`endpoint models: ${sent} request\\(s\\) sent \\(\\d+ retries\\), 0 text\\(s\\) from the cache`));
  assert.ok(srv.requests.every((r) => r.headers.authorization === 'Bearer sk-cli'));
  for (const f of readdirSync(join(root, 'a'))) assert.doesNotMatch(readFileSync(join(root, 'a', f), 'utf8'), /sk-cli/, `${f} holds no key`);

  const b = await runCli(args('b'), env);
  assert.equal(b.code, 0, b.stderr);
  assert.equal(srv.requests.length, sent, 'second identical run: zero requests');
  assert.match(b.stderr, /endpoint models: 0 request\(s\) sent \(0 retries\), \d+ text\(s\) from the cache/);
  assert.equal(readFileSync(join(root, 'b', 'results.json'), 'utf8'), readFileSync(join(root, 'a', 'results.json'), 'utf8'));
});

test('refused before the run: an endpoint model without --endpoint; a catalogue model not downloaded', async (t) => {
  const root = tempDir('sp-ep-cli-', t);
  const base = ['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--out', join(root, 'out'), '--cache-dir', join(root, 'cache'), '--chunkers', 'heading', '--retrievers', 'dense', '--rerank', 'off'];
  let r = await runCli([...base, '--embedders', 'endpoint:text-embedding-3-small']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^spanproof: modelEndpoint\.url: the embedder endpoint:text-embedding-3-small is served by an endpoint, and no endpoint is set\. Fix: pass --endpoint URL/);
  r = await runCli([...base, '--embedders', 'all-MiniLM-L6-v2'], { SPANPROOF_MODELS_DIR: join(root, 'models') });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /the catalogue model "all-MiniLM-L6-v2" is not downloaded\. Fix: run: spanproof models pull all-MiniLM-L6-v2/);
  r = await runCli([...base, '--embedders', 'ms-marco-MiniLM-L-6-v2']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /"ms-marco-MiniLM-L-6-v2" is a cross-encoder, not an embedder\. Fix: put it in rerankerModel \(--reranker ms-marco-MiniLM-L-6-v2\)/);
  assert.equal(existsSync(join(root, 'out')), false, 'nothing ran');
});
