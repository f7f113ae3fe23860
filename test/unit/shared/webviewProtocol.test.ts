/**
 * The results panel's request dispatch (src/shared/protocol.ts `dispatchWebviewRequest`): a handler's
 * result goes back under the request's seq and method, a thrown error becomes an `ok: false` response
 * with its code, an unknown method is refused, and a handler table missing a method does not compile.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dispatchWebviewRequest, isHostToWebview, isWebviewToHost, type WebviewHandlers, type WebviewRequest } from '../../../src/shared/protocol';
import { SpanproofError } from '../../../src/core/errors';

const calls: string[] = [];
const handlers: WebviewHandlers = {
  listRuns: () => [],
  loadRun: () => {
    throw new SpanproofError('not-found', 'not a Spanproof run directory (no run.json).');
  },
  loadAnswers: () => null,
  readSpan: ({ source, start, end }) => ({ text: `${source}:${start}-${end}` }),
  revealSpan: async (p) => {
    calls.push(`reveal ${p.source}`);
    return null;
  },
  runEvaluation: () => null,
  cancelEvaluation: () => null,
  exportReport: () => {
    throw 'a string, not an Error';
  },
  biasStudy: () => {
    throw new Error('no chunks kept');
  },
};

test('a handler result comes back under the request seq and method', async () => {
  const r = await dispatchWebviewRequest(handlers, { type: 'request', seq: 7, method: 'readSpan', params: { source: 'a.md', start: 1, end: 4 } });
  assert.deepEqual(r, { type: 'response', seq: 7, method: 'readSpan', ok: true, result: { text: 'a.md:1-4' } });
  const s = await dispatchWebviewRequest(handlers, { type: 'request', seq: 8, method: 'revealSpan', params: { source: 'b.md', start: 0, end: 1 } });
  assert.deepEqual(s, { type: 'response', seq: 8, method: 'revealSpan', ok: true, result: null });
  assert.deepEqual(calls, ['reveal b.md']);
  assert.ok(isHostToWebview(r));
});

test('errors become ok:false responses with the error code (internal when it has none)', async () => {
  const a = await dispatchWebviewRequest(handlers, { type: 'request', seq: 1, method: 'loadRun', params: { runDir: '/nowhere' } });
  assert.deepEqual(a, { type: 'response', seq: 1, method: 'loadRun', ok: false, error: { code: 'not-found', message: 'not a Spanproof run directory (no run.json).' } });
  const b = await dispatchWebviewRequest(handlers, { type: 'request', seq: 2, method: 'biasStudy', params: { runDir: '/r' } });
  assert.deepEqual(b, { type: 'response', seq: 2, method: 'biasStudy', ok: false, error: { code: 'internal', message: 'no chunks kept' } });
  const c = await dispatchWebviewRequest(handlers, { type: 'request', seq: 3, method: 'exportReport', params: { runDir: '/r', format: 'html' } });
  assert.deepEqual(c, { type: 'response', seq: 3, method: 'exportReport', ok: false, error: { code: 'internal', message: 'a string, not an Error' } });
});

test('an unknown method (a newer webview, or a forged message) is refused, not dispatched to a prototype member', async () => {
  for (const method of ['dropTables', 'toString', 'constructor']) {
    const req = { type: 'request', seq: 9, method, params: {} } as unknown;
    assert.ok(isWebviewToHost(req));
    const r = await dispatchWebviewRequest(handlers, req as WebviewRequest);
    assert.equal(r.ok, false);
    assert.equal(r.ok === false && r.error.code, 'bad-request');
  }
});

test('the handler table is checked by the compiler', () => {
  // @ts-expect-error a table without `biasStudy` is not a WebviewHandlers
  const missing: WebviewHandlers = { ...handlers, biasStudy: undefined };
  // @ts-expect-error readSpan must return { text } | null, not a number
  const wrong: WebviewHandlers = { ...handlers, readSpan: () => 42 };
  assert.ok(missing && wrong);
});
