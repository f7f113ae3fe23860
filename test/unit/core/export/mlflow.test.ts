/**
 * MLflow export (issue #18 item 4) against a fake tracking server on 127.0.0.1 that the test starts:
 * it implements the REST 2.x endpoints the exporter uses and the mlflow-artifacts proxy, checks
 * MLflow's log-batch limits, records what it received and answers 413 once for a big body. The
 * export must arrive complete (every param, metric with its CI bounds, tag and artifact), survive the
 * 413, and a re-export must update the same MLflow run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runGrid } from '../../../../src/core/grid/run';
import { exportRunToMlflow, mlflowKey } from '../../../../src/core/export/mlflow';
import { runCli } from '../../../helpers/cli';
import { MINI, MINI_GT, smallSettings, tmp } from '../../../helpers/grid';

interface FakeRun { experiment: string; tags: Map<string, string>; params: Map<string, string>; metrics: Array<{ key: string; value: number; timestamp: number; step: number }>; status: string; artifacts: Map<string, string> }

async function fakeMlflow(bigBody: number) {
  const experiments = new Map<string, string>();
  const runs = new Map<string, FakeRun>();
  const log: Array<{ method: string; path: string; bytes: number; status: number }> = [];
  let refused413 = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url!, 'http://x');
      const reply = (status: number, body: unknown) => {
        log.push({ method: req.method!, path: url.pathname, bytes: raw.length, status });
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (raw.length > bigBody && refused413 === 0) { refused413++; return reply(413, { error_code: 'REQUEST_LIMIT_EXCEEDED' }); }
      const body = raw && req.method !== 'PUT' ? JSON.parse(raw) : {};
      const p = url.pathname;
      if (p === '/api/2.0/mlflow/experiments/get-by-name') {
        const id = experiments.get(url.searchParams.get('experiment_name')!);
        return id ? reply(200, { experiment: { experiment_id: id } }) : reply(404, { error_code: 'RESOURCE_DOES_NOT_EXIST' });
      }
      if (p === '/api/2.0/mlflow/experiments/create') { const id = String(experiments.size + 1); experiments.set(body.name, id); return reply(200, { experiment_id: id }); }
      if (p === '/api/2.0/mlflow/runs/search') {
        const want = /'([^']*)'/.exec(body.filter)?.[1];
        const hit = [...runs].find(([, r]) => r.experiment === body.experiment_ids[0] && r.tags.get('spanproof.run_id') === want);
        return reply(200, hit ? { runs: [{ info: { run_id: hit[0], artifact_uri: `mlflow-artifacts:/${hit[1].experiment}/${hit[0]}/artifacts` } }] } : {});
      }
      if (p === '/api/2.0/mlflow/runs/create') {
        const id = `run${runs.size + 1}`;
        runs.set(id, { experiment: body.experiment_id, tags: new Map(body.tags.map((t: { key: string; value: string }) => [t.key, t.value])), params: new Map(), metrics: [], status: 'RUNNING', artifacts: new Map() });
        return reply(200, { run: { info: { run_id: id, artifact_uri: `mlflow-artifacts:/${body.experiment_id}/${id}/artifacts` } } });
      }
      if (p === '/api/2.0/mlflow/runs/log-batch') {
        const r = runs.get(body.run_id)!;
        const m = body.metrics ?? [], pa = body.params ?? [], t = body.tags ?? [];
        if (m.length > 1000 || pa.length > 100 || t.length > 100 || m.length + pa.length + t.length > 1000) return reply(400, { error_code: 'INVALID_PARAMETER_VALUE' });
        for (const x of pa) { if (r.params.has(x.key) && r.params.get(x.key) !== x.value) return reply(400, { error_code: 'INVALID_PARAMETER_VALUE', message: `param ${x.key} changed` }); r.params.set(x.key, x.value); }
        for (const x of t) r.tags.set(x.key, x.value);
        for (const x of m) if (!r.metrics.some((y) => y.key === x.key && y.value === x.value && y.timestamp === x.timestamp && y.step === x.step)) r.metrics.push(x);
        return reply(200, {});
      }
      if (p === '/api/2.0/mlflow/runs/update') { runs.get(body.run_id)!.status = body.status; return reply(200, {}); }
      const art = /^\/api\/2\.0\/mlflow-artifacts\/artifacts\/(\d+)\/(run\d+)\/artifacts\/(.+)$/.exec(p);
      if (req.method === 'PUT' && art) { runs.get(art[2])!.artifacts.set(decodeURIComponent(art[3]), raw); return reply(200, {}); }
      return reply(404, { error_code: 'ENDPOINT_NOT_FOUND' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, experiments, runs, log, refused: () => refused413, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** An artifact as uploaded: whole, or its numbered parts concatenated. */
function artifact(r: FakeRun, name: string): string | undefined {
  if (r.artifacts.has(name)) return r.artifacts.get(name);
  const parts = [...r.artifacts.keys()].filter((k) => k.startsWith(`${name}.part-`)).sort();
  return parts.length ? parts.map((k) => r.artifacts.get(k)).join('') : undefined;
}

test('an export reaches the fake tracking server complete, survives a 413, and a re-export updates the same run', async () => {
  const root = tmp('mlflow');
  const settings = smallSettings();
  const g = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings, outDir: join(root, 'run'), cacheDir: join(root, 'cache') });
  const server = await fakeMlflow(20_000);
  try {
    const r1 = await exportRunToMlflow(g.runDir!, { trackingUri: server.origin, experiment: 'fastapi-mini', maxBodyBytes: 60_000 });
    assert.equal(server.refused(), 1, 'the fake answered 413 once');
    assert.ok(server.log.some((l) => l.status === 413) && server.log.every((l) => l.status < 400 || l.status === 413 || (l.status === 404 && l.path.endsWith('get-by-name'))), JSON.stringify(server.log.filter((l) => l.status >= 400)));
    assert.equal(r1.created, true);
    assert.equal(server.runs.size, 1);
    const run = server.runs.get(r1.runId)!;
    assert.equal(run.status, 'FINISHED');
    // params: settings, hashes, version
    const results = JSON.parse(readFileSync(join(g.runDir!, 'results.json'), 'utf8'));
    const runJson = JSON.parse(readFileSync(join(g.runDir!, 'run.json'), 'utf8'));
    assert.equal(run.params.get('settings.k'), '5');
    assert.equal(run.params.get('settings.chunkers'), JSON.stringify(settings.chunkers));
    assert.equal(run.params.get('corpus_hash'), runJson.corpusHash);
    assert.equal(run.params.get('groundtruth_hash'), runJson.groundTruthHash);
    assert.equal(run.params.get('tool_version'), runJson.toolVersion);
    assert.equal(run.params.size, r1.params);
    // metrics: every config × metric, mean and CI bounds, under MLflow-legal keys
    let expected = 0;
    for (const c of results.configs) for (const [m, v] of Object.entries(c.metrics as Record<string, { mean: number; lo: number; hi: number }>)) {
      for (const [suffix, x] of [['', v.mean], ['/lo', v.lo], ['/hi', v.hi]] as const) {
        if (x === null) continue;
        expected++;
        const got = run.metrics.find((y) => y.key === `${mlflowKey(`${c.id}/${m}`)}${suffix}`);
        assert.ok(got, `${c.id}/${m}${suffix}`);
        assert.equal(got.value, x);
      }
    }
    assert.equal(run.metrics.length, expected);
    assert.ok(run.metrics.some((y) => y.key === 'heading/bm25/none/hit_at_5/lo'));
    for (const k of [...run.params.keys(), ...run.metrics.map((y) => y.key)]) assert.match(k, /^[A-Za-z0-9_\-. /]{1,250}$/, k);
    // tags
    assert.equal(run.tags.get('spanproof.run_id'), runJson.id);
    assert.equal(run.tags.get('spanproof.verdict'), g.verdict.recommended);
    assert.equal(run.tags.get('spanproof.status'), g.verdict.status);
    // artifacts, in bounded requests
    for (const f of ['results.json', 'ranking.json', 'questions.jsonl']) assert.equal(artifact(run, f), readFileSync(join(g.runDir!, f), 'utf8'), f);
    assert.match(artifact(run, 'report.html')!, /<html/);
    assert.match(artifact(run, 'heatmap.csv')!, /^document,mini-01,/);
    assert.ok(server.log.every((l) => l.bytes <= 60_000), 'every request within maxBodyBytes');
    assert.ok([...run.artifacts.keys()].some((k) => k.startsWith('questions.jsonl.part-')), 'the big questions.jsonl went in parts');
    // re-export: same MLflow run, nothing duplicated
    const before = run.metrics.length;
    const r2 = await exportRunToMlflow(g.runDir!, { trackingUri: server.origin, experiment: 'fastapi-mini', maxBodyBytes: 60_000 });
    assert.equal(r2.runId, r1.runId);
    assert.equal(r2.created, false);
    assert.equal(server.runs.size, 1);
    assert.equal(run.metrics.length, before);
    // the CLI command
    const cli = await runCli(['export', 'mlflow', g.runDir!, '--tracking-uri', server.origin, '--experiment', 'fastapi-mini']);
    assert.equal(cli.code, 0, cli.stderr);
    assert.equal(server.runs.size, 1);
    // the setting: export after every run
    const cfg = join(root, 'cfg.json');
    writeFileSync(cfg, JSON.stringify({ chunkers: ['heading'], retrievers: ['bm25'], rerank: [false], mlflow: { trackingUri: server.origin, experiment: 'after-run' } }));
    const auto = await runCli(['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--config', cfg, '--runs-dir', join(root, 'runs'), '--cache-dir', join(root, 'cache')]);
    assert.equal(auto.code, 0, auto.stderr);
    assert.match(auto.stderr, /exported to MLflow: run run2 \(created\)/);
    assert.ok(server.experiments.has('after-run'));
    assert.equal(server.runs.get('run2')!.status, 'FINISHED');
    const down = await runCli(['export', 'mlflow', g.runDir!, '--tracking-uri', 'http://127.0.0.1:9']);
    assert.equal(down.code, 2, down.stderr);
    assert.match(down.stderr, /MLflow experiment lookup at http:\/\/127\.0\.0\.1:9 failed/);
  } finally {
    await server.close();
  }
});

test('#16 item 15: a server that is not MLflow (200 {} to everything) is exit 2 "did not answer like an MLflow tracking server" with a Fix — not "Cannot read properties of undefined (reading \'experiment_id\')"', async () => {
  const root = tmp('mlflow-notmlflow');
  const g = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings: smallSettings(), outDir: join(root, 'run'), cacheDir: join(root, 'cache') });
  let reply = '{}';
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.url?.includes('get-by-name') || reply === '{}' ? reply : JSON.stringify({ runs: [{}] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const r = await runCli(['export', 'mlflow', g.runDir!, '--tracking-uri', origin]);
    assert.equal(r.code, 2, r.stderr);
    assert.ok(r.stderr.includes(`the server at ${origin} did not answer like an MLflow tracking server (no experiment_id in the reply to experiments/get-by-name)`), r.stderr);
    assert.match(r.stderr, /Fix: check --tracking-uri/);
    assert.doesNotMatch(r.stderr, /Cannot read properties|\n\s+at /);
    // the experiment is found, but runs/search answers runs without info
    reply = JSON.stringify({ experiment: { experiment_id: '1' } });
    await assert.rejects(exportRunToMlflow(g.runDir!, { trackingUri: origin, retries: 0 }), /no run_id in the reply to runs\/search/);
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
});
