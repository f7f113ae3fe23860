/**
 * Issue #16 item 16: a run whose writer is killed (SIGKILL: no final run.json) said `running` forever.
 * A real child process creates the run through RunWriter and is killed with SIGKILL; while it lives the
 * run lists as `running`, afterwards `listRuns` and `readRun` say `interrupted` with an error saying what
 * happened, `spanproof runs` lists it so, and the report says so instead of empty tables.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { listRuns, readRun } from '../../../../src/core/runs';
import { renderMarkdown } from '../../../../src/core/report';
import { runCli } from '../../../helpers/cli';
import { REPO } from '../../../helpers/paths';
import { tmp } from '../../../helpers/grid';

test('a running run whose writing process was killed reads and lists as interrupted', async (t) => {
  const root = tmp('interrupted');
  const runs = join(root, 'runs');
  const child = join(root, 'writer.ts');
  const src = pathToFileURL(join(REPO, 'src', 'core', 'runs', 'write.ts')).href;
  const settings = pathToFileURL(join(REPO, 'src', 'core', 'settings', 'index.ts')).href;
  writeFileSync(child, `import { RunWriter } from ${JSON.stringify(src)};
import { DEFAULT_SETTINGS } from ${JSON.stringify(settings)};
const w = RunWriter.create({ workspace: ${JSON.stringify(root)}, runsRoot: ${JSON.stringify(runs)}, inputsKey: 'k', init: { status: 'running', progress: { finished: 0, total: 10 }, error: null, startedAt: new Date().toISOString(), endedAt: null, toolVersion: '0', settings: DEFAULT_SETTINGS, workspace: ${JSON.stringify(root)}, groundTruthFile: 'gt.json', corpusHash: '', groundTruthHash: '', acceptance: null, seed: 1 } });
process.stdout.write(w.dir + '\\n');
setInterval(() => {}, 1000);
`);
  const p = spawn(process.execPath, ['--import', 'tsx', child], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => { if (p.exitCode === null) p.kill('SIGKILL'); });
  const [line] = (await once(p.stdout, 'data')) as [Buffer];
  const dir = line.toString().trim();
  assert.equal(JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')).writer.pid, p.pid, 'run.json names its writer');
  assert.equal(listRuns(runs)[0].status, 'running', 'a live writer: running');
  p.kill('SIGKILL');
  await once(p, 'exit');
  assert.equal(JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')).status, 'running', 'the file itself still says running');
  assert.equal(listRuns(runs)[0].status, 'interrupted');
  const data = readRun(dir);
  assert.equal(data.run.status, 'interrupted');
  assert.match(data.run.error!.message, new RegExp(`the process that wrote this run \\(pid ${p.pid}\\) ended before the run finished`));
  assert.match(renderMarkdown(data), /status: \*\*interrupted\*\*[^\n]*\n[\s\S]*- error: interrupted: the process that wrote this run/);
  const listed = await runCli(['runs', '--runs-dir', runs, '--json']);
  assert.equal(listed.code, 0, listed.stderr);
  assert.deepEqual((JSON.parse(listed.stdout) as Array<{ status: string }>).map((r) => r.status), ['interrupted']);
  const human = await runCli(['runs', '--runs-dir', runs]);
  assert.match(human.stdout, /interrupted/);
});
