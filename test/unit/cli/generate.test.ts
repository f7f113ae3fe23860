/**
 * `spanproof run --generate`, `spanproof generate` and `spanproof score ragas --endpoint` as a user runs
 * them (sources through tsx), against the fake OpenAI-compatible server on 127.0.0.1. The CLI runs as
 * a child process (async spawn, so this process's server keeps answering).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeServer } from '../../helpers/fakeServer';
import { tempDir } from '../../helpers/tmp';
import { REPO } from '../../helpers/paths';

const MINI = join(REPO, 'samples', 'fastapi-mini');
const MINI_GT = join(REPO, 'samples', 'fastapi-mini.groundtruth.json');

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((res) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'src', 'cli', 'main.ts'), ...args], { cwd: REPO, env: { ...process.env, SPANPROOF_WORKER: join(REPO, 'src', 'worker', 'main.ts'), ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => res({ code, stdout, stderr }));
  });
}

test('run --generate writes answers.jsonl, ledger.json (= server log) and results.json answers; spanproof generate re-run sends no request', async (t) => {
  if (!existsSync(MINI_GT)) return t.skip('samples/fastapi-mini is absent');
  const srv = await startFakeServer();
  try {
    const root = tempDir('spanproof-judge-cli-');
    const flags = ['--endpoint', srv.url, '--generator-model', 'gen', '--judge-model', 'judge', '--judge-metrics', 'relevance,faithfulness,booleanCorrectness'];
    const r = await cli(['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--runs-dir', join(root, 'runs'), '--cache-dir', join(root, 'cache'), '--chunkers', 'heading', '--retrievers', 'bm25', '--rerank', 'off', '--json', '--generate', ...flags], { SPANPROOF_API_KEY: 'sk-test' });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.answers.configs.length, 1);
    assert.equal(out.answers.configs[0].id, 'heading/bm25/none');
    assert.equal(out.answers.judgeModel, 'judge');
    const lines = readFileSync(join(out.runDir, 'answers.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    assert.equal(lines.length, out.questions, 'one line per question of the one config');
    for (const l of lines) assert.deepEqual(Object.keys(l.judges).sort(), ['booleanCorrectness', 'faithfulness', 'relevance']);
    // The fake generator says "I do not know." (no claims) → faithfulness unmeasured with the reason; relevance 4.
    assert.deepEqual(lines[0].judges.faithfulness, { unmeasured: true, reason: 'the answer makes no factual claims to check' });
    assert.equal(lines[0].judges.relevance.score, 4);
    assert.equal(out.answers.configs[0].metrics.faithfulness.measured, 0);
    assert.equal(out.answers.configs[0].metrics.faithfulness.mean, null);
    const ledger = JSON.parse(readFileSync(join(out.runDir, 'ledger.json'), 'utf8'));
    assert.equal(ledger.requests, srv.requests.length);
    assert.ok(existsSync(join(root, 'cache', 'judge')), 'reply cache beside the grid cache (--cache-dir)');
    assert.ok(!JSON.stringify(ledger).includes('sk-test'), 'the key is never written');

    const before = srv.requests.length;
    // Earlier answers are never replaced silently: exit 2 naming the file and --overwrite.
    // The run is in --runs-dir (outside the workspace): generate is told the workspace (never run.json's).
    const ws = ['--workspace', MINI, '--groundtruth', MINI_GT];
    const refused = await cli(['generate', out.runDir, ...ws, ...flags, '--judge-cache-dir', join(root, 'cache', 'judge'), '--json']);
    assert.equal(refused.code, 2);
    assert.ok(refused.stderr.includes(join(out.runDir, 'answers.jsonl')) && refused.stderr.includes('--overwrite'), refused.stderr);
    assert.equal(srv.requests.length, before);
    const g = await cli(['generate', out.runDir, ...ws, ...flags, '--judge-cache-dir', join(root, 'cache', 'judge'), '--json', '--overwrite']);
    assert.equal(g.code, 0, g.stderr);
    assert.ok(g.stderr.includes(`Sending questions, retrieved passages and answers to ${srv.url} (generator gen, judge judge).`), g.stderr);
    assert.equal(srv.requests.length, before, 'a repeated run sends no request');
    assert.equal(JSON.parse(g.stdout).ledger.requests, 0);
    assert.equal(JSON.parse(g.stdout).ledger.cachedResponses, ledger.requests);

    // An unreachable endpoint (closed port): exit 2, the URL and the run directory named, status failed.
    const closed = await startFakeServer();
    await closed.close();
    const u = await cli(['generate', out.runDir, ...ws, '--overwrite', '--endpoint', closed.url, '--generator-model', 'gen', '--judge-model', 'judge', '--no-judge-cache']);
    assert.equal(u.code, 2, u.stderr);
    assert.ok(u.stderr.includes(`cannot reach the endpoint ${closed.url}`) && u.stderr.includes(out.runDir), u.stderr);
    assert.match(u.stderr, /Fix: check that the server is running/);
    assert.equal(u.stderr.split('check that the server is running').length, 2, u.stderr);
    assert.equal(JSON.parse(readFileSync(join(out.runDir, 'ledger.json'), 'utf8')).status, 'failed');

    // #16 item 1: without --endpoint the endpoint in run.json (the srv URL, from the first run) is not used.
    const n = srv.requests.length;
    const noEndpoint = await cli(['generate', out.runDir, ...ws, '--overwrite', '--generator-model', 'gen', '--judge-model', 'judge'], { SPANPROOF_API_KEY: 'sk-test' });
    assert.equal(noEndpoint.code, 2, noEndpoint.stderr);
    assert.match(noEndpoint.stderr, /--endpoint/);
    assert.equal(srv.requests.length, n, 'nothing was sent to the endpoint recorded in run.json');
    // A run outside any workspace without --workspace: exit 2 asking for it, nothing sent.
    const noWs = await cli(['generate', out.runDir, '--overwrite', ...flags]);
    assert.equal(noWs.code, 2, noWs.stderr);
    assert.match(noWs.stderr, /--workspace/);
    assert.equal(srv.requests.length, n);
  } finally {
    await srv.close();
  }
});

test('run --generate refuses the same model (exit 2) before the grid runs; missing endpoint is bad input', async (t) => {
  if (!existsSync(MINI_GT)) return t.skip('samples/fastapi-mini is absent');
  const root = tempDir('spanproof-judge-cli-bad-');
  const r = await cli(['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--runs-dir', join(root, 'runs'), '--generate', '--endpoint', 'http://127.0.0.1:9/v1', '--generator-model', 'm', '--judge-model', 'm']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /judge model is the generator model/);
  assert.equal(existsSync(join(root, 'runs')), false, 'no run was started');
  const r2 = await cli(['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--runs-dir', join(root, 'runs'), '--generate', '--generator-model', 'a', '--judge-model', 'b']);
  assert.equal(r2.code, 2);
  assert.match(r2.stderr, /--endpoint/);
});

test('score ragas --endpoint adds the judge metrics (measured/total) and the ledger', async () => {
  const srv = await startFakeServer();
  try {
    const root = tempDir('spanproof-judge-score-');
    const file = join(root, 'ragas.jsonl');
    writeFileSync(file, [
      { user_input: 'What is the default port?', reference: 'The default port is 8000.', retrieved_contexts: ['The default port is 8000.'], response: 'The default port is 8000. It listens on all interfaces.' },
      { user_input: 'Where do logs go?', reference: 'Logs go to stderr.', retrieved_contexts: ['Paris is the capital of France.'], response: 'Logs go to stderr.' },
    ].map((x) => JSON.stringify(x)).join('\n') + '\n');
    const r = await cli(['score', 'ragas', file, '--metrics', 'f1', '--endpoint', srv.url, '--judge-model', 'judge', '--judge-metrics', 'faithfulness,answerCorrectness', '--judge-cache-dir', join(root, 'cache'), '--json']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    // Faithfulness: item 1 → 1 of 2 claims in its context, item 2 → 0 of 1: mean 0.25.
    assert.equal(out.aggregate['judge:faithfulness'].mean, 0.25);
    assert.equal(out.aggregate['judge:faithfulness'].measured, 2);
    // Answer correctness: item 1 F_1.5 = 1.625/2.125, item 2 = 1.
    assert.ok(Math.abs(out.aggregate['judge:answerCorrectness'].mean - (1.625 / 2.125 + 1) / 2) < 1e-9);
    assert.equal(out.ledger.requests, srv.requests.length);
  } finally {
    await srv.close();
  }
});

test('#16 item 16: score --endpoint where every judge request failed exits 2 (not 0 with empty judge metrics)', async () => {
  const srv = await startFakeServer({ script: () => ({ status: 503 }) });
  try {
    const root = tempDir('spanproof-judge-score-fail-');
    const file = join(root, 'ragas.jsonl');
    writeFileSync(file, JSON.stringify({ user_input: 'Q?', reference: 'A.', retrieved_contexts: ['A.'], response: 'A.' }) + '\n');
    const r = await cli(['score', 'ragas', file, '--metrics', 'f1', '--endpoint', srv.url, '--judge-model', 'judge', '--judge-metrics', 'relevance', '--no-judge-cache']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /every request to the endpoint failed/);
    assert.ok(r.stderr.indexOf(`to ${srv.url}`) >= 0, 'the endpoint is named before the requests');
  } finally {
    await srv.close();
  }
});

test('#16 item 16: generate / run --generate where every judge request fails (the generator answers) exit 2 with status failed; a partial judge failure stays succeeded and says how many failed', async (t) => {
  if (!existsSync(MINI_GT)) return t.skip('samples/fastapi-mini is absent');
  // The generator "g" answers; the judge "j" gets HTTP 500 (retried at once: retry-after-ms 0).
  const boom = { status: 500, headers: { 'retry-after-ms': '0' }, body: JSON.stringify({ error: { message: 'jboom' } }) };
  let failWhen: (req: { model: string; messages: Array<{ content: string }> }) => boolean = (req) => req.model === 'j';
  const srv = await startFakeServer({ script: (req) => (failWhen(req) ? boom : undefined) });
  try {
    const root = tempDir('spanproof-judge-cli-judgefail-');
    const runArgs = ['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--runs-dir', join(root, 'runs'), '--cache-dir', join(root, 'cache'), '--chunkers', 'heading', '--retrievers', 'bm25', '--rerank', 'off', '--json'];
    const flags = ['--endpoint', srv.url, '--generator-model', 'g', '--judge-model', 'j', '--judge-metrics', 'groundedness', '--generate-configs', 'heading/bm25/none', '--no-judge-cache'];
    const base = await cli(runArgs);
    assert.equal(base.code, 0, base.stderr);
    const runDir = JSON.parse(base.stdout).runDir as string;
    const ws = ['--workspace', MINI, '--groundtruth', MINI_GT];

    const g = await cli(['generate', runDir, ...ws, ...flags]);
    assert.equal(g.code, 2, `every judge request failed: exit 2 like every generator request failing\n${g.stdout}\n${g.stderr}`);
    assert.match(g.stderr, /every request to the judge model "j" failed/);
    assert.match(g.stderr, /jboom/);
    assert.match(g.stderr, /Fix: /);
    assert.doesNotMatch(g.stderr, /\n\s+at /, 'no stack trace');
    assert.equal(JSON.parse(readFileSync(join(runDir, 'ledger.json'), 'utf8')).status, 'failed');
    assert.equal(JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8')).answers.status, 'failed');

    // Only the judge requests about one question fail: succeeded, exit 0, and the output says how many failed.
    const q0 = (JSON.parse(readFileSync(MINI_GT, 'utf8')) as { questions: Array<{ question: string }> }).questions[0].question;
    failWhen = (req) => req.model === 'j' && req.messages.some((m) => m.content.includes(q0));
    const p = await cli(['generate', runDir, ...ws, ...flags, '--overwrite']);
    assert.equal(p.code, 0, p.stderr);
    assert.match(p.stdout, /measured 9\/10/);
    assert.match(p.stdout, /j: [1-9]\d* of \d+ request\(s\) failed/, p.stdout);
    assert.equal(JSON.parse(readFileSync(join(runDir, 'ledger.json'), 'utf8')).status, 'succeeded');
    // #16: only groundedness judged — r is against groundedness (it printed r(coverage@5, faithfulness) = —, n = 0)
    assert.match(p.stdout, /pooled r\(coverage@5, groundedness\) = \S+ \[\S+, \S+\], n = 9/, p.stdout);
    assert.doesNotMatch(p.stdout, /faithfulness/);
    // only the retrieval judge (it rates passages, not the answer): no r, and the output says why
    const onlyRetrieval = await cli(['generate', runDir, ...ws, ...flags.map((f) => (f === 'groundedness' ? 'retrieval' : f)), '--overwrite']);
    assert.equal(onlyRetrieval.code, 0, onlyRetrieval.stderr);
    assert.match(onlyRetrieval.stdout, /r\(coverage@5, answer quality\): not computed — no answer-quality judge among retrieval/);
    assert.doesNotMatch(onlyRetrieval.stdout, /r\(coverage@5, \w+\) =/);

    // run --generate: the same, exit 2, the retrieval run kept, status failed.
    failWhen = (req) => req.model === 'j';
    const r = await cli([...runArgs, '--generate', ...flags]);
    assert.equal(r.code, 2, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stderr, /every request to the judge model "j" failed/);
    const dirs = readdirSync(join(root, 'runs')).map((d) => join(root, 'runs', d)).filter((d) => d !== runDir && existsSync(join(d, 'ledger.json')));
    assert.equal(dirs.length, 1);
    assert.equal(JSON.parse(readFileSync(join(dirs[0], 'ledger.json'), 'utf8')).status, 'failed');
  } finally {
    await srv.close();
  }
});

test('#16 items 11, 16: generate / run --generate where no judge reply can be read (300 KB of "{") exit 2 with status failed; some unreadable stays succeeded with a warning', async (t) => {
  if (!existsSync(MINI_GT)) return t.skip('samples/fastapi-mini is absent');
  const garbage = { content: '{'.repeat(300 * 1024) };
  let badWhen: (req: { model: string; messages: Array<{ content: string }> }) => boolean = (req) => req.model === 'j';
  const srv = await startFakeServer({ script: (req) => (badWhen(req) ? garbage : undefined) });
  try {
    const root = tempDir('spanproof-judge-cli-unreadable-');
    const runArgs = ['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--runs-dir', join(root, 'runs'), '--cache-dir', join(root, 'cache'), '--chunkers', 'heading', '--retrievers', 'bm25', '--rerank', 'off', '--json'];
    const flags = ['--endpoint', srv.url, '--generator-model', 'g', '--judge-model', 'j', '--judge-metrics', 'groundedness', '--generate-configs', 'heading/bm25/none', '--no-judge-cache', '--judge-retries', '0'];
    const base = await cli(runArgs);
    assert.equal(base.code, 0, base.stderr);
    const runDir = JSON.parse(base.stdout).runDir as string;
    const ws = ['--workspace', MINI, '--groundtruth', MINI_GT];

    const g = await cli(['generate', runDir, ...ws, ...flags]);
    assert.equal(g.code, 2, `no judge score measured: not succeeded\n${g.stdout}\n${g.stderr}`);
    assert.match(g.stderr, /no reply of the judge model "j" could be read/);
    assert.match(g.stderr, /most often: unreadable judge reply/);
    assert.match(g.stderr, /Fix: .*JSON/);
    assert.doesNotMatch(g.stderr, /\n\s+at /);
    assert.equal(JSON.parse(readFileSync(join(runDir, 'ledger.json'), 'utf8')).status, 'failed');

    const q0 = (JSON.parse(readFileSync(MINI_GT, 'utf8')) as { questions: Array<{ question: string }> }).questions[0].question;
    badWhen = (req) => req.model === 'j' && req.messages.some((m) => m.content.includes(q0));
    const p = await cli(['generate', runDir, ...ws, ...flags, '--overwrite']);
    assert.equal(p.code, 0, p.stderr);
    assert.match(p.stdout, /measured 9\/10/);
    assert.match(p.stdout, /Warning: 1 of 10 judgement\(s\) unmeasured/, p.stdout);
    assert.equal(JSON.parse(readFileSync(join(runDir, 'ledger.json'), 'utf8')).status, 'succeeded');

    badWhen = (req) => req.model === 'j';
    const r = await cli([...runArgs, '--generate', ...flags]);
    assert.equal(r.code, 2, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stderr, /no reply of the judge model "j" could be read/);
  } finally {
    await srv.close();
  }
});

test('#16: a generate --overwrite killed with SIGKILL reads as interrupted with its partial answers — not as the previous generate\'s result; a re-run without --overwrite names the partial file', { timeout: 120000 }, async (t) => {
  if (!existsSync(MINI_GT)) return t.skip('samples/fastapi-mini is absent');
  let slow = false;
  const srv = await startFakeServer({ script: () => (slow ? { delayMs: 400 } : { status: 500, headers: { 'retry-after-ms': '0' }, body: JSON.stringify({ error: { message: 'boom' } }) }) });
  try {
    const root = tempDir('spanproof-judge-cli-kill-');
    const base = await cli(['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--runs-dir', join(root, 'runs'), '--cache-dir', join(root, 'cache'), '--chunkers', 'heading', '--retrievers', 'bm25', '--rerank', 'off', '--json']);
    assert.equal(base.code, 0, base.stderr);
    const runDir = JSON.parse(base.stdout).runDir as string;
    const flags = ['--workspace', MINI, '--groundtruth', MINI_GT, '--endpoint', srv.url, '--generator-model', 'g', '--judge-model', 'j', '--judge-metrics', 'groundedness', '--generate-configs', 'heading/bm25/none', '--no-judge-cache', '--judge-retries', '0'];
    const failed = await cli(['generate', runDir, ...flags]);
    assert.equal(failed.code, 2, failed.stderr);
    assert.equal(JSON.parse(readFileSync(join(runDir, 'ledger.json'), 'utf8')).status, 'failed');

    slow = true;
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'src', 'cli', 'main.ts'), 'generate', runDir, ...flags, '--overwrite', '--judge-concurrency', '2'], { cwd: REPO, env: { ...process.env, SPANPROOF_WORKER: join(REPO, 'src', 'worker', 'main.ts') }, stdio: 'ignore' });
    const partial = join(runDir, 'answers.partial.jsonl');
    const t0 = Date.now();
    while (!(existsSync(partial) && readFileSync(partial, 'utf8').split('\n').filter(Boolean).length >= 2) && Date.now() - t0 < 60000) await new Promise((r) => setTimeout(r, 100));
    const closed = new Promise((r) => child.on('close', r));
    child.kill('SIGKILL');
    await closed;
    const kept = readFileSync(partial, 'utf8').split('\n').filter(Boolean).length;
    assert.ok(kept >= 2, `kept ${kept}`);
    const ledger = JSON.parse(readFileSync(join(runDir, 'ledger.json'), 'utf8'));
    assert.equal(ledger.status, 'running', 'marked before the first request');
    assert.equal(ledger.writer.pid, child.pid);

    const rep = await cli(['report', runDir, '--out', '-']);
    assert.equal(rep.code, 0, rep.stderr);
    assert.match(rep.stdout, new RegExp(`\\*\\*interrupted\\*\\*: ${kept} answer\\(s\\) kept`), rep.stdout);
    assert.doesNotMatch(rep.stdout, /boom|failed:/);
    const again = await cli(['generate', runDir, ...flags]);
    assert.equal(again.code, 2, again.stderr);
    assert.match(again.stderr, /from a generate that was stopped/);
    assert.ok(again.stderr.includes('answers.partial.jsonl'), again.stderr);
  } finally {
    await srv.close();
  }
});

test('generate: a bad flag value (--judge-metrics nope, --judge-timeout, --judge-retries) is a plain exit-2 flag error before any request — not "answers status failed (ledger.json)"', async (t) => {
  if (!existsSync(MINI_GT)) return t.skip('samples/fastapi-mini is absent');
  const srv = await startFakeServer();
  try {
    const root = tempDir('spanproof-judge-cli-flags-');
    const base = await cli(['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--runs-dir', join(root, 'runs'), '--cache-dir', join(root, 'cache'), '--chunkers', 'heading', '--retrievers', 'bm25', '--rerank', 'off', '--json']);
    assert.equal(base.code, 0, base.stderr);
    const runDir = JSON.parse(base.stdout).runDir as string;
    const flags = ['--workspace', MINI, '--groundtruth', MINI_GT, '--endpoint', srv.url, '--generator-model', 'g', '--judge-model', 'j', '--no-judge-cache'];
    for (const [bad, field, valid] of [
      [['--judge-metrics', 'nope'], '--judge-metrics', /groundedness/],
      [['--judge-timeout', '0'], '--judge-timeout', /whole number from 1 to 2147483647/],
      [['--judge-retries', '-1'], '--judge-retries', /whole number from 0 to 10/],
      [['--judge-retries', 'x'], '--judge-retries', /whole number from 0 to 10/],
    ] as const) {
      const r = await cli(['generate', runDir, ...flags, ...bad]);
      assert.equal(r.code, 2, `${bad.join(' ')}: ${r.stderr}`);
      assert.ok(r.stderr.includes(field), r.stderr);
      assert.match(r.stderr, valid);
      assert.match(r.stderr, /Fix: /);
      assert.doesNotMatch(r.stderr, /answers status failed|ledger\.json|Sending/, r.stderr);
    }
    assert.equal(srv.requests.length, 0, 'nothing was sent');
    assert.equal(existsSync(join(runDir, 'ledger.json')), false, 'nothing was written');
    // run --generate checks them before the grid runs.
    const rr = await cli(['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--runs-dir', join(root, 'runs2'), '--generate', ...flags.slice(4), '--judge-timeout', 'soon']);
    assert.equal(rr.code, 2, rr.stderr);
    assert.match(rr.stderr, /--judge-timeout/);
    assert.equal(existsSync(join(root, 'runs2')), false, 'no run was started');
  } finally {
    await srv.close();
  }
});

test('generate: a hanging judge is cut at --judge-timeout with --judge-retries, or at the workspace settings spanproof.judge.timeoutMs / retries (not run.json\'s 60 s × 4)', { timeout: 120000 }, async (t) => {
  if (!existsSync(MINI_GT)) return t.skip('samples/fastapi-mini is absent');
  const srv = await startFakeServer({ script: (req) => (req.model === 'j' ? { hang: true } : undefined) });
  try {
    const root = tempDir('spanproof-judge-cli-timeout-');
    const ws = join(root, 'ws');
    cpSync(MINI, ws, { recursive: true });
    const base = await cli(['run', '--workspace', ws, '--groundtruth', MINI_GT, '--cache-dir', join(root, 'cache'), '--chunkers', 'heading', '--retrievers', 'bm25', '--rerank', 'off', '--json']);
    assert.equal(base.code, 0, base.stderr);
    const runDir = JSON.parse(base.stdout).runDir as string;
    const flags = ['--groundtruth', MINI_GT, '--endpoint', srv.url, '--generator-model', 'g', '--judge-model', 'j', '--judge-metrics', 'groundedness', '--generate-configs', 'heading/bm25/none', '--no-judge-cache', '--overwrite'];
    const judged = () => JSON.parse(readFileSync(join(runDir, 'ledger.json'), 'utf8')).byModel.j as { requests: number; retries: number };

    let t0 = Date.now();
    const f = await cli(['generate', runDir, ...flags, '--judge-timeout', '1500', '--judge-retries', '0']);
    assert.equal(f.code, 2, f.stderr); // every judge request failed (timed out)
    assert.match(f.stderr, /no reply within 1500 ms/);
    assert.ok(Date.now() - t0 < 40000, `took ${Date.now() - t0} ms`);
    assert.deepEqual([judged().requests, judged().retries], [10, 0]);

    // The workspace's .vscode/settings.json, read as `run` reads it (the run was made before it existed).
    mkdirSync(join(ws, '.vscode'), { recursive: true });
    writeFileSync(join(ws, '.vscode', 'settings.json'), '{\n  // JSONC as VS Code writes it\n  "spanproof.judge.timeoutMs": 1200,\n  "spanproof.judge.retries": 1,\n}\n');
    t0 = Date.now();
    const w = await cli(['generate', runDir, ...flags]);
    assert.equal(w.code, 2, w.stderr);
    assert.match(w.stderr, /no reply within 1200 ms/);
    assert.ok(Date.now() - t0 < 40000, `took ${Date.now() - t0} ms`);
    assert.deepEqual([judged().requests, judged().retries], [20, 10]);
    // A flag wins over the settings file.
    const o = await cli(['generate', runDir, ...flags, '--judge-retries', '0']);
    assert.equal(o.code, 2, o.stderr);
    assert.deepEqual([judged().requests, judged().retries], [10, 0]);
  } finally {
    await srv.close();
  }
});
