/**
 * Endpoint models in the grid (SPEC §5.3) against a fake embeddings + rerank server on 127.0.0.1 that
 * rate-limits (429 with Retry-After on every 4th request): the endpoint embedder and reranker plug in
 * like local models, every dense ranking equals a plain-JS recomputation of the server's hashed
 * bag-of-words cosine over the run's own chunks (so no vector was lost, zeroed or swapped), the ledger
 * equals the server's request count, and an identical second run sends ZERO requests and writes a
 * byte-identical results.json.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runGrid } from '../../../../src/core/grid/run';
import { readRun } from '../../../../src/core/runs';
import { bagOfWords, cosine, startFakeModelServer } from '../../../helpers/fakeModelServer';
import type { JsonReply } from '../../../helpers/jsonServer';
import { MINI, MINI_GT, readText, smallSettings, tmp } from '../../../helpers/grid';

interface ChunkLine {
  id: number;
  source: string;
  start: number;
  end: number;
  text: string;
}

test('endpoint embedder + endpoint reranker in the grid: exact rankings, 429s retried, ledger = server log, identical re-run sends nothing', async (t) => {
  let n = 0;
  const srv = await startFakeModelServer({ script: (): JsonReply | undefined => (++n % 4 === 0 ? { status: 429, headers: { 'retry-after-ms': '20' } } : undefined) });
  t.after(() => srv.close());
  const root = tmp('endpoint-grid');
  const settings = smallSettings({
    chunkers: ['heading'],
    retrievers: ['bm25', 'dense'],
    rerank: [false, true],
    embeddingModel: 'endpoint:bow',
    rerankerModel: 'endpoint:bow-rerank',
    modelEndpoint: { url: srv.url, concurrency: 2, timeoutMs: 10000, retries: 3, batchSize: 16 },
  });
  const params = { workspace: MINI, groundTruthFile: MINI_GT, settings, cacheDir: join(root, 'cache'), keepChunks: true, apiKey: 'sk-test' };

  const a = await runGrid({ ...params, outDir: join(root, 'a') });
  assert.equal(a.status, 'succeeded');
  const first = srv.requests.length;
  assert.ok(first > 0);
  assert.ok(srv.requests.some((r) => r.path === '/v1/embeddings') && srv.requests.some((r) => r.path === '/v1/rerank'));
  assert.ok(srv.requests.every((r) => r.headers.authorization === 'Bearer sk-test'), 'the key from the params, on every request');
  assert.ok(srv.maxInFlight <= 2, 'concurrency limit');
  assert.ok(srv.requests.some((r) => (r.body.input as string[] | undefined)?.length === 16), 'batches of batchSize');
  const ledger = JSON.parse(readFileSync(join(a.runDir!, 'models-ledger.json'), 'utf8'));
  assert.equal(ledger.requests, first, 'the ledger counts every request the server saw');
  assert.equal(ledger.retries, Math.floor(first / 4), 'every 429 was retried once');
  assert.equal(ledger.endpoint, srv.url);
  assert.deepEqual(Object.keys(ledger.byModel).sort(), ['bow', 'bow-rerank']);

  // Quality is real: the dense result lists are exactly what the server's vectors give.
  const chunks = readText(join(a.runDir!, 'chunks', 'heading.jsonl')).trim().split('\n').map((l) => JSON.parse(l) as ChunkLine);
  const vec = new Map(chunks.map((c) => [c.id, bagOfWords(c.text, 64)]));
  const gt = JSON.parse(readText(MINI_GT)) as { questions: Array<{ id: string; question: string }> };
  const run = readRun(a.runDir!);
  let decided = 0;
  for (const q of gt.questions) {
    const rec = run.questions.find((r) => r.question === q.id && r.config === 'heading/dense/none')!;
    const qv = bagOfWords(q.question, 64);
    const score = (c: ChunkLine) => cosine(qv, vec.get(c.id)!);
    const expected = [...chunks].sort((x, y) => score(y) - score(x));
    // Compare the ranks the scores decide: positive and not within float32 noise of the next one.
    let m = 0;
    while (m < Math.min(rec.results.length, expected.length) && score(expected[m]) > 1e-6 && (m + 1 >= expected.length || score(expected[m]) - score(expected[m + 1]) > 1e-5)) m++;
    assert.ok(m >= 1, `${q.id}: some ranks are decided by the scores`);
    assert.deepEqual(rec.results.slice(0, m).map((h) => `${h.source}:${h.start}`), expected.slice(0, m).map((c) => `${c.source}:${c.start}`), `${q.id} dense ranks 1..${m}`);
    decided += m;
  }
  assert.ok(decided >= 20, `ranks compared: ${decided}`);
  const hit = (id: string) => a.results.configs.find((c) => c.id === id)!.metrics['hit@5'].mean;
  assert.ok(hit('heading/dense/none') >= 0.5, `bag-of-words dense retrieval finds the evidence: hit@5 ${hit('heading/dense/none')}`);
  assert.ok(hit('heading/dense/rerank') >= 0.5, `reranked: ${hit('heading/dense/rerank')}`);

  const b = await runGrid({ ...params, outDir: join(root, 'b') });
  assert.equal(srv.requests.length, first, 'second identical run: zero requests');
  assert.equal(readText(join(b.runDir!, 'results.json')), readText(join(a.runDir!, 'results.json')));
  const ledgerB = JSON.parse(readFileSync(join(b.runDir!, 'models-ledger.json'), 'utf8'));
  assert.equal(ledgerB.requests, 0);
  // The run's own caches answer everything (question vectors, candidate lists, pair scores), so the
  // endpoint models are not even asked for their cached responses.
  assert.equal(ledgerB.cachedResponses, 0);
  assert.doesNotMatch(readText(join(b.runDir!, 'run.json')), /sk-test/, 'the key is never written');
});

test('an endpoint model without an endpoint fails before any work, naming the setting', async () => {
  const root = tmp('endpoint-missing');
  await assert.rejects(
    runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings: smallSettings({ chunkers: ['heading'], retrievers: ['dense'], rerank: [false], embeddingModel: 'endpoint:x' }), cacheDir: join(root, 'cache'), outDir: join(root, 'a') }),
    /modelEndpoint\.url: the embedder endpoint:x is served by an endpoint, and no endpoint is set\. Fix: pass --endpoint URL/,
  );
});

test('an endpoint embedder beside static-glove and an endpoint reranker, against a server that rate-limits: sane quality, an identical re-run sends zero requests', async (t) => {
  let n = 0;
  let limited = 0;
  const srv = await startFakeModelServer({ script: (): JsonReply | undefined => (++n % 3 === 0 ? (limited++, { status: 429, headers: { 'retry-after': '0' } }) : undefined) });
  t.after(() => srv.close());
  const root = tmp('endpoint-axis');
  const settings = smallSettings({
    chunkers: ['heading'], retrievers: ['dense', 'hybrid'], rerank: [false, true],
    embedders: ['endpoint:bow', 'static-glove'], rerankerModel: 'endpoint:bow-rerank',
    modelEndpoint: { url: srv.url, concurrency: 2, timeoutMs: 10000, retries: 3, batchSize: 16 },
  });
  const params = { workspace: MINI, groundTruthFile: MINI_GT, settings, cacheDir: join(root, 'cache'), apiKey: 'sk-axis' };
  const a = await runGrid({ ...params, outDir: join(root, 'a') });
  assert.equal(a.status, 'succeeded');
  const ids = a.results.configs.map((c) => c.id).sort();
  assert.deepEqual(ids, ['heading/dense:endpoint:bow/none', 'heading/dense:endpoint:bow/rerank', 'heading/dense:static-glove/none', 'heading/dense:static-glove/rerank', 'heading/hybrid:endpoint:bow/none', 'heading/hybrid:endpoint:bow/rerank', 'heading/hybrid:static-glove/none', 'heading/hybrid:static-glove/rerank']);
  const first = srv.requests.length;
  assert.ok(limited >= 1, 'the server rate-limited some requests');
  const ledger = JSON.parse(readFileSync(join(a.runDir!, 'models-ledger.json'), 'utf8'));
  assert.equal(ledger.requests, first, 'the ledger counts every request the server saw, 429s included');
  assert.equal(ledger.retries, limited, 'every 429 was retried (after its Retry-After)');
  const hit = (id: string) => a.results.configs.find((c) => c.id === id)!.metrics['hit@5'].mean;
  assert.ok(hit('heading/dense:endpoint:bow/none') >= 0.5, `endpoint dense: hit@5 ${hit('heading/dense:endpoint:bow/none')}`);
  assert.ok(hit('heading/dense:endpoint:bow/rerank') >= 0.5, `endpoint reranked: ${hit('heading/dense:endpoint:bow/rerank')}`);
  assert.deepEqual(readRun(a.runDir!).run.models?.embedders.map((e) => e.name), ['endpoint:bow', 'static-glove']);

  const b = await runGrid({ ...params, outDir: join(root, 'b') });
  assert.equal(srv.requests.length, first, 'second identical run: zero requests');
  assert.equal(readText(join(b.runDir!, 'results.json')), readText(join(a.runDir!, 'results.json')));
  assert.equal(JSON.parse(readFileSync(join(b.runDir!, 'models-ledger.json'), 'utf8')).requests, 0);
});
