// Answers and LLM judges (issue 7, SPEC §14): the commands, the refusal without an endpoint, and a real
// run judged through a fake OpenAI-compatible server on 127.0.0.1 with the key read from SecretStorage.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { storeJudgeApiKey } from '../../../src/extension/answers';
import type { GenerationStageResult } from '../../../src/core/judge';
import { startFakeServer } from '../../helpers/fakeServer';
import { answerEndpointPrompts, api, runOneConfig, test } from '../harness';

test('Set Judge API Key and Generate and Judge Answers are registered', async () => {
  await api();
  const all = new Set(await vscode.commands.getCommands(true));
  for (const id of ['setJudgeApiKey', 'generateAnswers']) assert.ok(all.has(`spanproof.${id}`), `spanproof.${id} registered`);
});

test('a full run is judged through a fake endpoint: refused (nothing written) without an endpoint, then answers.jsonl + ledger.json with the SecretStorage key', async () => {
  const sp = await api();
  assert.ok(vscode.workspace.isTrusted, 'the in-host workspace is trusted (the untrusted refusal is UI scenario 8)');
  const cfg = vscode.workspace.getConfiguration('spanproof');
  const T = vscode.ConfigurationTarget.Workspace;
  const keys = ['chunkers', 'retrievers', 'rerank', 'judge.endpoint', 'judge.generatorModel', 'judge.judgeModel'];
  const srv = await startFakeServer({ answers: {} });
  let prompts: ReturnType<typeof answerEndpointPrompts> | undefined;
  try {
    const run = await runOneConfig();
    assert.equal(run.status, 'succeeded');
    const runDir = run.runDir;

    // No endpoint configured: the command returns null and nothing is sent or written.
    const refused = await vscode.commands.executeCommand('spanproof.generateAnswers', runDir);
    assert.equal(refused, null);
    assert.equal(existsSync(path.join(runDir, 'answers.jsonl')), false);
    assert.equal(srv.requests.length, 0);

    await storeJudgeApiKey(sp.endpoints, srv.url, 'sk-spanproof-it');
    await cfg.update('judge.endpoint', srv.url, T);
    // A workspace-level endpoint is confirmed the first time (#16 item 2): answer the modal with "Allow".
    prompts = answerEndpointPrompts(sp, (buttons) => buttons[0]);
    await cfg.update('judge.generatorModel', 'gen-model', T);
    await cfg.update('judge.judgeModel', 'judge-model', T);
    const r = (await vscode.commands.executeCommand('spanproof.generateAnswers', runDir)) as GenerationStageResult | null;
    assert.ok(r, 'generation result');
    assert.equal(r.status, 'succeeded');
    const lines = readFileSync(path.join(runDir, 'answers.jsonl'), 'utf8').split('\n').filter(Boolean);
    assert.equal(lines.length, 20, '20 questions × the one config');
    const ledger = JSON.parse(readFileSync(path.join(runDir, 'ledger.json'), 'utf8')) as { requests: number; cachedResponses: number };
    assert.equal(ledger.requests, srv.requests.length, 'ledger = the server log');
    assert.ok(srv.requests.length >= 20, 'at least one generation per question');
    assert.ok(srv.requests.every((q) => q.headers?.authorization === 'Bearer sk-spanproof-it'), 'every request carries the key stored for its origin');
    assert.equal(r.summary.sameModel, false);
  } finally {
    prompts?.restore();
    await srv.close();
    await storeJudgeApiKey(sp.endpoints, srv.url, '');
    for (const k of keys) await cfg.update(k, undefined, T);
  }
});

test('#16 item 2: a workspace-level endpoint is asked about before anything is sent; a key stored for another origin, or the old endpoint-less key, never goes there unasked', async () => {
  const sp = await api();
  const cfg = vscode.workspace.getConfiguration('spanproof');
  const T = vscode.ConfigurationTarget.Workspace;
  const keys = ['chunkers', 'retrievers', 'rerank', 'judge.endpoint', 'judge.generatorModel', 'judge.judgeModel'];
  const thief = await startFakeServer({ answers: {} });
  const trusted = await startFakeServer({ answers: {} });
  let reply: (buttons: string[]) => string | undefined = () => undefined;
  const prompts = answerEndpointPrompts(sp, (buttons) => reply(buttons));
  const { asked } = prompts;
  try {
    const run = await runOneConfig();
    await storeJudgeApiKey(sp.endpoints, trusted.url, 'sk-for-trusted-only');
    await sp.context.secrets.store('spanproof.judge.apiKey', 'sk-old-global'); // what older versions stored
    // A cloned repository's .vscode/settings.json points the judge at another server.
    await cfg.update('judge.endpoint', thief.url, T);
    await cfg.update('judge.generatorModel', 'gen-model', T);
    await cfg.update('judge.judgeModel', 'judge-model', T);
    const declined = await vscode.commands.executeCommand('spanproof.generateAnswers', run.runDir);
    assert.equal(declined, null, 'dismissing the question generates nothing');
    assert.equal(thief.requests.length, 0, 'nothing was sent before the user allowed the workspace endpoint');
    assert.match(asked[0], new RegExp(`send data to ${new URL(thief.url).origin}`));
    // Allowed, and "Continue without a key" for the old key: requests go out without any stored key.
    asked.length = 0;
    reply = (buttons) => (buttons[0].startsWith('Allow') ? buttons[0] : buttons[1]);
    const r = (await vscode.commands.executeCommand('spanproof.generateAnswers', run.runDir)) as GenerationStageResult | null;
    assert.ok(r);
    assert.equal(asked.length, 2, 'asked to allow the endpoint, then whether to send the old key');
    assert.ok(thief.requests.length > 0);
    assert.ok(thief.requests.every((q) => q.headers?.authorization === 'Bearer no-key'), 'neither the other origin\'s key nor the old key was sent');
  } finally {
    prompts.restore();
    await thief.close();
    await trusted.close();
    await storeJudgeApiKey(sp.endpoints, trusted.url, '');
    await sp.context.secrets.delete('spanproof.judge.apiKey');
    for (const k of keys) await cfg.update(k, undefined, T);
  }
});
