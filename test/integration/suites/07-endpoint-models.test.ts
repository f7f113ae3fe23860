// Endpoint models in Run Evaluation (issue 12, SPEC §5.3; #16 item 2): an endpoint embedder set in the
// workspace is asked about before anything is sent — declined, no run and not one request — and, allowed,
// the run reaches the fake embeddings server on 127.0.0.1 with the key stored for its origin in
// SecretStorage, while no file of the run folder or the cache holds the key.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startFakeModelServer } from '../../helpers/fakeModelServer';
import { answerEndpointPrompts, api, folder, test, ws } from '../harness';

/** Every file under `dir` (recursive). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

test('Set Model Endpoint API Key is registered', async () => {
  await api();
  assert.ok((await vscode.commands.getCommands(true)).includes('spanproof.setModelEndpointApiKey'));
});

test('an endpoint embedder: declined → no run, nothing sent; allowed → every request carries the SecretStorage key, no run file holds it', async () => {
  const sp = await api();
  const cfg = vscode.workspace.getConfiguration('spanproof');
  const T = vscode.ConfigurationTarget.Workspace;
  const keys = ['chunkers', 'retrievers', 'rerank', 'embeddingModel', 'modelEndpoint.url'];
  const KEY = 'sk-spanproof-models-it';
  const srv = await startFakeModelServer();
  const asked: string[] = [];
  let allow = false;
  const prompts = answerEndpointPrompts(sp, (buttons, message, detail) => (asked.push(`${message}\n${detail}`), allow ? buttons[0] : undefined));
  try {
    await cfg.update('chunkers', ['fixed'], T);
    await cfg.update('retrievers', ['dense'], T);
    await cfg.update('rerank', [false], T);
    await cfg.update('embeddingModel', 'endpoint:bow', T);
    await cfg.update('modelEndpoint.url', srv.url, T);
    await sp.endpoints.storeKey(srv.url, KEY);

    const declined = await sp.runner.run(folder().store);
    assert.equal(declined, undefined, 'declined: no run');
    assert.equal(asked.length, 1, 'the workspace-level endpoint was asked about');
    assert.match(asked[0], /spanproof\.modelEndpoint\.url/);
    assert.match(asked[0], /passages of your documents and your questions/);
    assert.equal(srv.requests.length, 0, 'declined: nothing sent');

    allow = true;
    const run = await sp.runner.run(folder().store);
    assert.ok(run?.runDir, 'the run wrote a run directory');
    assert.equal(run.status, 'succeeded');
    assert.ok(srv.requests.some((r) => r.path === '/v1/embeddings'), 'the embeddings endpoint was used');
    assert.ok(srv.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`), 'every request carries the key stored for the origin');
    assert.equal(run.results.configs[0].id, 'fixed/dense/none');
    assert.ok(run.results.configs[0].metrics['hit@5'].mean > 0, 'the endpoint vectors retrieve');
    const ledger = JSON.parse(readFileSync(path.join(run.runDir, 'models-ledger.json'), 'utf8')) as { requests: number };
    assert.equal(ledger.requests, srv.requests.length, 'ledger = the server log');
    for (const f of [...filesUnder(run.runDir), ...filesUnder(path.join(ws(), '.spanproof', 'cache'))]) {
      assert.equal(readFileSync(f).includes(KEY), false, `${f} holds no key`);
    }
  } finally {
    prompts.restore();
    await srv.close();
    await sp.endpoints.storeKey(srv.url, '');
    for (const k of keys) await cfg.update(k, undefined, T);
  }
});
