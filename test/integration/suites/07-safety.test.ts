// Risk and safety commands (issue #17; their registration is checked by 01-activation's "every contributed command"): Run Attack Step… (UPIA) and Score Content Safety… on a real run
// in the extension host, through a fake OpenAI-compatible server on 127.0.0.1: refused (nothing sent)
// without an endpoint, then the endpoint modal answered (sp.endpoints.deps.ask), attacks.json written
// with figures known by hand, and the content-safety report opened with the "not Azure" note.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { storeJudgeApiKey } from '../../../src/extension/answers';
import type { SafetyFile, UpiaAttackFile } from '../../../src/core/safety';
import { startFakeServer } from '../../helpers/fakeServer';
import { answerEndpointPrompts, api, runOneConfig, test } from '../harness';

test('UPIA attack step and content safety through a fake endpoint: refused without one, then attacks.json and the safety report', async () => {
  const sp = await api();
  const cfg = vscode.workspace.getConfiguration('spanproof');
  const T = vscode.ConfigurationTarget.Workspace;
  const keys = ['chunkers', 'retrievers', 'rerank', 'judge.endpoint', 'judge.generatorModel', 'judge.judgeModel'];
  // Generator: echoes the attack marker when the question carries one (obeys every attack); judge: "not
  // followed" for the control answers; safety graders: severity 4 (medium) for the harm categories, label false.
  const srv = await startFakeServer({
    script: (r) => {
      const sys = r.messages.find((m) => m.role === 'system')?.content ?? '';
      const user = r.messages.find((m) => m.role === 'user')?.content ?? '';
      if (sys.includes('carries out the instruction')) return { content: '{"label": false, "reason": "no"}' };
      if (sys.includes('You answer questions')) {
        const tag = /SPX-[0-9A-F]{6}/.exec(user)?.[0];
        return { content: tag ? `Done ${tag}` : 'The passages say so.' };
      }
      if (sys.includes('"label"')) return { content: '{"label": false, "reason": "original text"}' };
      if (sys.includes('"score"')) return { content: '{"score": 4, "reason": "moderate"}' };
      return undefined;
    },
  });
  // "Allow" the workspace-level endpoint once it is set (before, nothing is sent, so nothing is asked).
  const prompts = answerEndpointPrompts(sp, (buttons) => buttons[0]);
  try {
    const runDir = (await runOneConfig()).runDir;

    const refused = await vscode.commands.executeCommand('spanproof.runAttacks', { input: runDir, steps: ['upia'] });
    assert.equal(refused, null, 'no endpoint: refused');
    assert.equal(existsSync(path.join(runDir, 'attacks.json')), false);
    assert.equal(srv.requests.length, 0);

    await storeJudgeApiKey(sp.endpoints, srv.url, 'sk-safety-it');
    await cfg.update('judge.endpoint', srv.url, T);
    await cfg.update('judge.generatorModel', 'gen-model', T);
    await cfg.update('judge.judgeModel', 'judge-model', T);
    const reports = (await vscode.commands.executeCommand('spanproof.runAttacks', { input: runDir, steps: ['upia'] })) as UpiaAttackFile[] | null;
    assert.ok(reports?.length === 1, 'one UPIA report');
    const file = JSON.parse(readFileSync(path.join(runDir, 'attacks.json'), 'utf8')) as { spanproof: number; upia: UpiaAttackFile };
    assert.equal(file.upia.questions.length, 20);
    // By hand: every attacked answer carries its marker → 1; every control answer is judged "not followed" → 0.
    const c = file.upia.configs[0];
    assert.deepEqual([c.id, c.attacked.mean, c.control.mean, c.difference.mean, c.difference.pairs], ['fixed/bm25/none', 1, 0, 1, 20]);
    assert.ok(srv.requests.every((q) => q.headers?.authorization === 'Bearer sk-safety-it'), 'the key stored for this origin');

    const dir = mkdtempSync(path.join(tmpdir(), 'spanproof-safety-it-'));
    const jsonl = path.join(dir, 'eval.jsonl');
    writeFileSync(jsonl, '{"query": "q1?", "response": "an answer", "context": "c"}\n{"query": "q2?", "response": "another", "context": "c"}\n');
    const safety = (await vscode.commands.executeCommand('spanproof.scoreSafety', { input: jsonl, threshold: 'medium' })) as SafetyFile | null;
    assert.ok(safety, 'safety report');
    // Severity 4 is "medium": at the medium threshold every response is a defect; protected material false → 0.
    assert.equal(safety.categories.violence?.defectRate, 1);
    assert.equal(safety.categories.violence?.measured, 2);
    assert.equal(safety.categories.protected_material?.defectRate, 0);
    const doc = vscode.window.activeTextEditor?.document;
    assert.ok(doc && doc.languageId === 'markdown' && doc.getText().includes("not Azure's safety service"), 'the report opened, with the note');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  } finally {
    prompts.restore();
    await srv.close();
    await storeJudgeApiKey(sp.endpoints, srv.url, '');
    for (const k of keys) await cfg.update(k, undefined, T);
  }
});
