/**
 * core/net, the HTTP rules of every network feature, against real servers on 127.0.0.1 started here
 * (test/helpers/hostileServer) and, where a real server cannot show it (https → http), an injected
 * underlying fetch: redirects, credential headers, URL credentials, the size cap in streaming mode,
 * the whole-response deadline, JSON requests with Retry-After retries, and redaction.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HttpClient, NetError, createFetch, formatBytes, redactText, redactUrl } from '../../../../src/core/net';
import { endless, redirect, reply, startHostileServer, trickle } from '../../../helpers/hostileServer';

test('redactUrl / redactText: user:pass@, key-like query values, Bearer tokens, sk- keys and named secrets become ***', () => {
  assert.equal(redactUrl('https://alice:s3cret@api.example.com/v1'), 'https://***@api.example.com/v1');
  assert.equal(redactUrl('https://x.openai.azure.com/openai/v1?api-key=abc123&x=1'), 'https://x.openai.azure.com/openai/v1?api-key=***&x=1');
  assert.equal(redactUrl('http://localhost:11434/v1'), 'http://localhost:11434/v1', 'nothing to redact: unchanged');
  assert.equal(redactText('cannot reach http://bob:hunter22@10.0.0.1:8000/v1 (ECONNREFUSED)'), 'cannot reach http://***@10.0.0.1:8000/v1 (ECONNREFUSED)');
  assert.equal(redactText('Authorization: Bearer abcdefghijklmnop'), 'Authorization: Bearer ***');
  assert.equal(redactText('invalid key sk-proj-ABCDEFGHIJKLMNOP given'), 'invalid key sk-*** given');
  assert.equal(redactText('echo: my-own-key-1234', ['my-own-key-1234']), 'echo: ***');
  assert.equal(formatBytes(1_000_000), '1 MB');
  assert.equal(formatBytes(2000), '2 kB');
});

test('createFetch: a URL with credentials is refused, redacted, before anything is sent', async () => {
  const f = createFetch({ fetch: async () => assert.fail('sent') });
  await assert.rejects(f('http://u:topsecret@127.0.0.1:9/x'), (e: unknown) => e instanceof NetError && e.kind === 'bad-url' && !e.message.includes('topsecret'));
});

test('createFetch strip-credentials (downloads): follows another origin without Authorization / api-key / Cookie; https → http refused', { timeout: 20000 }, async () => {
  const cdn = await startHostileServer((_q, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end('weights');
  });
  const hub = await startHostileServer(redirect(302, `${cdn.origin}/blob`));
  try {
    const f = createFetch({ redirects: 'strip-credentials' });
    const res = await f(`${hub.origin}/model.onnx`, { headers: { authorization: 'Bearer hf_abcdefgh', 'api-key': 'k', cookie: 'c=1', 'x-keep': 'yes' } });
    assert.equal(await res.text(), 'weights');
    assert.equal(hub.requests[0].headers.authorization, 'Bearer hf_abcdefgh', 'the origin itself gets the key');
    const h = cdn.requests[0].headers;
    assert.equal(h.authorization, undefined);
    assert.equal(h['api-key'], undefined);
    assert.equal(h.cookie, undefined);
    assert.equal(h['x-keep'], 'yes');
    assert.match(String(h['user-agent']), /^spanproof\//);
  } finally {
    await hub.close();
    await cdn.close();
  }
  const fake = createFetch({ redirects: 'strip-credentials', fetch: (async () => new Response(null, { status: 307, headers: { location: 'http://plain.example/x' } })) as typeof fetch });
  await assert.rejects(fake('https://secure.example/x'), (e: unknown) => e instanceof NetError && e.kind === 'redirect' && /https to http/.test(e.message));
});

test('createFetch stream mode: the cap and the deadline hold while the body is read', { timeout: 20000 }, async () => {
  const big = await startHostileServer(endless());
  const slow = await startHostileServer(trickle('x'.repeat(400), 20));
  try {
    const res = await createFetch({ stream: true, maxResponseBytes: 200_000 })(big.origin);
    await assert.rejects(res.arrayBuffer(), (e: unknown) => e instanceof NetError && e.kind === 'too-large' && /200 kB/.test(e.message));
    const res2 = await createFetch({ stream: true, timeoutMs: 300 })(slow.origin);
    await assert.rejects(res2.text(), (e: unknown) => e instanceof NetError && e.kind === 'deadline');
  } finally {
    await big.close();
    await slow.close();
  }
});

test('createFetch idleTimeoutMs (downloads): a slow but steady body passes without a total deadline; a stalled one is cut', { timeout: 20000 }, async () => {
  const steady = await startHostileServer(trickle('x'.repeat(30), 40)); // 1.2 s in all, a byte every 40 ms
  const stalled = await startHostileServer((_q, res) => {
    res.writeHead(200);
    res.write('first bytes');
    // then nothing: the connection stays open
  });
  try {
    const res = await createFetch({ stream: true, timeoutMs: 0, idleTimeoutMs: 400 })(steady.origin);
    assert.equal((await res.text()).length, 30);
    const res2 = await createFetch({ stream: true, timeoutMs: 0, idleTimeoutMs: 300 })(stalled.origin);
    await assert.rejects(res2.text(), (e: unknown) => e instanceof NetError && e.kind === 'deadline' && /no data .* for 300 ms/.test(e.message));
  } finally {
    await steady.close();
    await stalled.close();
  }
});

test('HttpClient: JSON POST retried on 429 with Retry-After; a 400 fails at once with its body, secrets redacted', { timeout: 20000 }, async () => {
  let n = 0;
  const srv = await startHostileServer((req, res, body) => {
    n++;
    if (req.url === '/bad') {
      res.writeHead(400, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: `bad request, your key was Bearer tok-1234567890` }));
    }
    if (n === 1) {
      res.writeHead(429, { 'retry-after': '2' });
      return res.end('slow down');
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ echo: JSON.parse(body) }));
  });
  try {
    const waits: number[] = [];
    const c = new HttpClient({ headers: { authorization: 'Bearer tok-1234567890' }, retries: 2, sleep: async (ms) => void waits.push(ms) });
    const r = await c.postJson<{ echo: { q: string } }>(`${srv.origin}/rerank`, { q: 'hello' });
    assert.deepEqual(r.json, { echo: { q: 'hello' } });
    assert.deepEqual(waits, [2000], 'waited what Retry-After asked');
    assert.equal(srv.requests[1].headers['content-type'], 'application/json');
    await assert.rejects(c.postJson(`${srv.origin}/bad`, {}), (e: unknown) => e instanceof NetError && e.kind === 'http' && e.status === 400 && /bad request/.test(e.message) && !e.message.includes('tok-1234567890'));
    assert.equal(srv.requests.filter((x) => x.url === '/bad').length, 1, 'a 400 is not retried');
  } finally {
    await srv.close();
  }
});

test('HttpClient: a cross-origin redirect of a JSON API call is refused and not retried', { timeout: 20000 }, async () => {
  const other = await startHostileServer(reply('x'));
  const srv = await startHostileServer(redirect(308, `${other.origin}/steal`));
  try {
    const c = new HttpClient({ headers: { authorization: 'Bearer t' }, retries: 3, sleep: async () => {} });
    await assert.rejects(c.postJson(`${srv.origin}/v1/rerank`, { documents: ['secret passage'] }), (e: unknown) => e instanceof NetError && e.kind === 'redirect');
    assert.equal(other.requests.length, 0);
    assert.equal(srv.requests.length, 1);
  } finally {
    await srv.close();
    await other.close();
  }
});
