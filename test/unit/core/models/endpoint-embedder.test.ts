// Endpoint embedder (SPEC §5.3) against a fake OpenAI-compatible embeddings server on 127.0.0.1 that
// the test starts (test/helpers/fakeModelServer.ts): batching, concurrency limit, 429 + Retry-After,
// timeouts, malformed replies, the disk cache (a second identical run sends zero requests) and the
// ledger against the server's own request count. Expected vectors: the server's hashed bag of words,
// L2-normalised here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIMENSION_PROBE, ModelEndpoint, loadEndpointEmbedder } from '../../../../src/core/models/endpoint';
import { isSpanproofError } from '../../../../src/core/errors';
import type { JsonReply } from '../../../helpers/jsonServer';
import { bagOfWords, startFakeModelServer } from '../../../helpers/fakeModelServer';
import { tempDir } from '../../../helpers/tmp';

const DIM = 64;
const countTokens = (t: string) => t.split(/\s+/).filter(Boolean).length;
const noWait = { sleep: async () => {} };

function unit(text: string): number[] {
  const v = bagOfWords(text, DIM);
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / n);
}

function assertRow(m: Float32Array, row: number, expected: number[]): void {
  for (let j = 0; j < DIM; j++) assert.ok(Math.abs(m[row * DIM + j] - expected[j]) < 1e-6, `row ${row} [${j}]: ${m[row * DIM + j]} vs ${expected[j]}`);
}

const TEXTS = Array.from({ length: 70 }, (_, i) => `passage ${i} about topic ${i % 7} and word w${i}`);

test('batches of batchSize, duplicates and blanks not sent, rows in input order, ledger = server count', async (t) => {
  const srv = await startFakeModelServer({ dim: DIM });
  t.after(() => srv.close());
  const connection = new ModelEndpoint({ endpoint: srv.url, policy: noWait });
  const e = await loadEndpointEmbedder({ connection, model: 'bow', cacheDir: tempDir('sp-ep-', t), batchSize: 32, countTokens });
  assert.equal(e.dim, DIM);
  assert.match(e.id, /^endpoint:bow@[0-9a-f]{16}$/);
  assert.equal(srv.requests.length, 1, 'the vector length is learnt with one probe request');
  assert.deepEqual(srv.requests[0].body.input, [DIMENSION_PROBE]);

  const input = [...TEXTS, TEXTS[3], '   ', TEXTS[0]];
  const m = await e.embed(input);
  assert.equal(m.length, input.length * DIM);
  // 70 distinct non-blank texts in batches of 32: 32 + 32 + 6.
  const sizes = srv.requests.slice(1).map((r) => (r.body.input as string[]).length).sort((a, b) => b - a);
  assert.deepEqual(sizes, [32, 32, 6]);
  assert.ok(srv.requests.slice(1).every((r) => r.path === '/v1/embeddings' && r.body.model === 'bow' && r.body.encoding_format === 'float'));
  assert.ok(!srv.requests.some((r) => (r.body.input as string[]).includes('   ')), 'a blank text is never sent');
  TEXTS.forEach((txt, i) => assertRow(m, i, unit(txt)));
  assertRow(m, 70, unit(TEXTS[3]));
  assertRow(m, 71, new Array(DIM).fill(0)); // blank: the all-zero row of the TextEmbedder contract
  assertRow(m, 72, unit(TEXTS[0]));
  const l = connection.ledgerFile();
  assert.equal(l.requests, srv.requests.length);
  assert.equal(l.byModel.bow.requests, 4);
  assert.equal(l.promptTokens, 71, 'usage.prompt_tokens summed (the fake counts one per text)');
  assert.equal(e.countTokens('a b c'), 3);
});

test('concurrency limit: never more requests in flight than allowed', async (t) => {
  const srv = await startFakeModelServer({ dim: DIM, delayMs: 40 });
  t.after(() => srv.close());
  const connection = new ModelEndpoint({ endpoint: srv.url, policy: { ...noWait, concurrency: 2 } });
  const e = await loadEndpointEmbedder({ connection, model: 'bow', cacheDir: tempDir('sp-ep-', t), batchSize: 5, countTokens });
  await e.embed(TEXTS.slice(0, 40)); // 8 batches
  assert.equal(srv.requests.length, 9);
  assert.equal(srv.maxInFlight, 2);
});

test('a second identical run sends zero requests and gives the same bytes (disk cache)', async (t) => {
  const srv = await startFakeModelServer({ dim: DIM });
  t.after(() => srv.close());
  const cacheDir = tempDir('sp-ep-', t);
  const first = await loadEndpointEmbedder({ connection: new ModelEndpoint({ endpoint: srv.url }), model: 'bow', cacheDir, countTokens });
  const a = await first.embed(TEXTS);
  const sent = srv.requests.length;
  assert.equal(sent, 1 + 3, 'probe + 70 texts in batches of 32');

  const connection = new ModelEndpoint({ endpoint: srv.url });
  const again = await loadEndpointEmbedder({ connection, model: 'bow', cacheDir, countTokens });
  const b = await again.embed(TEXTS);
  assert.equal(srv.requests.length, sent, 'no request at all: not even the dimension probe');
  assert.deepEqual(Buffer.from(b.buffer), Buffer.from(a.buffer));
  assert.equal(again.id, first.id);
  const l = connection.ledgerFile();
  assert.equal(l.requests, 0);
  assert.equal(l.cachedResponses, 70);

  // Another model name or endpoint path is another cache: it asks again.
  await loadEndpointEmbedder({ connection, model: 'other', cacheDir, countTokens });
  assert.equal(srv.requests.length, sent + 1);
});

test('a record cut short by a crash is dropped and asked again; whole records are kept', async (t) => {
  const srv = await startFakeModelServer({ dim: DIM });
  t.after(() => srv.close());
  const cacheDir = tempDir('sp-ep-', t);
  const e = await loadEndpointEmbedder({ connection: new ModelEndpoint({ endpoint: srv.url }), model: 'bow', cacheDir, batchSize: 100, countTokens });
  await e.embed(TEXTS.slice(0, 3));
  const dir = join(cacheDir, 'endpoint-models');
  const file = join(dir, readdirSync(dir)[0]);
  truncateSync(file, statSync(file).size - 10); // the last record (TEXTS[2]) loses its tail
  const sent = srv.requests.length;
  const again = await loadEndpointEmbedder({ connection: new ModelEndpoint({ endpoint: srv.url }), model: 'bow', cacheDir, batchSize: 100, countTokens });
  const m = await again.embed(TEXTS.slice(0, 3));
  assert.equal(srv.requests.length, sent + 1);
  assert.deepEqual(srv.requests.at(-1)!.body.input, [TEXTS[2]]);
  assertRow(m, 2, unit(TEXTS[2]));
  // The file was cut back to whole records before the append: a third open reads all three.
  const third = await loadEndpointEmbedder({ connection: new ModelEndpoint({ endpoint: srv.url }), model: 'bow', cacheDir, countTokens });
  await third.embed(TEXTS.slice(0, 3));
  assert.equal(srv.requests.length, sent + 1);
});

test('429 with Retry-After and 503 with retry-after-ms: waits what the server asks, then succeeds', async (t) => {
  let n = 0;
  const srv = await startFakeModelServer({
    dim: DIM,
    script: (): JsonReply | undefined => {
      n++;
      if (n === 2) return { status: 429, headers: { 'retry-after': '2' } };
      if (n === 3) return { status: 503, headers: { 'retry-after-ms': '150' } };
      return undefined;
    },
  });
  t.after(() => srv.close());
  const waits: number[] = [];
  const connection = new ModelEndpoint({ endpoint: srv.url, policy: { sleep: async (ms) => void waits.push(ms) } });
  const e = await loadEndpointEmbedder({ connection, model: 'bow', cacheDir: tempDir('sp-ep-', t), countTokens });
  const m = await e.embed(['rate limited text']);
  assertRow(m, 0, unit('rate limited text'));
  assert.deepEqual(waits, [2000, 150]);
  const l = connection.ledgerFile();
  assert.equal(srv.requests.length, 4);
  assert.equal(l.requests, 4);
  assert.equal(l.retries, 2);
  assert.equal(l.failures, 2);
  assert.equal(l.waitedMs, 2150);
});

test('a Retry-After beyond the cap fails at once, naming the endpoint', async (t) => {
  const srv = await startFakeModelServer({ dim: DIM, script: () => ({ status: 429, headers: { 'retry-after': '3600' } }) });
  t.after(() => srv.close());
  const connection = new ModelEndpoint({ endpoint: srv.url, policy: noWait });
  await assert.rejects(loadEndpointEmbedder({ connection, model: 'bow', cacheDir: tempDir('sp-ep-', t), countTokens }), (e: unknown) => {
    assert.ok(isSpanproofError(e) && e.code === 'model');
    assert.match((e as Error).message, /POST \/embeddings at http:\/\/127\.0\.0\.1:\d+\/v1 \(model "bow"\): HTTP 429.*3600 s/);
    return true;
  });
  assert.equal(srv.requests.length, 1);
});

test('timeout: each attempt is cut at timeoutMs, retried, then a clear error', async (t) => {
  const srv = await startFakeModelServer({ dim: DIM, script: () => ({ hang: true }) });
  t.after(() => srv.close());
  const connection = new ModelEndpoint({ endpoint: srv.url, policy: { ...noWait, timeoutMs: 200, retries: 1 } });
  await assert.rejects(loadEndpointEmbedder({ connection, model: 'bow', cacheDir: tempDir('sp-ep-', t), countTokens }), (e: unknown) => {
    assert.ok(isSpanproofError(e) && e.code === 'model');
    assert.match((e as Error).message, /no reply after 2 attempt\(s\) \(no reply within 200 ms\)/);
    assert.match((e as Error).message, /Fix: /);
    return true;
  });
  assert.equal(srv.requests.length, 2);
  assert.equal(connection.ledgerFile().failures, 2);
});

test('cancelling aborts a request in flight (SpanproofError cancelled)', async (t) => {
  const srv = await startFakeModelServer({ dim: DIM, script: (r) => ((r.body.input as string[])[0] === 'slow' ? { hang: true } : undefined) });
  t.after(() => srv.close());
  const ac = new AbortController();
  const e = await loadEndpointEmbedder({ connection: new ModelEndpoint({ endpoint: srv.url }), model: 'bow', cacheDir: tempDir('sp-ep-', t), countTokens, signal: ac.signal });
  setTimeout(() => ac.abort(), 50);
  await assert.rejects(e.embed(['slow']), (err: unknown) => isSpanproofError(err) && err.code === 'cancelled');
});

const MALFORMED: Array<[string, unknown, RegExp]> = [
  ['too few vectors', { data: [{ index: 0, embedding: [1, 0] }] }, /1 embeddings for 2 input texts/],
  ['no data array', { object: 'list' }, /no "data" array/],
  ['base64 string instead of numbers', { data: [{ index: 0, embedding: 'AAAA' }, { index: 1, embedding: 'AAAA' }] }, /not an array of numbers \(base64\?/],
  ['an all-zero vector', { data: [{ index: 0, embedding: [0, 0] }, { index: 1, embedding: [1, 0] }] }, /all zeros for a non-empty text/],
  ['a null in a vector', { data: [{ index: 0, embedding: [null, 1] }, { index: 1, embedding: [1, 0] }] }, /holds null, not a finite number/],
  ['vectors of different lengths', { data: [{ index: 0, embedding: [1, 0] }, { index: 1, embedding: [1, 0, 0] }] }, /has 3 numbers, expected 2/],
  ['a repeated index', { data: [{ index: 0, embedding: [1, 0] }, { index: 0, embedding: [1, 0] }] }, /index is 0 \(expected each of 0…1 once\)/],
];

for (const [name, json, message] of MALFORMED) {
  test(`malformed reply (${name}): error names the endpoint and the fix, not retried, nothing cached`, async (t) => {
    // The server's own vectors have 2 numbers, like the scripted ones.
    const srv = await startFakeModelServer({ dim: 2, script: (r) => ((r.body.input as string[]).length === 2 ? { json } : undefined) });
    t.after(() => srv.close());
    const cacheDir = tempDir('sp-ep-', t);
    const e = await loadEndpointEmbedder({ connection: new ModelEndpoint({ endpoint: srv.url }), model: 'bow', cacheDir, countTokens });
    await assert.rejects(e.embed(['one text', 'two text']), (err: unknown) => {
      assert.ok(isSpanproofError(err) && err.code === 'model', String(err));
      assert.match((err as Error).message, /POST \/embeddings at http:\/\/127\.0\.0\.1:\d+\/v1 \(model "bow"\): the reply is not understood/);
      assert.match((err as Error).message, message);
      assert.match((err as Error).message, /Fix: check that the endpoint speaks the API shape/);
      return true;
    });
    assert.equal(srv.requests.length, 2, 'probe + one attempt');
    // Nothing of the bad batch was cached: a repaired server is asked again.
    const again = await loadEndpointEmbedder({ connection: new ModelEndpoint({ endpoint: srv.url }), model: 'bow', cacheDir, countTokens });
    await again.embed(['one text']);
    assert.equal(srv.requests.length, 3);
  });
}

test('a body that is not JSON, 401, 404 and an unreachable endpoint: clear errors with their fix', async (t) => {
  const srv = await startFakeModelServer({
    dim: DIM,
    script: (r) => {
      const first = (r.body.input as string[])[0];
      if (first === 'html') return { status: 200, headers: { 'content-type': 'application/json' }, body: '<html>proxy login</html>' };
      if (first === 'key') return { status: 401 };
      if (first === 'route') return { status: 404 };
      return undefined;
    },
  });
  t.after(() => srv.close());
  const e = await loadEndpointEmbedder({ connection: new ModelEndpoint({ endpoint: srv.url, policy: noWait }), model: 'bow', cacheDir: tempDir('sp-ep-', t), countTokens });
  await assert.rejects(e.embed(['html']), /not understood/);
  await assert.rejects(e.embed(['key']), /HTTP 401.*Fix: check the API key: SPANPROOF_API_KEY/);
  await assert.rejects(e.embed(['route']), /HTTP 404.*Fix: check the model name and the base URL/);

  const closed = await startFakeModelServer();
  const url = closed.url;
  await closed.close();
  const connection = new ModelEndpoint({ endpoint: url, policy: { ...noWait, retries: 1 } });
  await assert.rejects(loadEndpointEmbedder({ connection, model: 'bow', cacheDir: tempDir('sp-ep-', t), countTokens }), /cannot reach the endpoint \(connection failed: ECONNREFUSED after 2 attempt\(s\)\).*Fix: check that the server is running/);
});

test('a URL with user:password@ is refused, and never shown with them', () => {
  assert.throws(() => new ModelEndpoint({ endpoint: 'https://me:secret@example.com/v1' }), (e: unknown) => {
    assert.ok(isSpanproofError(e) && e.code === 'bad-input');
    assert.doesNotMatch((e as Error).message, /secret/);
    assert.match((e as Error).message, /https:\/\/example\.com\/v1 carries a user name or password/);
    return true;
  });
  assert.throws(() => new ModelEndpoint({ endpoint: 'ftp://example.com' }), /not http or https/);
  assert.throws(() => new ModelEndpoint({ endpoint: '' }), /needs an endpoint/);
});

test('an edited or damaged cached value is not used: asked again, the file rewritten without it, one notice; a version-1 file is read and upgraded', async (t) => {
  const srv = await startFakeModelServer({ dim: DIM });
  t.after(() => srv.close());
  const cacheDir = tempDir('sp-ep-', t);
  const open = () => loadEndpointEmbedder({ connection: new ModelEndpoint({ endpoint: srv.url }), model: 'bow', cacheDir, batchSize: 100, countTokens });
  const e = await open();
  await e.embed(TEXTS.slice(0, 3));
  assert.equal(e.takeCacheNotice?.(), null);
  const dir = join(cacheDir, 'endpoint-models');
  const file = join(dir, readdirSync(dir)[0]);
  const raw = readFileSync(file);
  const body = raw.indexOf(0x0a) + 1;
  assert.equal(JSON.parse(raw.subarray(0, body).toString()).version, 2);
  const rec = 32 + 4 * DIM + 8;
  assert.equal((raw.length - body) % rec, 0);
  // the value of the third record (the probe, TEXTS[0], then TEXTS[1]) edited: one float changed
  const edited = Buffer.from(raw);
  edited.writeFloatLE(0.5, body + 2 * rec + 32);
  writeFileSync(file, edited);
  const sent = srv.requests.length;
  const again = await open();
  assert.equal(again.takeCacheNotice?.(), `the endpoint cache ${file} was edited or damaged (1 of its 4 values do not match their checksum — changed after Spanproof wrote them); those are asked again.`);
  const m = await again.embed(TEXTS.slice(0, 3));
  assert.equal(srv.requests.length, sent + 1);
  assert.deepEqual(srv.requests.at(-1)!.body.input, [TEXTS[1]]);
  assertRow(m, 1, unit(TEXTS[1]));
  const third = await open();
  assert.equal(third.takeCacheNotice?.(), null, 'rewritten without the bad record');
  await third.embed(TEXTS.slice(0, 3));
  assert.equal(srv.requests.length, sent + 1);

  // version 1 (before the checks): its records are used, and the file is rewritten as version 2
  const v2 = readFileSync(file);
  const header = JSON.parse(v2.subarray(0, v2.indexOf(0x0a)).toString());
  const records: Buffer[] = [];
  for (let at = v2.indexOf(0x0a) + 1; at < v2.length; at += rec) records.push(v2.subarray(at, at + rec - 8));
  writeFileSync(file, Buffer.concat([Buffer.from(JSON.stringify({ ...header, version: 1 }) + '\n'), ...records]));
  const fromV1 = await open();
  assert.equal(fromV1.takeCacheNotice?.(), null);
  await fromV1.embed(TEXTS.slice(0, 3));
  assert.equal(srv.requests.length, sent + 1, 'version-1 values used');
  assert.deepEqual(readFileSync(file), v2, 'rewritten as version 2, byte for byte');
});
