/**
 * The BM25 engine's floor for the vs-pyref work (issue #13; printed, never asserted).
 *
 *   node --expose-gc --import tsx bench/bm25-floor.bench.ts [--rounds 3]
 *
 * `../shared/bench/vs-pyref.sh` runs 24 configs: 4 chunkers (fixed, recursive, sentence, heading; the
 * default parameters) × bm25/dense/hybrid × rerank on/off over the FastAPI docs and 45 questions.
 * Whatever else a run does, it must build one BM25 index per chunker and run every question against
 * it once (bm25 and hybrid share the BM25 pool; rerank on/off share the retrieval). This benchmark
 * times exactly those MiniSearch calls — `Bm25Index.build` and `Bm25Index.search` as a run makes them,
 * on the run's own chunks — and nothing else, and puts them beside the Python reference measured in
 * the same process tree, interleaved (pyref, floor, pyref, floor, …) so machine load hits both:
 *
 * - `floor 1 core`: build + search CPU time of all four chunkers on one thread (ms, the minimum of
 *   the repetitions within a round, so it is a lower bound of what a run pays);
 * - `floor 2 cores`: the same work split by chunker over two threads at best (the larger half of the
 *   best two-way partition of the four per-chunker costs), the lower bound of a two-core run;
 * - `budget`: 0.5 × pyref's wall for the whole run (issue #13's target), and pyref's own FTS5 time
 *   (its `timings.json` `indexing` + `querying`, SQLite's C BM25).
 *
 * A floor above the budget means the target cannot be met with MiniSearch as the BM25 engine, however
 * fast everything else becomes. Also printed: the V8 heap one chunker's index holds (after a GC), the
 * memory floor beside pyref's peak RSS.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chunkCorpus } from '../src/core/chunking/index';
import { loadCorpus } from '../src/core/corpus/index';
import { Bm25Index } from '../src/core/retrieval/index';
import { DEFAULT_SETTINGS } from '../src/core/settings';
import type { Chunk } from '../src/core/types';

const arg = (name: string, fallback: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const ROUNDS = Number(arg('--rounds', '3'));
const REPS = 3;
const SHARED = path.resolve(__dirname, '..', '..', 'shared');
const WS = path.join(SHARED, 'data', 'fastapi-docs');
const GT = path.join(SHARED, 'data', 'fastapi-docs.groundtruth.json');
const PYREF = path.join(SHARED, 'anchors', 'pyref');
const CHUNKERS = ['fixed', 'recursive', 'sentence', 'heading'] as const;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const gc = () => (globalThis as { gc?: () => void }).gc?.();

/** Best two-way split of per-chunker costs: the smallest possible larger half (exhaustive, 2^n). */
function twoCoreFloor(costs: number[]): number {
  const total = costs.reduce((a, b) => a + b, 0);
  let best = total;
  for (let mask = 0; mask < 1 << costs.length; mask++) {
    let a = 0;
    costs.forEach((c, i) => { if (mask & (1 << i)) a += c; });
    best = Math.min(best, Math.max(a, total - a));
  }
  return best;
}

/** One chunker's MiniSearch work as a run does it: build, then every question once (CPU ms, min of REPS). */
function measureChunker(chunks: readonly Chunk[], questions: readonly string[], pool: number): { build: number; search: number } {
  let build = Infinity, search = Infinity;
  for (let r = 0; r < REPS; r++) {
    gc();
    let t = cpuMs();
    const ix = Bm25Index.build(chunks);
    build = Math.min(build, cpuMs() - t);
    t = cpuMs();
    for (const q of questions) ix.search(q, pool);
    search = Math.min(search, cpuMs() - t);
  }
  return { build, search };
}

function heapOfOneIndex(chunks: readonly Chunk[]): number {
  gc(); gc();
  const before = process.memoryUsage().heapUsed;
  const ix = Bm25Index.build(chunks);
  gc(); gc();
  const held = process.memoryUsage().heapUsed - before;
  if (ix.size < 0) console.log(''); // keep `ix` alive until after the measurement
  return held;
}

function runPyref(): { wall: number; fts: number; rss: number } | undefined {
  const out = mkdtempSync(path.join(tmpdir(), 'pyref-floor-'));
  try {
    const t = performance.now();
    const r = spawnSync('/usr/bin/time', ['-f', '%M', '-o', path.join(out, 'time'), 'python3', 'pyref.py', 'run', '--workspace', WS, '--groundtruth', GT, '--out', path.join(out, 'run'), '--json'], { cwd: PYREF, encoding: 'utf8' });
    const wall = performance.now() - t;
    if (r.status !== 0) return undefined;
    const s = JSON.parse(readFileSync(path.join(out, 'run', 'timings.json'), 'utf8')).seconds as Record<string, number>;
    const rss = Number(readFileSync(path.join(out, 'time'), 'utf8').trim().split('\n').pop()) / 1024;
    return { wall, fts: ((s.indexing ?? 0) + (s.querying ?? 0)) * 1000, rss };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function main() {
  if (!existsSync(WS)) { console.log(`skipped: ${WS} not found`); return; }
  const corpus = await loadCorpus(WS);
  const gt = JSON.parse(readFileSync(GT, 'utf8')) as { questions: Array<{ question: string }> };
  const questions = gt.questions.map((q) => q.question);
  const sets: Chunk[][] = [];
  for (const c of CHUNKERS) sets.push(await chunkCorpus(corpus.documents, c, DEFAULT_SETTINGS.chunkerParams));
  const pool = DEFAULT_SETTINGS.poolSize;
  const hasPy = spawnSync('python3', ['-c', 'import numpy'], { stdio: 'ignore' }).status === 0 && existsSync('/usr/bin/time');
  if (hasPy) spawnSync('python3', ['pyref.py', 'prepare-vectors'], { cwd: PYREF, stdio: 'ignore' });
  console.log(`FastAPI docs: ${corpus.documents.length} files, ${questions.length} questions; chunks ${CHUNKERS.map((c, i) => `${c} ${sets[i].length}`).join(', ')}; pool ${pool}`);
  console.log('round  floor 1 core  floor 2 cores | pyref wall  budget (0.5×)  pyref FTS5 | floor2/budget');
  const ratios: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const py = hasPy ? runPyref() : undefined;
    const per = sets.map((s) => measureChunker(s, questions, pool));
    const costs = per.map((p) => p.build + p.search);
    const one = costs.reduce((a, b) => a + b, 0);
    const two = twoCoreFloor(costs);
    const budget = py ? py.wall / 2 : NaN;
    if (py) ratios.push(two / budget);
    console.log(`${String(round).padStart(5)}  ${one.toFixed(0).padStart(9)} ms  ${two.toFixed(0).padStart(10)} ms | ${py ? `${py.wall.toFixed(0).padStart(7)} ms  ${budget.toFixed(0).padStart(9)} ms  ${py.fts.toFixed(0).padStart(7)} ms | ${(two / budget).toFixed(2)}` : 'pyref not run (needs python3 + numpy + GNU time)'}`);
    if (round === ROUNDS) {
      console.log(`  per chunker (build + search of ${questions.length} questions, ms): ${CHUNKERS.map((c, i) => `${c} ${per[i].build.toFixed(0)} + ${per[i].search.toFixed(0)}`).join(', ')}`);
      const heap = heapOfOneIndex(sets[0]);
      console.log(`  V8 heap held by one index (fixed, ${sets[0].length} chunks): ${(heap / 1048576).toFixed(1)} MB${py ? `; pyref peak RSS ${py.rss.toFixed(0)} MB` : ''}`);
    }
  }
  if (ratios.length) console.log(`median floor (2 cores) / budget: ${median(ratios).toFixed(2)} (above 1: the wall target is out of reach with MiniSearch as the BM25 engine)`);
}

main().catch((e) => { console.error(e); process.exit(1); });
