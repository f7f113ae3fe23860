/**
 * Chunkers in a second thread (issue #13, src/core/grid/parallel.ts, src/worker/chunkerPool.ts): a run
 * whose chunkers are shared between this thread and a worker_threads chunker thread writes the same
 * results.json, ranking.json, questions.jsonl and evidence.json bytes as a one-thread run (all five
 * chunkers, dense + hybrid + rerank; a sharded run too), the thread really ran chunkers, and the
 * run-wide caches (pair scores, token counts) hold the thread's entries (one writer). A thread that
 * cannot start leaves a warning and the same bytes; a cancel stops both threads.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { runGrid } from '../../../../src/core/grid/run';
import type { ChunkerThread, ChunkerThreadFactory, ChunkerThreadResult } from '../../../../src/core/grid/parallel';
import { coldCost, runChunkers } from '../../../../src/core/grid/schedule';
import { RunProgress } from '../../../../src/core/grid/progress';
import type { EngineContext } from '../../../../src/core/grid/engine';
import type { ChunkerId } from '../../../../src/core/types';
import { CANCEL_WAIT_MS, gridThreads, workerChunkerThreads } from '../../../../src/worker/chunkerPool';
import { profileWanted } from '../../../../src/worker/profile';
import { isSpanproofError, SpanproofError } from '../../../../src/core/errors';
import { MINI, MINI_GT, REPO, readText, smallSettings, tmp } from '../../../helpers/grid';

const FILES = ['results.json', 'ranking.json', 'questions.jsonl', 'evidence.json'];
const THREAD_TS = join(REPO, 'src', 'worker', 'chunkerThread.ts');

/**
 * A factory over the TypeScript thread entry that counts the chunkers the thread finished. Its
 * `ready` resolves at once, so the engine hands the thread the second chunker at the start (the
 * thread then loads its models before running it) — without that, this thread could finish the small
 * sample before the thread had loaded tsx and its models, and the thread would run nothing.
 */
function countingThreads(path = THREAD_TS): { factory: ChunkerThreadFactory; ran: string[] } {
  const ran: string[] = [];
  const inner = workerChunkerThreads(path);
  const factory: ChunkerThreadFactory = (init) => {
    const t = inner(init);
    return {
      ...t,
      ready: Promise.resolve(),
      run: async (job, onUnits) => {
        const r = await t.run(job, onUnits);
        ran.push(job.chunker);
        return r;
      },
    };
  };
  return { factory, ran };
}

/** The keys of every `<cacheDir>/<sub>/*.json` number-map file. */
function cacheKeys(cacheDir: string, sub: string): string[] {
  const dir = join(cacheDir, sub);
  return readdirSync(dir).flatMap((f) => Object.keys(JSON.parse(readText(join(dir, f))).scores)).sort();
}

function assertSameBytes(a: string, b: string, what: string): void {
  for (const f of FILES) assert.equal(readText(join(b, f)), readText(join(a, f)), `${what}: ${f} equals the one-thread run's`);
}

const ALL = smallSettings({ chunkers: ['fixed', 'recursive', 'sentence', 'heading', 'semantic'], retrievers: ['bm25', 'dense', 'hybrid'], rerank: [false, true] });

test('all five chunkers shared with a chunker thread: the same bytes as one thread, the thread ran some, the caches hold its entries', async () => {
  const root = tmp('thread-bytes');
  const one = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings: ALL, outDir: join(root, 'one'), cacheDir: join(root, 'c1'), resident: false });
  const { factory, ran } = countingThreads();
  const two = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings: ALL, outDir: join(root, 'two'), cacheDir: join(root, 'c2'), resident: false }, { chunkerThreads: factory });
  assertSameBytes(one.runDir!, two.runDir!, 'cold');
  assert.ok(ran.length >= 1, `the thread ran at least one chunker (ran: ${ran.join(', ')})`);
  assert.ok(ran.length < 5, 'this thread ran at least one too');
  // timings.json says which thread ran each chunker, and when it started (ms after the process started)
  const per = JSON.parse(readText(join(two.runDir!, 'timings.json'))).perChunker as Record<string, { thread: number; startMs: number }>;
  for (const c of ALL.chunkers) assert.equal(per[c].thread, ran.includes(c) ? 2 : 1, c);
  for (const c of ALL.chunkers) assert.ok(per[c].startMs > 0 && per[c].startMs <= process.uptime() * 1000, `${c} startMs ${per[c].startMs}`);
  assert.deepEqual(two.warnings, one.warnings);
  // The host wrote the run-wide caches with the thread's entries: the same keys as the one-thread run.
  assert.deepEqual(cacheKeys(join(root, 'c2'), 'rerank'), cacheKeys(join(root, 'c1'), 'rerank'));
  assert.deepEqual(cacheKeys(join(root, 'c2'), 'tokens'), cacheKeys(join(root, 'c1'), 'tokens'));
  // Warm (every cache written by the threaded run): still the same bytes.
  const warm = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings: ALL, outDir: join(root, 'warm'), cacheDir: join(root, 'c2'), resident: false }, { chunkerThreads: countingThreads().factory });
  assertSameBytes(one.runDir!, warm.runDir!, 'warm');
});

test('a sharded run with a chunker thread writes the same bytes as the shard in one thread', async () => {
  const root = tmp('thread-shard');
  const settings = smallSettings({ chunkers: ['fixed', 'recursive', 'sentence'] });
  const shard = { index: 1, count: 2 };
  const one = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings, outDir: join(root, 'one'), cacheDir: join(root, 'c1'), resident: false, shard });
  const two = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings, outDir: join(root, 'two'), cacheDir: join(root, 'c2'), resident: false, shard }, { chunkerThreads: countingThreads().factory });
  assertSameBytes(one.runDir!, two.runDir!, 'shard 1/2');
  assert.equal(readText(join(two.runDir!, 'shard-items.jsonl')).length > 0, true);
});

test('a chunker thread that cannot start: the run goes on in one thread, same bytes, one warning naming why', async () => {
  const root = tmp('thread-missing');
  const settings = smallSettings();
  const one = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings, outDir: join(root, 'one'), cacheDir: join(root, 'c1'), resident: false });
  const two = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings, outDir: join(root, 'two'), cacheDir: join(root, 'c2'), resident: false }, { chunkerThreads: workerChunkerThreads(join(root, 'no-such-thread.js')) });
  assertSameBytes(one.runDir!, two.runDir!, 'fallback');
  const extra = two.warnings.filter((w) => !one.warnings.includes(w));
  assert.equal(extra.length, 1, extra.join('\n'));
  assert.match(extra[0], /second grid thread stopped \(the chunker thread could not start: the chunker thread script is missing: .*no-such-thread\.js\); the run went on in one thread/);
});

test('a cancel during a threaded run stops it with code cancelled and run.json cancelled', async () => {
  const root = tmp('thread-cancel');
  const ac = new AbortController();
  let seenThreadUnits = false;
  const inner = workerChunkerThreads(THREAD_TS);
  const factory: ChunkerThreadFactory = (init) => {
    const t = inner(init);
    return { ...t, ready: Promise.resolve(), run: (job, onUnits) => t.run(job, (u) => { seenThreadUnits = true; onUnits(u); ac.abort(); }) };
  };
  await assert.rejects(
    runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings: ALL, outDir: join(root, 'run'), cacheDir: join(root, 'c'), resident: false }, { chunkerThreads: factory, signal: ac.signal }),
    (e: unknown) => isSpanproofError(e) && e.code === 'cancelled',
  );
  assert.ok(seenThreadUnits, 'the thread was working when the cancel came');
  assert.equal(JSON.parse(readText(join(root, 'run', 'run.json'))).status, 'cancelled');
});

test('SPANPROOF_GRID_THREADS: 1 or 2, unset = 2 on ≥ 2 cores; another value is bad input naming the variable', () => {
  assert.equal(gridThreads({ SPANPROOF_GRID_THREADS: '1' }), 1);
  assert.equal(gridThreads({ SPANPROOF_GRID_THREADS: ' 2 ' }), 2);
  assert.equal(gridThreads({}), availableParallelism() >= 2 ? 2 : 1);
  assert.equal(gridThreads({ SPANPROOF_GRID_THREADS: '' }), gridThreads({}));
  for (const v of ['0', '3', 'two', '1.5']) {
    assert.throws(() => gridThreads({ SPANPROOF_GRID_THREADS: v }), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && e.field === 'SPANPROOF_GRID_THREADS' && /Fix/.test(`${e.message} Fix: ${e.fix}`));
  }
});

test('the built CLI (dist/cli.js with dist/chunker-thread.js): two threads write the same run files as SPANPROOF_GRID_THREADS=1', () => {
  const root = tmp('thread-cli');
  const run = (threads: string) => {
    const r = spawnSync(process.execPath, [join(REPO, 'dist', 'cli.js'), 'run', '--workspace', MINI, '--groundtruth', MINI_GT, '--chunkers', 'fixed,sentence,heading', '--out', join(root, `t${threads}`), '--cache-dir', join(root, `c${threads}`), '--json'], {
      cwd: REPO, encoding: 'utf8', env: { ...process.env, SPANPROOF_GRID_THREADS: threads },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /second grid thread/);
    return join(root, `t${threads}`);
  };
  const two = run('2');
  assertSameBytes(run('1'), two, 'CLI');
  // perChunker.startMs counts from the run's start, as totalMs does (it counted from the process's start).
  const timings = JSON.parse(readText(join(two, 'timings.json'))) as { totalMs: number; perChunker: Record<string, { startMs: number; wallMs: number; thread: number }> };
  for (const [chunker, t] of Object.entries(timings.perChunker)) {
    assert.ok(t.startMs >= 0 && t.startMs + t.wallMs <= timings.totalMs + 1, `${chunker}: starts at ${t.startMs} ms, ${t.wallMs} ms long, in a run of ${timings.totalMs} ms`);
  }
});

test('the built CLI: SPANPROOF_GRID_THREADS is checked with --profile too; an explicit 2 there is said to be unused; run --help describes both variables', () => {
  const root = tmp('thread-profile');
  const run = (threads: string, out: string) => spawnSync(process.execPath, [join(REPO, 'dist', 'cli.js'), 'run', '--workspace', MINI, '--groundtruth', MINI_GT, '--chunkers', 'heading', '--out', join(root, out), '--cache-dir', join(root, 'c'), '--profile', '--json'], {
    cwd: REPO, encoding: 'utf8', env: { ...process.env, SPANPROOF_GRID_THREADS: threads },
  });
  const bad = run('abc', 'bad');
  assert.equal(bad.status, 2, bad.stderr);
  assert.match(bad.stderr, /^spanproof: SPANPROOF_GRID_THREADS is "abc", not 1 or 2\. Fix: /);
  const two = run('2', 'two');
  assert.equal(two.status, 0, two.stderr);
  assert.match(two.stderr, /warning: SPANPROOF_GRID_THREADS=2 is not used: a profiled run/);
  // A SPANPROOF_PROFILE typo was ignored (the run went unprofiled without a word): now exit 2 naming it.
  for (const typo of ['yes', 'l', '2']) {
    const r = spawnSync(process.execPath, [join(REPO, 'dist', 'cli.js'), 'run', '--workspace', MINI, '--groundtruth', MINI_GT, '--chunkers', 'heading', '--out', join(root, `typo-${typo}`), '--cache-dir', join(root, 'c'), '--json'], {
      cwd: REPO, encoding: 'utf8', env: { ...process.env, SPANPROOF_PROFILE: typo },
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`^spanproof: SPANPROOF_PROFILE is "${typo}", not 1 or 0\\. Fix: set SPANPROOF_PROFILE=1`));
    assert.equal(existsSync(join(root, `typo-${typo}`)), false, 'nothing is created for a bad setting');
  }
  assert.equal(profileWanted(undefined, { SPANPROOF_PROFILE: ' 1 ' }), true);
  assert.equal(profileWanted(undefined, { SPANPROOF_PROFILE: '0' }), false);
  assert.equal(profileWanted(true, { SPANPROOF_PROFILE: '' }), true);
  assert.equal(profileWanted(undefined, {}), false);
  const help = spawnSync(process.execPath, [join(REPO, 'dist', 'cli.js'), 'run', '--help'], { cwd: REPO, encoding: 'utf8' });
  assert.match(help.stdout, /Environment:\n {2}SPANPROOF_GRID_THREADS {2}1 = run the grid in one thread[\s\S]*SPANPROOF_PROFILE +1 = as --profile/);
});

test('a cancel while this thread waits for the chunker thread reaches the thread at once (fresh-user #13: 13–21 s on a big corpus)', async () => {
  const ac = new AbortController();
  let cancels = 0;
  let threadRunning!: () => void;
  const running = new Promise<void>((r) => (threadRunning = r));
  let pendingReject: ((e: Error) => void) | undefined;
  const thread: ChunkerThread = {
    ready: Promise.resolve(),
    // A chunker that only ends when cancelled (a long one on a big corpus).
    run: () => new Promise((_, reject) => {
      threadRunning();
      pendingReject = reject;
    }),
    cancel: () => {
      cancels++;
      pendingReject?.(new SpanproofError('cancelled', 'the run was cancelled.'));
    },
    dispose: async () => undefined,
  };
  let mineDone = false;
  const ctx = { progress: new RunProgress(0, undefined, ac.signal), caches: { notices: [] }, queryVectors: new Map(), queryEmbedMsPer: new Map() } as unknown as EngineContext;
  const stage = (chunker: ChunkerId) => ({ stage: { chunker, chunks: [], chunkMs: 0, bm25Ms: 0, embedMs: 0, cachedDocs: 0 }, items: [], built: true });
  const run = runChunkers(ctx, ['fixed', 'heading'], () => thread, async (_c, chunker, onCold) => {
    onCold?.();
    await running; // the thread has taken `heading`; this thread finishes `fixed` and then waits for it
    mineDone = true;
    return stage(chunker);
  });
  await running;
  while (!mineDone) await new Promise((r) => setImmediate(r));
  await new Promise((r) => setTimeout(r, 20)); // this thread is now in its wait, not ticking
  ac.abort();
  const settled = await Promise.race([run.then(() => 'resolved', (e: unknown) => (isSpanproofError(e) ? e.code : 'other')), new Promise((r) => setTimeout(() => r('still waiting after 2 s'), 2000))]);
  assert.equal(settled, 'cancelled');
  assert.ok(cancels >= 1, 'the chunker thread was told');
});

test('a chunker thread that does not answer a cancel is terminated after CANCEL_WAIT_MS; its chunker ends as cancelled', async () => {
  const dir = tmp('thread-stuck');
  const script = join(dir, 'stuck.js');
  // Loads, says ready, then spins on `run` without reading its messages again (stuck in a long synchronous step).
  writeFileSync(script, "const { parentPort } = require('node:worker_threads'); parentPort.postMessage({ kind: 'ready' }); parentPort.on('message', (m) => { if (m.kind === 'run') { const end = Date.now() + 60000; while (Date.now() < end); } });\n");
  const t = workerChunkerThreads(script)({ workspace: dir, cacheDir: dir, settings: ALL as never, documents: [], questions: [], corpusKey: 'k' });
  await t.ready;
  const job = t.run({ chunker: 'fixed', queryVectors: new Map(), queryEmbedMsPer: new Map() }, () => undefined);
  const started = performance.now();
  t.cancel();
  await assert.rejects(job, (e: unknown) => isSpanproofError(e) && e.code === 'cancelled');
  const waited = performance.now() - started;
  await t.dispose();
  assert.ok(waited >= CANCEL_WAIT_MS - 50 && waited < 30_000, `rejected after ${Math.round(waited)} ms, not the 60 s the thread spins`);
});

test('the chunker thread takes the costliest chunker left (semantic), this thread the next in list order; outputs stay in list order', async () => {
  const ran: string[] = [];
  const stage = (chunker: ChunkerId) => ({ chunker, chunks: [], chunkMs: 0, bm25Ms: 0, embedMs: 0, cachedDocs: 0 });
  let release!: () => void;
  const threadMayGo = new Promise<void>((r) => (release = r));
  const thread: ChunkerThread = {
    ready: Promise.resolve(),
    run: async (job) => {
      ran.push(`thread:${job.chunker}`);
      if (job.chunker === 'semantic') await threadMayGo; // semantic is long: this thread takes the rest meanwhile
      return { stage: stage(job.chunker), items: [], built: true, rerankEntries: [], tokenEntries: [], notices: [] } as unknown as ChunkerThreadResult;
    },
    cancel: () => undefined,
    dispose: async () => undefined,
  };
  const ctx = { progress: new RunProgress(0), caches: { notices: [] }, queryVectors: new Map(), queryEmbedMsPer: new Map() } as unknown as EngineContext;
  const list: ChunkerId[] = ['fixed', 'recursive', 'sentence', 'heading', 'semantic'];
  const outs = await runChunkers(ctx, list, () => thread, async (_c, chunker, onCold) => {
    ran.push(`this:${chunker}`);
    onCold?.();
    await new Promise((r) => setImmediate(r));
    if (chunker === 'heading') release();
    return { stage: stage(chunker), items: [], built: true };
  });
  assert.deepEqual(ran, ['this:fixed', 'thread:semantic', 'this:recursive', 'this:sentence', 'this:heading'], ran.join(' '));
  assert.deepEqual(outs.map((o) => o.stage.chunker), list);
  assert.equal(coldCost('semantic'), 2);
  for (const c of ['fixed', 'recursive', 'sentence', 'heading'] as const) assert.equal(coldCost(c), 1);
});
