// Endpoint reranker (SPEC §5.3) against a fake rerank server on 127.0.0.1 that the test starts:
// the common `{model, query, documents, top_n}` → `{results: [{index, relevance_score}]}` shape, TEI's
// `{query, texts}` shape learnt from its 422, batching, the pair-score disk cache (a second identical
// run sends zero requests) and malformed replies. Expected scores: cosine of the server's bags of words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ModelEndpoint, checkRerank, loadEndpointReranker } from '../../../../src/core/models/endpoint';
import { isSpanproofError } from '../../../../src/core/errors';
import { bagOfWords, cosine, startFakeModelServer } from '../../../helpers/fakeModelServer';
import { tempDir } from '../../../helpers/tmp';

const QUERY = 'which port does the server listen on';
const PASSAGES = ['The server listens on port 8000.', 'Install the package with pip.', 'A port is a number; the server binds one.', 'Unrelated text about cats.'];
const expected = (q: string, ps: string[]) => ps.map((p) => Math.fround(cosine(bagOfWords(q, 64), bagOfWords(p, 64))));

test('scores in passage order, every passage scored (top_n = batch), cached: an identical second run sends nothing', async (t) => {
  const srv = await startFakeModelServer();
  t.after(() => srv.close());
  const cacheDir = tempDir('sp-rr-', t);
  const connection = new ModelEndpoint({ endpoint: srv.url });
  const r = loadEndpointReranker({ connection, model: 'bow-rerank', cacheDir });
  assert.equal(r.baseline, false);
  assert.match(r.id, /^endpoint:bow-rerank@[0-9a-f]{16}$/);
  assert.equal(srv.requests.length, 0, 'opening a reranker sends nothing');
  const s = await r.score(QUERY, PASSAGES);
  assert.deepEqual([...s], expected(QUERY, PASSAGES));
  assert.equal(srv.requests.length, 1);
  assert.deepEqual(srv.requests[0].body, { model: 'bow-rerank', query: QUERY, documents: PASSAGES, top_n: 4 });
  assert.equal(srv.requests[0].path, '/v1/rerank');

  // Partly cached: only the new passage is sent.
  await r.score(QUERY, [PASSAGES[1], 'A new passage about the port.']);
  assert.equal(srv.requests.length, 2);
  assert.deepEqual(srv.requests[1].body.documents, ['A new passage about the port.']);

  const connection2 = new ModelEndpoint({ endpoint: srv.url });
  const again = loadEndpointReranker({ connection: connection2, model: 'bow-rerank', cacheDir });
  assert.deepEqual([...(await again.score(QUERY, PASSAGES))], [...s]);
  assert.equal(srv.requests.length, 2, 'second identical run: zero requests');
  assert.equal(connection2.ledgerFile().cachedResponses, 4);
  // Another query is another pair.
  await again.score('another query', PASSAGES.slice(0, 1));
  assert.equal(srv.requests.length, 3);
});

test('batches of batchSize passages per request', async (t) => {
  const srv = await startFakeModelServer();
  t.after(() => srv.close());
  const ps = Array.from({ length: 25 }, (_, i) => `passage number ${i} on port ${i}`);
  const r = loadEndpointReranker({ connection: new ModelEndpoint({ endpoint: srv.url }), model: 'm', cacheDir: tempDir('sp-rr-', t), batchSize: 10 });
  const s = await r.score(QUERY, ps);
  assert.deepEqual([...s], expected(QUERY, ps));
  assert.deepEqual(srv.requests.map((q) => (q.body.documents as string[]).length).sort((a, b) => a - b), [5, 10, 10]);
  assert.ok(srv.requests.every((q) => q.body.top_n === (q.body.documents as string[]).length));
});

test("TEI: a 422 asking for `texts` switches to TEI's shape once; both requests are in the ledger", async (t) => {
  const srv = await startFakeModelServer({ tei: true });
  t.after(() => srv.close());
  const connection = new ModelEndpoint({ endpoint: srv.url });
  const r = loadEndpointReranker({ connection, model: 'bge', cacheDir: tempDir('sp-rr-', t) });
  assert.deepEqual([...(await r.score(QUERY, PASSAGES))], expected(QUERY, PASSAGES));
  assert.equal(srv.requests.length, 2);
  assert.deepEqual(srv.requests[1].body, { query: QUERY, texts: PASSAGES, raw_scores: false });
  await r.score('second query', PASSAGES);
  assert.equal(srv.requests.length, 3, 'the shape is remembered: no second 422');
  assert.equal(connection.ledgerFile().requests, 3);
  assert.equal(connection.ledgerFile().failures, 1);
});

test('malformed rerank replies: a missing, repeated or out-of-range index, a non-number score', async (t) => {
  const replies: unknown[] = [
    { results: [{ index: 0, relevance_score: 0.5 }] },
    { results: [{ index: 0, relevance_score: 0.5 }, { index: 0, relevance_score: 0.4 }] },
    { results: [{ index: 0, relevance_score: 0.5 }, { index: 2, relevance_score: 0.4 }] },
    { results: [{ index: 0, relevance_score: 'high' }, { index: 1, relevance_score: 0.4 }] },
    { data: [] },
  ];
  const messages = [/1 results for 2 documents \(document 1 has no score/, /index is 0 \(expected each of 0…1 once\)/, /index is 2/, /relevance_score is "high", not a finite number/, /no "results" array/];
  let i = 0;
  const srv = await startFakeModelServer({ script: () => ({ json: replies[i] }) });
  t.after(() => srv.close());
  for (; i < replies.length; i++) {
    const r = loadEndpointReranker({ connection: new ModelEndpoint({ endpoint: srv.url }), model: 'm', cacheDir: tempDir('sp-rr-', t) });
    await assert.rejects(r.score('q', ['a', 'b']), (e: unknown) => {
      assert.ok(isSpanproofError(e) && e.code === 'model');
      assert.match((e as Error).message, /POST \/rerank at http:\/\/127\.0\.0\.1:\d+\/v1 \(model "m"\): the reply is not understood/);
      assert.match((e as Error).message, messages[i]);
      return true;
    });
  }
  assert.equal(srv.requests.length, replies.length, 'a malformed reply is not retried');
  assert.deepEqual(checkRerank([{ index: 1, score: 2 }, { index: 0, score: 1 }], 2), [1, 2], "TEI's top-level array");
});
