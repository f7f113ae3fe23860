/**
 * Run directories when the workspace cannot hold them: runs and caches go to the per-user cache
 * directory and run.json says where and why — never a crash. (Permissions cannot be used to make a
 * folder unwritable when tests run as root, so `.spanproof` is made a FILE, which no folder can be
 * created under.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { spawnSync } from 'node:child_process';
import { runGrid } from '../../../../src/core/grid/run';
import { createRunDir, listRuns, resolveCacheDir, resolveRunsRoot, utcStamp } from '../../../../src/core/runs';
import { isSpanproofError } from '../../../../src/core/errors';
import { MINI, MINI_GT, smallSettings, tmp } from '../../../helpers/grid';
import { asUnprivileged } from '../../../helpers/unprivileged';
import { thrown } from '../../../helpers/thrown';

test('an unwritable workspace sends the run to the user cache dir and run.json says so', async () => {
  const root = tmp('ro');
  const ws = join(root, 'ws');
  cpSync(MINI, ws, { recursive: true, filter: (src) => !src.includes('.spanproof') });
  writeFileSync(join(ws, '.spanproof'), 'not a folder');
  process.env.SPANPROOF_CACHE_DIR = join(root, 'usercache');
  const where = resolveRunsRoot(ws);
  assert.equal(where.location.kind, 'user-cache');
  assert.ok(where.root.startsWith(join(root, 'usercache', 'workspaces')));
  const r = await runGrid({ workspace: ws, groundTruthFile: MINI_GT, settings: smallSettings({ chunkers: ['heading'], retrievers: ['bm25'], rerank: [false] }) });
  assert.equal(r.location?.kind, 'user-cache');
  assert.ok(r.runDir!.startsWith(join(root, 'usercache')));
  assert.ok(r.warnings.some((w) => w.includes('not writable')));
  const run = JSON.parse(readFileSync(join(r.runDir!, 'run.json'), 'utf8'));
  assert.equal(run.location.kind, 'user-cache');
  assert.match(run.location.reason, /not writable/);
  assert.equal(listRuns(where.root)[0].dir, r.runDir);
});

test('run ids are <UTC timestamp>-<8 hex> and never collide within a second', () => {
  assert.equal(utcStamp(new Date('2026-11-29T13:05:09.123Z')), '20261129T130509Z');
  const root = tmp('ids');
  const now = new Date('2026-11-29T13:05:09Z');
  const a = createRunDir({ workspace: root, runsRoot: root, inputsKey: 'x', now });
  const b = createRunDir({ workspace: root, runsRoot: root, inputsKey: 'x', now });
  assert.match(a.id, /^20261129T130509Z-[0-9a-f]{8}$/);
  assert.notEqual(a.dir, b.dir);
});

test('--out refuses a non-empty folder, an earlier run folder (never overwritten) and a file; a new or empty folder is used', () => {
  const root = tmp('out');
  writeFileSync(join(root, 'results.json'), 'my own file');
  assert.throws(() => createRunDir({ workspace: root, outDir: root, inputsKey: 'x' }), /not empty and is not a Spanproof run directory/);
  assert.equal(readFileSync(join(root, 'results.json'), 'utf8'), 'my own file');
  const prev = join(root, 'prev');
  const a = createRunDir({ workspace: root, outDir: prev, inputsKey: 'x' });
  assert.equal(a.dir, prev);
  writeFileSync(join(a.dir, 'run.json'), '{"earlier":true}');
  assert.throws(() => createRunDir({ workspace: root, outDir: prev, inputsKey: 'x' }), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && e.file === prev && /holds an earlier run/.test(e.message) && /choose a new folder with --out, or delete/.test(e.fix ?? ''));
  assert.equal(readFileSync(join(prev, 'run.json'), 'utf8'), '{"earlier":true}');
  // A run that ended without results is named as such (fresh-user #13: "holds an earlier run" read as if results were there).
  const message = (runJson: string) => {
    writeFileSync(join(a.dir, 'run.json'), runJson);
    const m = thrown(() => createRunDir({ workspace: root, outDir: prev, inputsKey: 'x' })).message;
    return m.slice(`${prev}: `.length, m.indexOf(' Fix: '));
  };
  assert.equal(message('{"status":"cancelled"}'), 'the output folder holds an earlier run that ended without results (run.json status cancelled); a run is never overwritten.');
  assert.equal(message('{"status":"running"}'), 'the output folder holds an earlier run that ended without results (run.json status running); a run is never overwritten.');
  // run.json names its writer: alive on this host → still going; gone → interrupted (liveness.ts).
  assert.equal(message(JSON.stringify({ status: 'running', writer: { pid: process.pid, host: hostname() } })), `the output folder holds a run that is still going (pid ${process.pid}); a run is never overwritten.`);
  assert.match(thrown(() => createRunDir({ workspace: root, outDir: prev, inputsKey: 'x' })).message, /wait for that run to end/);
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  assert.equal(message(JSON.stringify({ status: 'running', writer: { pid: Number(gone.stdout), host: hostname() } })), 'the output folder holds an earlier run that ended without results (run.json status interrupted); a run is never overwritten.');
  for (const plain of ['{"status":"succeeded"}', 'not json', 'null', '{"status":"<b>x</b>"}']) assert.equal(message(plain), 'the output folder holds an earlier run; a run is never overwritten.', plain);
  const file = join(root, 'results.json');
  assert.throws(() => createRunDir({ workspace: root, outDir: file, inputsKey: 'x' }), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && e.file === file && /is a file, not a folder/.test(e.message));
  // A path under a file cannot be created: bad input naming the path and the reason, not an internal ENOTDIR.
  assert.throws(() => createRunDir({ workspace: root, outDir: join(file, 'sub'), inputsKey: 'x' }), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && /ENOTDIR/.test(e.message));
  assert.throws(() => createRunDir({ workspace: root, runsRoot: file, inputsKey: 'x' }), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && e.file === file && /--runs-dir/.test(e.fix ?? ''));
  assert.throws(() => resolveCacheDir(root, file), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && e.file === file && /--cache-dir/.test(e.fix ?? ''));
  const empty = join(root, 'empty');
  mkdirSync(empty);
  assert.equal(createRunDir({ workspace: root, outDir: empty, inputsKey: 'x' }).dir, empty);
});

test('an unwritable --out or --runs-dir is bad input naming the path and the fix (EACCES)', (t) => {
  if (asUnprivileged(t, __filename)) return; // root writes into a 0500 folder: re-run as nobody
  const root = tmp('eacces');
  const locked = join(root, 'locked');
  mkdirSync(locked);
  chmodSync(locked, 0o500);
  try {
    for (const f of [() => createRunDir({ workspace: root, outDir: join(locked, 'run'), inputsKey: 'x' }), () => createRunDir({ workspace: root, runsRoot: join(locked, 'runs'), inputsKey: 'x' })]) {
      assert.throws(f, (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && /EACCES/.test(e.message) && e.file!.startsWith(locked));
    }
  } finally {
    chmodSync(locked, 0o700);
  }
});

test('after editing one document a warm run re-chunks only that document, and its results match a cold run', async () => {
  const root = tmp('edit');
  const ws = join(root, 'ws');
  cpSync(MINI, ws, { recursive: true, filter: (src) => !src.includes('.spanproof') });
  const settings = smallSettings({ chunkers: ['heading', 'fixed'], retrievers: ['bm25', 'dense'], rerank: [false] });
  const cacheDir = join(root, 'cache');
  await runGrid({ workspace: ws, groundTruthFile: MINI_GT, settings, runsRoot: join(root, 'runs'), cacheDir });
  const file = join(ws, 'advanced', 'background-tasks.md');
  writeFileSync(file, readFileSync(file, 'utf8') + '\n## Appendix\n\nA paragraph added after the first run.\n');
  const warm = await runGrid({ workspace: ws, groundTruthFile: MINI_GT, settings, runsRoot: join(root, 'runs'), cacheDir });
  const cold = await runGrid({ workspace: ws, groundTruthFile: MINI_GT, settings, runsRoot: join(root, 'runs'), cacheDir: join(root, 'cold') });
  assert.equal(warm.timings.perChunker.heading.cacheHit, false);
  // 4 documents: the 3 unchanged ones come from the chunk cache, the edited one is re-chunked.
  for (const c of ['heading', 'fixed']) assert.equal(warm.timings.perChunker[c].cachedDocs, 3, c);
  assert.equal(cold.timings.perChunker.heading.cachedDocs, 0);
  assert.deepEqual(readFileSync(join(warm.runDir!, 'results.json'), 'utf8'), readFileSync(join(cold.runDir!, 'results.json'), 'utf8'));
});

test('no writable cache folder at all (workspace and user cache dir) is bad input naming the folder, with a fix (#16 N7: it was a bare EACCES, exit 3)', (t) => {
  const root = tmp('nocache');
  writeFileSync(join(root, '.spanproof'), 'not a folder'); // the workspace cannot hold .spanproof/cache
  writeFileSync(join(root, 'home'), 'not a folder'); // nor the user cache dir: XDG_CACHE_HOME under a file
  const saved = { SPANPROOF_CACHE_DIR: process.env.SPANPROOF_CACHE_DIR, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME };
  t.after(() => Object.assign(process.env, saved));
  delete process.env.SPANPROOF_CACHE_DIR;
  process.env.XDG_CACHE_HOME = join(root, 'home', 'cache');
  const e = thrown(() => resolveCacheDir(root));
  assert.equal(e.code, 'bad-input');
  assert.match(e.file ?? '', new RegExp(`^${join(root, 'home', 'cache', 'spanproof', 'workspaces').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/[0-9a-f]{12}/cache$`));
  assert.ok(e.message.endsWith(`: the user cache folder cannot be written (a part of the path is a file, ENOTDIR), nor can the workspace's ${join(root, '.spanproof', 'cache')} (a part of the path is a file, ENOTDIR). Fix: pass a writable folder with --cache-dir, or set XDG_CACHE_HOME (or SPANPROOF_CACHE_DIR) to one.`), e.message);
  assert.equal(e.fix, 'pass a writable folder with --cache-dir, or set XDG_CACHE_HOME (or SPANPROOF_CACHE_DIR) to one.');
});

test('listRuns: newest first by startedAt, whatever the folder names (--out names); a runs folder that is a file is bad input, not ENOTDIR', async () => {
  const root = tmp('list-order');
  const runs = join(root, 'runs');
  const r = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings: smallSettings(), cacheDir: join(root, 'cache'), runsRoot: runs });
  const base = JSON.parse(readFileSync(join(r.runDir!, 'run.json'), 'utf8'));
  const copy = (name: string, startedAt: string) => {
    cpSync(r.runDir!, join(runs, name), { recursive: true });
    writeFileSync(join(runs, name, 'run.json'), JSON.stringify({ ...base, id: name, startedAt }));
  };
  copy('zzz-old', '2020-01-01T00:00:00.000Z');
  copy('aaa-new', '2030-01-01T00:00:00.000Z');
  assert.deepEqual(listRuns(runs).map((x) => x.id), ['aaa-new', base.id, 'zzz-old']);
  const file = join(root, 'runs-file');
  writeFileSync(file, 'x');
  assert.throws(() => listRuns(file), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && e.file === file && /is a file, not a folder/.test(e.message) && /--runs-dir/.test(e.fix ?? ''));
});
