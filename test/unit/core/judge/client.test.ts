/**
 * The endpoint client and the judges against a fake OpenAI-compatible server on 127.0.0.1 (./fakeServer):
 * retries honouring Retry-After, timeouts, malformed JSON with one repair, JSON inside prose, refusal,
 * fatal 401, the cache, the concurrency limit and the ledger against the server's own request count.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatClient, RequestFailure, ReplyCache, RequestLimiter, judgeAnswer, generateAndJudge, type GenerationItem } from '../../../../src/core/judge';
import { startFakeServer, type FakeRequest, type Scripted } from '../../../helpers/fakeServer';
import { tempDir } from '../../../helpers/tmp';
import { VERSION } from '../../../../src/core/version';

const MSG = [{ role: 'user' as const, content: 'hello' }];

function recorder() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

test('429 with Retry-After: the client waits what the server asks, then succeeds; ledger = server count', async () => {
  const srv = await startFakeServer({ script: (r): Scripted => (r.n === 1 ? { status: 429, headers: { 'retry-after': '2' } } : r.n === 2 ? { status: 503, headers: { 'retry-after-ms': '150' } } : r.n === 3 ? { status: 500 } : { content: 'fine' }) });
  try {
    const rec = recorder();
    const c = new ChatClient({ endpoint: srv.url, retries: 3, sleep: rec.sleep });
    const r = await c.chat({ model: 'm', messages: MSG, promptVersion: 'p' });
    assert.equal(r.content, 'fine');
    // 2 s from Retry-After, 150 ms from retry-after-ms, then the exponential backoff 500·2² for the bare 500.
    assert.deepEqual(rec.waits, [2000, 150, 2000]);
    const l = c.ledger.snapshot({ status: 'succeeded', items: { done: 1, total: 1 }, sameModel: false });
    assert.equal(srv.requests.length, 4);
    assert.equal(l.requests, 4);
    assert.equal(l.retries, 3);
    assert.equal(l.failures, 3);
    assert.equal(l.waitedMs, 4150);
    assert.equal(l.byModel.m.promptTokens, 10);
  } finally {
    await srv.close();
  }
});

test('retries exhausted → RequestFailure; a Retry-After beyond the cap fails at once; 401 is fatal without retry', async () => {
  const srv = await startFakeServer({ script: (r) => (r.messages[0].content === 'long' ? { status: 429, headers: { 'retry-after': '3600' } } : r.messages[0].content === 'key' ? { status: 401 } : { status: 502 }) });
  try {
    const rec = recorder();
    const c = new ChatClient({ endpoint: srv.url, retries: 2, sleep: rec.sleep });
    await assert.rejects(c.chat({ model: 'm', messages: MSG, promptVersion: 'p' }), (e: unknown) => e instanceof RequestFailure && e.kind === 'http' && e.status === 502);
    assert.equal(srv.requests.length, 3, 'first attempt + 2 retries');
    await assert.rejects(c.chat({ model: 'm', messages: [{ role: 'user', content: 'long' }], promptVersion: 'p' }), /3600 s/);
    assert.equal(srv.requests.length, 4, 'no retry when the server asks for more than the cap');
    await assert.rejects(c.chat({ model: 'm', messages: [{ role: 'user', content: 'key' }], promptVersion: 'p' }), (e: unknown) => e instanceof RequestFailure && e.kind === 'fatal' && /API key/.test(e.message));
    assert.equal(srv.requests.length, 5);
    assert.equal(c.ledger.snapshot({ status: 'failed', items: { done: 0, total: 0 }, sameModel: false }).requests, 5);
  } finally {
    await srv.close();
  }
});

const INPUT = { question: 'What is the default port?', answer: 'The default port is 8000. It listens on all interfaces.', contexts: [{ source: 'a.md', text: 'The default port is 8000.' }], reference: 'The default port is 8000.' };

test('timeout → unmeasured with the reason (never 0); other metrics of the item still measured', async () => {
  const srv = await startFakeServer({ script: (r) => (r.kind === 'scale' && r.messages[0].content.includes('fluency') ? { hang: true } : undefined) });
  try {
    const c = new ChatClient({ endpoint: srv.url, retries: 1, timeoutMs: 300, sleep: async () => {} });
    const j = await judgeAnswer(INPUT, { client: c, judgeModel: 'judge' }, ['fluency', 'coherence', 'faithfulness']);
    assert.deepEqual(j.fluency, { unmeasured: true, reason: 'no judge reply: no reply within 300 ms' });
    assert.deepEqual(j.coherence, { score: 4, reason: 'canned grade' });
    assert.equal((j.faithfulness as { score: number }).score, 0.5, '1 of 2 claims is in the context');
    assert.equal(srv.requests.filter((r) => r.kind === 'scale' && r.messages[0].content.includes('fluency')).length, 2, 'timed-out request retried once');
  } finally {
    await srv.close();
  }
});

test('malformed JSON: one repair attempt; still malformed → unmeasured; JSON inside prose needs no repair', async () => {
  let firstScale = true;
  const srv = await startFakeServer({
    script: (r: FakeRequest) => {
      const sys = r.messages[0].content;
      if ((r.kind === 'scale' || r.kind === 'repair') && sys.includes('coherence')) return { content: 'I think it is a 4 out of 5.' }; // never JSON, repair too
      if (r.kind === 'scale' && sys.includes('addresses the question') && firstScale) {
        firstScale = false;
        return { content: '{"score": 4, "reason": ' }; // truncated; the repair gets the canned reply
      }
      if (r.kind === 'scale' && sys.includes('fluency')) return { content: 'Sure, here you go:\n```json\n{"score": 5, "reason": "clean"}\n```' };
      if (r.kind === 'boolean') return { content: 'Verdict follows. {"correct": false, "reason": "misses it"} Hope that helps.' };
      return undefined;
    },
  });
  try {
    const c = new ChatClient({ endpoint: srv.url });
    const j = await judgeAnswer(INPUT, { client: c, judgeModel: 'judge' }, ['coherence', 'relevance', 'fluency', 'booleanCorrectness']);
    assert.deepEqual(j.coherence, { unmeasured: true, reason: 'unreadable judge reply after one repair attempt (no JSON object found in the reply)' });
    assert.deepEqual(j.relevance, { score: 4, reason: 'canned grade' });
    assert.deepEqual(j.fluency, { score: 5, reason: 'clean' });
    assert.deepEqual(j.booleanCorrectness, { score: 0, reason: 'misses it' });
    const count = (k: string) => srv.requests.filter((r) => r.messages[0].content.includes(k)).length;
    assert.equal(count('coherence'), 2, 'original + exactly one repair');
    assert.equal(count('addresses the question'), 2, 'truncated JSON, then the repair succeeds');
    assert.equal(count('fluency'), 1);
    assert.equal(srv.requests.filter((r) => r.kind === 'repair').length, 2);
  } finally {
    await srv.close();
  }
});

test('verdicts missing a claim are repaired; a refusal is unmeasured; no reference → reference metrics unmeasured without a request', async () => {
  let verifyCalls = 0;
  const srv = await startFakeServer({
    script: (r) => {
      if (r.kind === 'verify' && verifyCalls++ === 0) return { content: '{"verdicts": [{"index": 1, "supported": true, "reason": "x"}]}' };
      return undefined;
    },
  });
  try {
    const c = new ChatClient({ endpoint: srv.url });
    const j = await judgeAnswer({ ...INPUT, reference: undefined }, { client: c, judgeModel: 'judge' }, ['faithfulness', 'similarity', 'answerCorrectness', 'booleanCorrectness']);
    assert.equal((j.faithfulness as { score: number }).score, 0.5);
    assert.equal(srv.requests.filter((r) => r.kind === 'repair').length, 1);
    for (const m of ['similarity', 'answerCorrectness', 'booleanCorrectness'] as const) assert.deepEqual(j[m], { unmeasured: true, reason: 'no reference answer for this question in the ground truth' });
    assert.equal(srv.requests.length, 3, 'claims + verify + repair; nothing for the reference metrics');
  } finally {
    await srv.close();
  }
  const srv2 = await startFakeServer();
  try {
    // A refusal field in the message (OpenAI structured refusal).
    const c = new ChatClient({ endpoint: srv2.url });
    const orig = c.chat.bind(c);
    c.chat = async (req, s) => ({ ...(await orig(req, s)), refusal: 'I cannot help with that.' });
    const j = await judgeAnswer(INPUT, { client: c, judgeModel: 'judge' }, ['relevance']);
    assert.deepEqual(j.relevance, { unmeasured: true, reason: 'the judge refused: I cannot help with that.' });
  } finally {
    await srv2.close();
  }
});

test('answer correctness and faithfulness computed from claim verdicts (hand calculation)', async () => {
  const srv = await startFakeServer();
  try {
    const c = new ChatClient({ endpoint: srv.url });
    const j = await judgeAnswer(INPUT, { client: c, judgeModel: 'judge' }, ['faithfulness', 'answerCorrectness']);
    // Answer claims: "The default port is 8000." (in context and reference), "It listens on all interfaces." (in neither).
    assert.equal((j.faithfulness as { score: number }).score, 0.5);
    const ac = j.answerCorrectness as { score: number; tp: number; fp: number; fn: number };
    assert.deepEqual([ac.tp, ac.fp, ac.fn], [1, 1, 0]);
    assert.ok(Math.abs(ac.score - 1.625 / 2.125) < 1e-12, 'P 0.5, R 1, β 1.5');
    // One extraction of the answer shared by both metrics, one of the reference; three verifications, of
    // which two are identical here (context = reference: answer claims against the same premise), so
    // single flight sends them once.
    assert.equal(srv.requests.filter((r) => r.kind === 'claims').length, 2);
    assert.equal(srv.requests.filter((r) => r.kind === 'verify').length, 2);
    assert.equal(new Set(srv.requests.map((r) => JSON.stringify(r.body))).size, srv.requests.length);
  } finally {
    await srv.close();
  }
});

test('disk cache: a repeated call sends no request; key includes endpoint, model and prompt version', async () => {
  const srv = await startFakeServer();
  try {
    const cache = new ReplyCache(tempDir('spanproof-judge-cache-'));
    const c1 = new ChatClient({ endpoint: srv.url, cache });
    await c1.chat({ model: 'm', messages: MSG, promptVersion: 'p@1' });
    const c2 = new ChatClient({ endpoint: srv.url, cache });
    const r = await c2.chat({ model: 'm', messages: MSG, promptVersion: 'p@1' });
    assert.equal(r.cached, true);
    assert.equal(srv.requests.length, 1);
    await c2.chat({ model: 'm2', messages: MSG, promptVersion: 'p@1' });
    await c2.chat({ model: 'm', messages: MSG, promptVersion: 'p@2' });
    await c2.chat({ model: 'm', messages: MSG, promptVersion: 'p@1', bypassCache: true });
    assert.equal(srv.requests.length, 4);
    const l = c2.ledger.snapshot({ status: 'succeeded', items: { done: 0, total: 0 }, sameModel: false });
    assert.equal(l.requests, 3);
    assert.equal(l.cachedResponses, 1);
  } finally {
    await srv.close();
  }
});

test('concurrency limit respected: the server never sees more requests in flight than the setting', async () => {
  const srv = await startFakeServer({ delayMs: 15, answers: { 'Q?': 'A.' } });
  try {
    const c = new ChatClient({ endpoint: srv.url, concurrency: 3 });
    const items: GenerationItem[] = Array.from({ length: 8 }, (_, i) => ({ question: `q${i}`, questionText: 'Q?', reference: 'A.', config: 'c', contexts: [{ source: 's', start: 0, end: 2, text: `A. ${i}` }], coverage: 1 }));
    const res = await generateAndJudge(items, { client: c, generatorModel: 'gen', judgeModel: 'judge', metrics: ['relevance', 'faithfulness', 'booleanCorrectness'] });
    assert.equal(res.status, 'succeeded');
    assert.equal(res.records.length, 8);
    assert.equal(srv.maxInFlight, 3);
    assert.equal(c.ledger.snapshot({ status: 'succeeded', items: { done: 8, total: 8 }, sameModel: false }).requests, srv.requests.length);
  } finally {
    await srv.close();
  }
});

test('what is sent: the key as a Bearer token, the chat body, and no platform headers (OS, CPU, Node version)', async () => {
  const srv = await startFakeServer();
  try {
    await new ChatClient({ endpoint: srv.url, apiKey: 'sk-test-key' }).chat({ model: 'm', messages: MSG, promptVersion: 'p' });
    const h = srv.requests[0].headers!;
    assert.equal(h.authorization, 'Bearer sk-test-key');
    for (const name of Object.keys(h)) assert.ok(!name.startsWith('x-stainless'), `${name} is not sent`);
    assert.equal(h['user-agent'], `spanproof/${VERSION}`);
    assert.deepEqual(srv.requests[0].messages, MSG);
  } finally {
    await srv.close();
  }
});

test('requests-per-minute spacing: starts 60000/rpm ms apart (injected clock)', async () => {
  const waits: number[] = [];
  const lim = new RequestLimiter(8, 60, { now: () => 0, sleep: async (ms) => void waits.push(ms) });
  for (let i = 0; i < 3; i++) (await lim.acquire())();
  assert.deepEqual(waits, [1000, 2000], 'first at once, then 1 s and 2 s after the clock start');
});

test('a model that rejects max_tokens / temperature (OpenAI reasoning models) is adapted once and asked again', async () => {
  const srv = await startFakeServer({
    script: (r) => {
      if (r.body && 'max_tokens' in r.body) return { status: 400, body: JSON.stringify({ error: { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", type: 'invalid_request_error' } }) };
      if (r.body && r.body.temperature === 0) return { status: 400, body: JSON.stringify({ error: { message: "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.", type: 'invalid_request_error' } }) };
      return { content: 'ok' };
    },
  });
  try {
    const c = new ChatClient({ endpoint: srv.url, retries: 0 });
    const r = await c.chat({ model: 'o-model', messages: MSG, promptVersion: 'p', maxTokens: 64 });
    assert.equal(r.content, 'ok');
    assert.equal(srv.requests.length, 3);
    assert.equal(srv.requests[2].body!.max_completion_tokens, 64);
    assert.equal('temperature' in srv.requests[2].body!, false);
    await c.chat({ model: 'o-model', messages: [{ role: 'user', content: 'again' }], promptVersion: 'p', maxTokens: 64 });
    assert.equal(srv.requests.length, 4, 'learnt once per model');
    assert.equal(c.ledger.snapshot({ status: 'succeeded', items: { done: 0, total: 0 }, sameModel: false }).requests, 4);
  } finally {
    await srv.close();
  }
});

test('a 200 reply whose body is not JSON, or has no choice, is retried and never cached', async () => {
  const srv = await startFakeServer({ script: (r) => (r.n === 1 ? { status: 200, body: '{"choices": [' } : r.n === 2 ? { status: 200, body: '{"object":"chat.completion","choices":[]}' } : { content: 'fine' }) });
  try {
    const cache = new ReplyCache(tempDir('spanproof-judge-empty-'));
    const c = new ChatClient({ endpoint: srv.url, retries: 2, sleep: async () => {}, cache });
    assert.equal((await c.chat({ model: 'm', messages: MSG, promptVersion: 'p' })).content, 'fine');
    assert.equal(srv.requests.length, 3);
    const srv2 = await startFakeServer({ script: () => ({ status: 200, body: 'not json' }) });
    try {
      await assert.rejects(new ChatClient({ endpoint: srv2.url, retries: 0 }).chat({ model: 'm', messages: MSG, promptVersion: 'p' }), (e: unknown) => e instanceof RequestFailure && e.kind === 'http' && /not valid JSON/.test(e.message));
    } finally {
      await srv2.close();
    }
  } finally {
    await srv.close();
  }
});
