/**
 * Endpoint models in a VS Code run (src/extension/runAccess.ts) over the real EndpointAccess with
 * in-memory SecretStorage/state and a scripted modal: no question when the grid uses no endpoint model
 * (an endpoint reranker with reranking off included); a workspace-level modelEndpoint.url is confirmed
 * first and declining starts no run; allowed, the key stored for that origin (and only that one) is
 * what goes into the run request; a bad setting is a message, not a throw.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS } from '../../../src/core/settings';
import { EndpointAccess, type EndpointSetting } from '../../../src/extension/endpointAccess';
import { authorizeRunModels, type RunModelSettings } from '../../../src/extension/runAccess';

function access(answers: Array<string | undefined>) {
  const secrets = new Map<string, string>();
  const state = new Map<string, unknown>();
  const asked: Array<{ message: string; detail: string }> = [];
  const a = new EndpointAccess({
    secrets: { get: async (k) => secrets.get(k), store: async (k, v) => void secrets.set(k, v), delete: async (k) => void secrets.delete(k) },
    state: { get: <T>(k: string) => state.get(k) as T | undefined, update: async (k, v) => void state.set(k, v) },
    ask: async (message, detail, ...buttons) => {
      asked.push({ message, detail });
      return answers.shift() === 'allow' ? buttons[0] : undefined;
    },
  });
  return { a, asked };
}

const settings = (over: Partial<RunModelSettings>, url = 'http://127.0.0.1:8123/v1'): RunModelSettings => ({
  embedders: [], embeddingModel: '', rerankerModel: '', rerank: [false], ...over, modelEndpoint: { ...DEFAULT_SETTINGS.modelEndpoint, url },
});
const gate = (x: EndpointAccess, s: RunModelSettings, scope: EndpointSetting['scope'] = 'workspace') => (purpose: string) =>
  x.authorize({ key: 'modelEndpoint.url', value: s.modelEndpoint.url, scope, folder: 'file:///repo' }, purpose);

test('a grid without endpoint models starts without a question, and gets no key', async () => {
  const { a, asked } = access([]);
  await a.storeKey('http://127.0.0.1:8123/v1', 'sk-local');
  for (const s of [settings({}), settings({ embedders: ['static-glove', 'use-lite'] }), settings({ rerankerModel: 'endpoint:rr', rerank: [false] })]) {
    assert.deepEqual(await authorizeRunModels(s, gate(a, s)), { ok: true });
  }
  assert.equal(asked.length, 0, 'an endpoint reranker is not used while no config reranks');
});

test('an endpoint embedder set in the workspace: declined → no run and nothing sent; allowed → the key of that origin', async () => {
  const { a, asked } = access([undefined, 'allow']);
  await a.storeKey('http://127.0.0.1:8123/other/path', 'sk-local');
  await a.storeKey('https://api.example.com/v1', 'sk-elsewhere');
  const s = settings({ embedders: ['static-glove', 'endpoint:text-embedding-3-small'] });
  const declined = await authorizeRunModels(s, gate(a, s));
  assert.equal(declined.ok, false);
  assert.match(!declined.ok ? declined.message : '', /not started — the embedder endpoint:text-embedding-3-small would send passages of your documents and your questions to http:\/\/127\.0\.0\.1:8123, and that was not allowed\. Nothing was sent\./);
  assert.match(asked[0].message, /send data to http:\/\/127\.0\.0\.1:8123/);
  assert.match(asked[0].detail, /spanproof\.modelEndpoint\.url/);
  assert.match(asked[0].detail, /passages of your documents and your questions \(for the embedder endpoint:text-embedding-3-small\)/);
  assert.deepEqual(await authorizeRunModels(s, gate(a, s)), { ok: true, apiKey: 'sk-local' });
  assert.deepEqual(await authorizeRunModels(s, gate(a, s)), { ok: true, apiKey: 'sk-local' }, 'remembered: not asked again');
  assert.equal(asked.length, 2);
});

test('an endpoint reranker counts when a config reranks; a user-level endpoint needs no confirmation; no stored key → none sent', async () => {
  const { a, asked } = access([]);
  await a.storeKey('https://api.example.com/v1', 'sk-elsewhere');
  const s = settings({ rerankerModel: 'endpoint:rerank-v3', rerank: [false, true] });
  assert.deepEqual(await authorizeRunModels(s, gate(a, s, 'user')), { ok: true }, 'a key stored for another origin is not sent');
  assert.equal(asked.length, 0);
  const both = settings({ embeddingModel: 'endpoint:e', rerankerModel: 'endpoint:r', rerank: [true] });
  let purpose = '';
  await authorizeRunModels(both, async (p) => ((purpose = p), null));
  assert.equal(purpose, 'passages of your documents and your questions (for the embedder endpoint:e and the reranker endpoint:r)');
});

test('an endpoint model with no endpoint, or one that is not an http(s) URL, is a message and nothing is asked', async () => {
  let calls = 0;
  const never = async () => ((calls += 1), null);
  const none = await authorizeRunModels(settings({ embeddingModel: 'endpoint:e' }, ''), never);
  assert.equal(none.ok, false);
  assert.match(!none.ok ? none.message : '', /not started — modelEndpoint.url: the embedder endpoint:e is served by an endpoint, and no endpoint is set.*spanproof\.modelEndpoint\.url/);
  const ftp = await authorizeRunModels(settings({ embeddingModel: 'endpoint:e' }, 'ftp://user:secret@host/v1'), never);
  assert.match(!ftp.ok ? ftp.message : '', /is not an http\(s\) URL\. Nothing was sent\./);
  assert.doesNotMatch(!ftp.ok ? ftp.message : '', /secret/, 'credentials in the URL are redacted');
  assert.equal(calls, 0);
});
