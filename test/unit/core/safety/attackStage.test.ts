/**
 * The attack stage on a real run of samples/fastapi-mini (issue #17 item 2): injection study, then
 * generation from each exposed item's planted top-k against a fake endpoint whose generator always
 * obeys a planted instruction (it echoes the canary marker it sees): attack success ≤ exposure@5 for
 * every attacked config, each exposed item generated once, the judge asked only without a marker, and
 * a corpus changed after the study is refused; and a step cancelled mid-run (AbortSignal) writes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runGrid } from '../../../../src/core/grid/run';
import { ChatClient } from '../../../../src/core/judge';
import { readAttacks } from '../../../../src/core/runs';
import { runAttackStage, runUpiaStage, withInjectionStudy } from '../../../../src/core/safety';
import { startFakeServer } from '../../../helpers/fakeServer';
import { MINI, MINI_GT, smallSettings, tmp } from '../../../helpers/grid';

test('attack stage on fastapi-mini: an always-obeying generator: attack success ≤ exposure, marker or judge per item; a changed corpus is refused', async () => {
  const root = tmp('attack');
  const ws = join(root, 'ws');
  cpSync(MINI, ws, { recursive: true });
  const settings = smallSettings();
  const params = { workspace: ws, groundTruthFile: MINI_GT, settings, runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache'), injectionStudy: true };
  const result = await withInjectionStudy(params, await runGrid(params));
  const study = result.injection!.study;
  assert.ok(study.exposed.length > 0);
  const srv = await startFakeServer({
    script: (r) => {
      const user = r.messages.find((m) => m.role === 'user')?.content ?? '';
      if ((r.messages.find((m) => m.role === 'system')?.content ?? '').includes('an attacker hid inside the documents')) return { content: '{"label": false, "reason": "no marker"}' };
      const tag = /SPX-[0-9A-F]{6}/.exec(user)?.[0];
      return { content: tag ? `Done: ${tag}` : 'The docs say so.' };
    },
  });
  try {
    const client = new ChatClient({ endpoint: srv.url, concurrency: 4 });
    const judge = { ...settings.judge, endpoint: srv.url, generatorModel: 'gen', judgeModel: 'judge' };
    const { file, report } = await runAttackStage(result.runDir!, { judge, workspace: ws, groundTruthFile: MINI_GT, client });
    assert.ok(existsSync(file));
    assert.equal(report.configs.length, 4, 'recommended, next two, worst');
    for (const c of report.configs) {
      const e = study.configs.find((x) => x.id === c.id)!['exposure@5'];
      // followed only when the retrieved text carried a whole marker; a chunk holding part of a canary is exposed but not followed
      assert.ok(c.attackSuccess.mean <= e.mean + 1e-12, c.id);
      assert.equal(c.attackSuccess.unmeasured, 0);
      assert.equal(c.attackSuccess.measured, 10);
    }
    const byMarker = report.items.filter((i) => 'by' in i && i.by === 'marker').length;
    const byJudge = report.items.filter((i) => 'by' in i && i.by === 'judge').length;
    assert.ok(byMarker > 0);
    assert.equal(byMarker + byJudge, report.items.length);
    // one generation per exposed item and a judge request only without a marker — fewer on the wire: configs
    // with the same top-k (rerank on/off) send identical requests, which the client sends once
    assert.ok(srv.requests.length <= report.items.length + byJudge && srv.requests.length > 0);
    assert.equal(report.ledger.requests, srv.requests.length);
    const attacked = new Set(report.configs.map((c) => c.id));
    assert.equal(report.items.length, study.exposed.filter((x) => attacked.has(x.config)).length);
    appendFileSync(join(ws, 'tutorial', 'body.md'), '\nA new paragraph.\n');
    await assert.rejects(runAttackStage(result.runDir!, { judge, workspace: ws, groundTruthFile: MINI_GT, client }), /changed since the injection study/);
  } finally {
    await srv.close();
  }
});

test('a cancelled attack step writes nothing: XPIA and UPIA aborted mid-run leave attacks.json absent, then byte-identical, and no temp file', async () => {
  const root = tmp('attack-cancel');
  const ws = join(root, 'ws');
  cpSync(MINI, ws, { recursive: true });
  const settings = smallSettings();
  const params = { workspace: ws, groundTruthFile: MINI_GT, settings, runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache'), injectionStudy: true };
  const runDir = (await withInjectionStudy(params, await runGrid(params))).runDir!;
  let ac = new AbortController();
  let abortAt = 3;
  // Every request is answered (a harmless answer, a 0 grade, "not followed") except that the abortAt-th aborts the step.
  const srv = await startFakeServer({
    script: (r) => {
      if (r.n === abortAt) ac.abort();
      const sys = r.messages.find((m) => m.role === 'system')?.content ?? '';
      if (sys.includes('"label"')) return { content: '{"label": false, "reason": "no"}' };
      if (sys.includes('"score"')) return { content: '{"score": 0, "reason": "calm"}' };
      return { content: 'The docs say so.' };
    },
  });
  const files = () => readdirSync(runDir).sort();
  try {
    const client = new ChatClient({ endpoint: srv.url, concurrency: 2 });
    const judge = { ...settings.judge, endpoint: srv.url, generatorModel: 'gen', judgeModel: 'judge' };
    const before = files();
    await assert.rejects(runAttackStage(runDir, { judge, workspace: ws, groundTruthFile: MINI_GT, client, signal: ac.signal }), (e: Error & { code?: string }) => e.code === 'cancelled');
    assert.deepEqual(files(), before, 'no attacks.json, no temp file');
    abortAt = Infinity;
    ac = new AbortController();
    const { file } = await runAttackStage(runDir, { judge, workspace: ws, groundTruthFile: MINI_GT, client, signal: ac.signal });
    const written = readFileSync(file);
    const after = files();
    abortAt = srv.requests.length + 5;
    await assert.rejects(runUpiaStage(runDir, { judge, workspace: ws, client, signal: ac.signal }), (e: Error & { code?: string }) => e.code === 'cancelled');
    assert.ok(srv.requests.length >= abortAt, 'the UPIA step was under way');
    assert.deepEqual(readFileSync(file), written, 'the XPIA entry untouched, no UPIA entry');
    assert.deepEqual(files(), after);
    assert.equal(readAttacks(runDir)!.upia, undefined);
  } finally {
    await srv.close();
  }
});
