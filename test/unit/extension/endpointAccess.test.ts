/**
 * EndpointAccess (src/extension/endpointAccess.ts, #16 item 2) over in-memory SecretStorage and
 * global state, with a scripted modal prompt: keys are per origin and never cross to another one; the
 * endpoint-less key of older versions goes to an origin only when the user says so; a workspace-level
 * endpoint needs a confirmation the first time and whenever it changes; a user setting needs none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EndpointAccess, LEGACY_SECRET, secretKeyFor, type EndpointSetting } from '../../../src/extension/endpointAccess';

function fakes(answers: Array<string | undefined> = []) {
  const secrets = new Map<string, string>();
  const state = new Map<string, unknown>();
  const asked: Array<{ message: string; detail: string; buttons: string[] }> = [];
  const access = new EndpointAccess({
    secrets: { get: async (k) => secrets.get(k), store: async (k, v) => void secrets.set(k, v), delete: async (k) => void secrets.delete(k) },
    state: { get: <T>(k: string) => state.get(k) as T | undefined, update: async (k, v) => void state.set(k, v) },
    ask: async (message, detail, ...buttons) => {
      asked.push({ message, detail, buttons });
      const a = answers.shift();
      return a === 'first' ? buttons[0] : a === 'second' ? buttons[1] : a;
    },
  });
  return { access, secrets, state, asked, answers };
}

const ws = (value: string, scope: EndpointSetting['scope'] = 'workspace'): EndpointSetting => ({ key: 'judge.endpoint', value, scope, folder: 'file:///repo' });

test('a key is stored per origin and only that origin gets it (the path does not matter; scheme, host and port do)', async () => {
  const f = fakes();
  await f.access.storeKey('https://api.openai.com/v1', 'sk-openai');
  assert.equal(f.secrets.get(secretKeyFor('https://api.openai.com')), 'sk-openai');
  assert.deepEqual(await f.access.authorize(ws('https://api.openai.com/v1/', 'user'), 'answers'), { endpoint: 'https://api.openai.com/v1/', origin: 'https://api.openai.com', apiKey: 'sk-openai' });
  const other = await f.access.authorize(ws('https://evil.example/v1', 'user'), 'answers');
  assert.deepEqual(other, { endpoint: 'https://evil.example/v1', origin: 'https://evil.example' }, 'another origin gets no key');
  assert.equal((await f.access.authorize(ws('http://api.openai.com/v1', 'user'), 'answers'))?.apiKey, undefined, 'http is another origin');
  assert.equal(f.asked.length, 0, 'user settings need no confirmation');
  await f.access.storeKey('https://api.openai.com/other', '');
  assert.equal(f.secrets.has(secretKeyFor('https://api.openai.com')), false, 'an empty key removes it');
});

test('a workspace-level endpoint is confirmed the first time and again after it changes; declining sends nothing', async () => {
  const f = fakes([undefined, 'first', 'first']);
  await f.access.storeKey('http://127.0.0.1:8000/v1', 'k-local');
  assert.equal(await f.access.authorize(ws('http://127.0.0.1:8000/v1'), 'the questions'), null, 'dismissed: not allowed');
  assert.match(f.asked[0].message, /send data to http:\/\/127\.0\.0\.1:8000/);
  assert.match(f.asked[0].detail, /spanproof\.judge\.endpoint/);
  assert.match(f.asked[0].detail, /the questions/);
  assert.equal((await f.access.authorize(ws('http://127.0.0.1:8000/v1'), 'q'))?.apiKey, 'k-local', 'allowed');
  assert.equal((await f.access.authorize(ws('http://127.0.0.1:8000/v1'), 'q'))?.apiKey, 'k-local', 'remembered');
  assert.equal(f.asked.length, 2);
  assert.ok(await f.access.authorize(ws('http://127.0.0.1:9000/v1'), 'q'), 'a changed value is asked again');
  assert.equal(f.asked.length, 3);
  assert.equal(await f.access.authorize({ ...ws('http://127.0.0.1:9000/v1'), folder: 'file:///other' }, 'q'), null, 'another folder: asked again (no answer left: dismissed)');
});

test('the endpoint-less key of older versions is sent only after the user says so, then tied to that origin', async () => {
  const f = fakes(['second', 'first']);
  f.secrets.set(LEGACY_SECRET, 'sk-legacy');
  const without = await f.access.authorize(ws('https://a.example/v1', 'user'), 'answers');
  assert.deepEqual(without, { endpoint: 'https://a.example/v1', origin: 'https://a.example' }, 'continue without a key');
  assert.match(f.asked[0].message, /send your stored API key to https:\/\/a\.example/);
  assert.equal(f.secrets.get(LEGACY_SECRET), 'sk-legacy', 'kept for when the user wants it');
  const withKey = await f.access.authorize(ws('https://b.example/v1', 'user'), 'answers');
  assert.equal(withKey?.apiKey, 'sk-legacy');
  assert.equal(f.secrets.get(secretKeyFor('https://b.example')), 'sk-legacy');
  assert.equal(f.secrets.has(LEGACY_SECRET), false, 'moved to its origin');
  assert.equal((await f.access.authorize(ws('https://a.example/v1', 'user'), 'answers'))?.apiKey, undefined, 'and never to another origin');
});

test('no endpoint or not a URL: null without a question; storeKey refuses a non-URL', async () => {
  const f = fakes();
  assert.equal(await f.access.authorize(ws(''), 'q'), null);
  assert.equal(await f.access.authorize(ws('file:///etc/passwd'), 'q'), null);
  assert.equal(f.asked.length, 0);
  await assert.rejects(f.access.storeKey('not a url', 'k'), TypeError);
});
