/**
 * The judge client against hostile local servers (#16 items 3, 11, 12): a body that trickles past the
 * deadline, an endless body, a cross-origin redirect carrying the prompts, a quadratic-bait reply, and
 * an endpoint with user:pass@ (item 5).
 * Every server is a real node:http server on 127.0.0.1 started by the test (test/helpers/hostileServer).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatClient, RequestFailure } from '../../../../src/core/judge';
import { chatReply, endless, redirect, reply, startHostileServer, trickle } from '../../../helpers/hostileServer';
import { runBounded } from '../../../helpers/bounded';

const MSG = [{ role: 'user' as const, content: 'PASSAGE: the secret contract text' }];

test('item 11: a body trickling 1 byte / 50 ms is cut at the whole-response deadline (headers came at once)', { timeout: 20000 }, async () => {
  const srv = await startHostileServer(trickle(chatReply('fine'), 50)); // ~230 bytes → ~12 s if read to the end
  try {
    const c = new ChatClient({ endpoint: `${srv.origin}/v1`, retries: 0, timeoutMs: 400 });
    const t0 = Date.now();
    await assert.rejects(c.chat({ model: 'm', messages: MSG, promptVersion: 'p' }), (e: unknown) => e instanceof RequestFailure && e.kind === 'timeout' && /400 ms/.test(e.message));
    assert.ok(Date.now() - t0 < 8000, 'stopped at the deadline, not when the body ended');
  } finally {
    await srv.close();
  }
});

test('item 11: an endless body is aborted past the size cap (default 1 MB) and not retried', { timeout: 30000 }, async () => {
  const srv = await startHostileServer(endless());
  try {
    const c = new ChatClient({ endpoint: `${srv.origin}/v1`, retries: 1, timeoutMs: 20000, sleep: async () => {} });
    await assert.rejects(c.chat({ model: 'm', messages: MSG, promptVersion: 'p' }), (e: unknown) => e instanceof RequestFailure && /larger than 1 MB/.test(e.message));
    assert.equal(srv.requests.length, 1, 'a too-large reply is not retried (the same request would get the same reply)');
    // Socket buffers hold a few MB at most; reading to 3.2 GB (the bug) is far beyond this.
    assert.ok(srv.bytesSent < 64 * 1024 * 1024, `server sent ${srv.bytesSent} bytes`);
  } finally {
    await srv.close();
  }
});

test('item 11: the cap is configurable (maxResponseBytes)', { timeout: 20000 }, async () => {
  const srv = await startHostileServer(reply('x'.repeat(5000)));
  try {
    const small = new ChatClient({ endpoint: `${srv.origin}/v1`, retries: 0, maxResponseBytes: 2000 });
    await assert.rejects(small.chat({ model: 'm', messages: MSG, promptVersion: 'p' }), /larger than 2 kB/);
    const big = new ChatClient({ endpoint: `${srv.origin}/v1`, retries: 0 });
    assert.equal((await big.chat({ model: 'm', messages: MSG, promptVersion: 'p' })).content.length, 5000);
  } finally {
    await srv.close();
  }
});

test('item 3: a cross-origin 307 is not followed — the other origin never receives the prompts or the key', { timeout: 20000 }, async () => {
  const thief = await startHostileServer(reply('stolen'));
  const api = await startHostileServer(redirect(307, `${thief.origin}/v1/chat/completions`));
  try {
    const c = new ChatClient({ endpoint: `${api.origin}/v1`, apiKey: 'sk-test-secret-key', retries: 2, sleep: async () => {} });
    await assert.rejects(c.chat({ model: 'm', messages: MSG, promptVersion: 'p' }), (e: unknown) => e instanceof RequestFailure && e.kind === 'fatal' && /redirect/.test(e.message) && e.message.includes(thief.origin));
    // The fix is a Fix: of its own (CLI: "Fix: …" line), not "Check --endpoint" run into the message.
    const e = await c.chat({ model: 'm', messages: MSG, promptVersion: 'p' }).then(() => assert.fail('resolved'), (x: unknown) => x as RequestFailure);
    assert.doesNotMatch(e.message, /Check --endpoint/);
    assert.match(e.fix ?? '', /--endpoint/);
    assert.equal(thief.requests.length, 0, 'nothing reached the redirect target');
    assert.equal(api.requests.length, 1, 'a refused redirect is not retried');
  } finally {
    await api.close();
    await thief.close();
  }
});

test('item 3: a same-origin redirect is followed with the key (an API moved its path)', { timeout: 20000 }, async () => {
  let n = 0;
  const srv = await startHostileServer((req, res, body) => {
    if (n++ === 0) return redirect(307, '/v2/chat/completions')(req, res, body);
    reply('moved fine')(req, res, body);
  });
  try {
    const c = new ChatClient({ endpoint: `${srv.origin}/v1`, apiKey: 'k1', retries: 0 });
    assert.equal((await c.chat({ model: 'm', messages: MSG, promptVersion: 'p' })).content, 'moved fine');
    assert.equal(srv.requests[1].url, '/v2/chat/completions');
    assert.equal(srv.requests[1].headers.authorization, 'Bearer k1');
    assert.match(srv.requests[1].body, /secret contract/);
  } finally {
    await srv.close();
  }
});

test('item 12: the judge-reply parser is linear — 300 KB of "{" (and of "<think>", "```") finishes', () => {
  const script = `
    const { extractJson } = require('./src/core/judge/parse');
    const out = [extractJson('{'.repeat(300000)), extractJson('<think>'.repeat(50000)), extractJson('\`\`\`'.repeat(100000)), extractJson('{"a":'.repeat(60000) + '1'), extractJson('x' + '<think>'.repeat(50000)), extractJson('x<think></think>'.repeat(20000) + '<reasoning>'.repeat(20000))];
    console.log(JSON.stringify(out.map((x) => x === undefined ? null : x)));
  `;
  // Liveness bound: the quadratic scan needs minutes on 300 KB; a linear one milliseconds.
  const r = runBounded(script, 20000);
  assert.equal(r.timedOut, false, 'the parser did not finish within the liveness bound');
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), [null, null, null, null, null, null]);
});

test('item 5: user:pass@ in the endpoint is sent as Basic auth, never in the URL, and redacted in the ledger and messages', { timeout: 20000 }, async () => {
  const srv = await startHostileServer(reply('ok'));
  try {
    const endpoint = `${srv.origin.replace('http://', 'http://alice:s3cret@')}/v1`;
    const c = new ChatClient({ endpoint, retries: 0 });
    assert.equal((await c.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }], promptVersion: 'p' })).content, 'ok');
    assert.equal(srv.requests[0].headers.authorization, `Basic ${Buffer.from('alice:s3cret').toString('base64')}`);
    const ledger = JSON.stringify(c.ledger.snapshot({ status: 'succeeded', items: { done: 1, total: 1 }, sameModel: false }));
    assert.ok(!ledger.includes('s3cret'), ledger);
    assert.ok(ledger.includes('***@127.0.0.1'), 'the endpoint stays recognisable');
  } finally {
    await srv.close();
  }
  // Unreachable: the fatal message names the endpoint without its password.
  const closed = await startHostileServer(reply('x'));
  await closed.close();
  const c = new ChatClient({ endpoint: `${closed.origin.replace('http://', 'http://alice:s3cret@')}/v1`, retries: 0 });
  await assert.rejects(c.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }], promptVersion: 'p' }), (e: unknown) => e instanceof Error && /cannot reach the endpoint http:\/\/\*\*\*@127\.0\.0\.1/.test(e.message) && !e.message.includes('s3cret'));
});

test('an endpoint with a query string (?api_key=…): the route goes before the query on every request; the ledger and messages show the key redacted', { timeout: 20000 }, async () => {
  const srv = await startHostileServer(reply('ok'));
  try {
    const c = new ChatClient({ endpoint: `${srv.origin}/ok/v1?api_key=Q123&tenant=t1`, retries: 0 });
    assert.equal((await c.chat({ model: 'm', messages: MSG, promptVersion: 'p' })).content, 'ok');
    assert.equal(srv.requests[0].url, '/ok/v1/chat/completions?api_key=Q123&tenant=t1', 'the request line: path, then the query');
    const ledger = JSON.stringify(c.ledger.snapshot({ status: 'succeeded', items: { done: 1, total: 1 }, sameModel: false }));
    assert.ok(!ledger.includes('Q123'), ledger);
    assert.ok(ledger.includes('api_key=***&tenant=t1'), ledger);
  } finally {
    await srv.close();
  }
});
