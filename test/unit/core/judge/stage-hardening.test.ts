/**
 * The generation stage against crafted run folders and hostile servers (#16 items 1, 11, 16): the run's
 * files never choose the endpoint or which files are read; long answers are cut before the judges see
 * them; finished answers reach the disk as they finish (a killed process keeps them); a stage where
 * every request failed is `failed`, never `succeeded`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_ANSWER_CHARS, runGenerationStage, type AnswerRecord } from '../../../../src/core/judge';
import { isSpanproofError } from '../../../../src/core/errors';
import { ANSWERS, makeRunDir } from '../../../helpers/runFixture';
import { startFakeServer } from '../../../helpers/fakeServer';
import { REPO } from '../../../helpers/paths';

const judge = (endpoint: string) => ({ endpoint, generatorModel: 'gen-model', judgeModel: 'judge-model' });
const SECRET = 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

/** Rewrites run.json of `runDir` with `patch` applied. */
function patchRun(runDir: string, patch: (run: Record<string, unknown>) => void): void {
  const file = join(runDir, 'run.json');
  const run = JSON.parse(readFileSync(file, 'utf8'));
  patch(run);
  writeFileSync(file, JSON.stringify(run));
}

/** Points the first result of every questions.jsonl line at `source`. */
function patchSources(runDir: string, source: string): void {
  const file = join(runDir, 'questions.jsonl');
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  for (const l of lines) l.results[0] = { source, start: 0, end: SECRET.length, score: 9 };
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

test('item 1: the endpoint written in run.json is never used — no --endpoint is bad input, nothing is sent', async () => {
  const thief = await startFakeServer({ answers: ANSWERS });
  try {
    const { runDir } = makeRunDir();
    patchRun(runDir, (r) => ((r.settings as { judge: Record<string, unknown> }).judge = { ...(r.settings as { judge: object }).judge, ...judge(thief.url) }));
    await assert.rejects(runGenerationStage(runDir, { apiKey: 'sk-user-key', noCache: true }), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && /--endpoint/.test(e.message) && /never taken from the run/.test(e.message));
    assert.equal(thief.requests.length, 0, 'the run folder did not choose where the key goes');
  } finally {
    await thief.close();
  }
});

test('item 1: a result source outside the workspace (../, absolute, symlink out) is refused before any request', async () => {
  const srv = await startFakeServer({ answers: ANSWERS });
  try {
    for (const kind of ['dotdot', 'absolute', 'symlink']) {
      const { runDir, workspace } = makeRunDir();
      const secretDir = join(workspace, '..', `${kind}-secret-${process.pid}`);
      mkdirSync(secretDir, { recursive: true });
      writeFileSync(join(secretDir, 'credentials'), SECRET);
      let source = `../${kind}-secret-${process.pid}/credentials`;
      if (kind === 'absolute') source = join(secretDir, 'credentials');
      if (kind === 'symlink') {
        symlinkSync(join(secretDir, 'credentials'), join(workspace, 'docs', 'notes.md'));
        source = 'docs/notes.md';
      }
      patchSources(runDir, source);
      const before = srv.requests.length;
      await assert.rejects(runGenerationStage(runDir, { judge: judge(srv.url), noCache: true }), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && /outside the workspace/.test(e.message), kind);
      const sent = srv.requests.slice(before).map((r) => JSON.stringify(r.messages)).join('\n');
      assert.equal(sent.includes('wJalrXUtnFEMI'), false, `${kind}: the secret file was sent`);
      assert.equal(srv.requests.length, before, `${kind}: no request at all`);
    }
  } finally {
    await srv.close();
  }
});

test('item 1: documents are read from the workspace that holds the run folder, not from the workspace run.json names', async () => {
  const srv = await startFakeServer({ answers: ANSWERS });
  try {
    const { runDir, workspace } = makeRunDir();
    const elsewhere = join(workspace, '..', `elsewhere-${process.pid}`);
    mkdirSync(join(elsewhere, 'docs'), { recursive: true });
    writeFileSync(join(elsewhere, 'docs', 'server.md'), SECRET + ' '.repeat(200));
    patchRun(runDir, (r) => (r.workspace = elsewhere));
    await runGenerationStage(runDir, { judge: judge(srv.url), noCache: true, metrics: ['relevance'] });
    const sent = srv.requests.map((r) => JSON.stringify(r.messages)).join('\n');
    assert.equal(sent.includes('AWS_SECRET'), false, 'read the crafted workspace');
    assert.ok(sent.includes('Paris is the capital of France.'), 'read the real workspace (a context no answer contains)');
  } finally {
    await srv.close();
  }
});

test('item 1: a run folder outside any workspace needs the workspace given explicitly', async () => {
  const srv = await startFakeServer({ answers: ANSWERS });
  try {
    const { runDir, workspace } = makeRunDir();
    const moved = join(workspace, '..', `loose-run-${process.pid}`);
    mkdirSync(moved, { recursive: true });
    for (const f of ['run.json', 'results.json', 'ranking.json', 'questions.jsonl', 'evidence.json']) writeFileSync(join(moved, f), readFileSync(join(runDir, f)));
    await assert.rejects(runGenerationStage(moved, { judge: judge(srv.url), noCache: true }), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && /--workspace/.test(e.message));
    assert.equal(srv.requests.length, 0);
    const r = await runGenerationStage(moved, { judge: judge(srv.url), noCache: true, workspace, metrics: ['relevance'] });
    assert.equal(r.status, 'succeeded');
  } finally {
    await srv.close();
  }
});

test('item 11: an answer longer than MAX_ANSWER_CHARS is cut before the judges see it, and the record says so', async () => {
  const long = 'The default port is 8000. ' + 'x'.repeat(300_000);
  const srv = await startFakeServer({ answers: { ...ANSWERS, 'What is the default port?': long } });
  try {
    const { runDir } = makeRunDir();
    await runGenerationStage(runDir, { judge: judge(srv.url), noCache: true, metrics: ['relevance', 'faithfulness'] });
    const judged = srv.requests.filter((r) => r.model === 'judge-model');
    const biggest = Math.max(...judged.map((r) => JSON.stringify(r.messages).length));
    assert.ok(biggest < MAX_ANSWER_CHARS + 20_000, `a judge request of ${biggest} characters`);
    const rec = readFileSync(join(runDir, 'answers.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as AnswerRecord).find((a) => a.question === 'q1')!;
    assert.equal(rec.answer!.length, MAX_ANSWER_CHARS);
    assert.equal(rec.answerChars, long.length);
  } finally {
    await srv.close();
  }
});

test('item 11: finished answers are on disk while the stage runs — a SIGKILLed process keeps them', { timeout: 60000 }, async () => {
  const srv = await startFakeServer({ answers: ANSWERS, delayMs: 5 });
  const { runDir } = makeRunDir();
  const script = `
    const { runGenerationStage } = require('./src/core/judge');
    runGenerationStage(${JSON.stringify(runDir)}, { judge: { endpoint: ${JSON.stringify(srv.url)}, generatorModel: 'gen-model', judgeModel: 'judge-model', concurrency: 1 }, noCache: true, metrics: ['relevance'] });
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { cwd: REPO, stdio: 'ignore' });
  try {
    // concurrency 1: when the 4th generation request arrives, items 1–3 are finished.
    await new Promise<void>((resolve) => {
      srv.onRequest = (r) => {
        if (r.model === 'gen-model' && srv.requests.filter((x) => x.model === 'gen-model').length === 4) {
          child.kill('SIGKILL');
          resolve();
        }
      };
    });
    await new Promise((r) => child.once('exit', r));
    const partial = join(runDir, 'answers.partial.jsonl');
    assert.ok(existsSync(partial), 'the answers finished before the kill are on disk');
    const kept = readFileSync(partial, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as AnswerRecord);
    assert.equal(kept.length, 3);
    for (const a of kept) assert.ok(a.answer && a.judges.relevance, 'complete records');
  } finally {
    child.kill('SIGKILL');
    await srv.close();
  }
});

test('item 16: a stage where every request failed is failed (bad input), not succeeded', async () => {
  const srv = await startFakeServer({ script: () => ({ status: 500 }) });
  try {
    const { runDir } = makeRunDir();
    await assert.rejects(runGenerationStage(runDir, { judge: { ...judge(srv.url), retries: 0 }, noCache: true, metrics: ['relevance'] }), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && /every request to the endpoint failed/.test(e.message) && /HTTP 500/.test(e.message));
    const summary = JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8')).answers;
    assert.equal(summary.status, 'failed');
    assert.equal(JSON.parse(readFileSync(join(runDir, 'ledger.json'), 'utf8')).status, 'failed');
  } finally {
    await srv.close();
  }
});
