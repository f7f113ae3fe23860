/**
 * Grid benchmark (printed, never asserted; figures quoted in docs/results.md).
 *
 *   node --import tsx bench/grid.bench.ts [--quick]
 *
 * Each scenario runs in a fresh child process (so peak RSS and "cold" are honest) calling runGrid
 * in-thread on the FastAPI docs (`../shared/data/fastapi-docs`, 45 questions), default settings:
 * 1. 24 configs (no semantic), cold cache — the SPEC §15 anchor (Python reference: 2.9 s, 193 MB);
 * 2. all 30 configs, cold cache (target ≤ 5 s);
 * 3. all 30 configs, warm cache (target ≤ 1 s);
 * 4. one question re-run in a worker that already ran the grid (models and indexes resident),
 *    nothing written (target ≤ 100 ms);
 * 5. cold 30-config time at 25 %, 50 % and 100 % of the documents (every 4th / 2nd file).
 * Wall time is measured around runGrid (model loading included, tsx start-up excluded); peak RSS
 * is the child's maxRSS (run with --expose-gc, as the worker is). The load average is printed: the
 * machine is shared.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runGrid } from '../src/core/grid/run';
import { ResidentState } from '../src/core/grid/resident';
import { DEFAULT_SETTINGS, type RunSettings } from '../src/core/settings';

const REPO = resolve(__dirname, '..');
const DATA = resolve(REPO, '..', 'shared', 'data');
const CORPUS = join(DATA, 'fastapi-docs');
const GT = join(DATA, 'fastapi-docs.groundtruth.json');

interface ChildArgs { workspace: string; cacheDir: string; runsRoot: string; chunkers: RunSettings['chunkers']; question?: string; write: boolean }

async function child(a: ChildArgs): Promise<void> {
  const settings = { ...DEFAULT_SETTINGS, chunkers: a.chunkers };
  // One-question re-run: as in the extension, the worker already ran the grid and keeps models and
  // indexes resident; only the re-run is timed.
  const resident = a.question ? new ResidentState() : undefined;
  if (resident) await runGrid({ workspace: a.workspace, groundTruthFile: GT, settings, cacheDir: a.cacheDir, writeRun: false }, { resident });
  const t = performance.now();
  const r = await runGrid({ workspace: a.workspace, groundTruthFile: GT, settings, cacheDir: a.cacheDir, runsRoot: a.runsRoot, writeRun: a.write, questionIds: a.question ? [a.question] : undefined }, { resident });
  const ms = performance.now() - t;
  await resident?.release();
  const top = [...r.results.configs].sort((x, y) => x.rank - y.rank)[0];
  process.stdout.write(JSON.stringify({ ms, rssMB: process.resourceUsage().maxRSS / 1024, configs: r.results.configs.length, questions: r.results.questions, top: top?.id, stages: r.timings.stages, perChunker: r.timings.perChunker }) + '\n');
}

function runChild(a: ChildArgs): { ms: number; rssMB: number; configs: number; questions: number; top: string; stages: Record<string, number>; perChunker: Record<string, { chunkMs: number; bm25Ms: number; embedMs: number }> } {
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', __filename, '--child', JSON.stringify(a)], { encoding: 'utf8', cwd: REPO, maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

/** A copy of every `step`-th Markdown file of the corpus (sorted paths). */
function subset(step: number, dir: string): string {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n.endsWith('.md')) files.push(p);
    }
  };
  walk(CORPUS);
  files.forEach((f, i) => {
    if (i % step !== 0) return;
    const to = join(dir, relative(CORPUS, f));
    mkdirSync(resolve(to, '..'), { recursive: true });
    cpSync(f, to);
  });
  return dir;
}

async function main(): Promise<void> {
  const ci = process.argv.indexOf('--child');
  if (ci >= 0) return child(JSON.parse(process.argv[ci + 1]) as ChildArgs);
  if (!existsSync(CORPUS)) {
    console.log('grid bench: ../shared/data/fastapi-docs is absent; skipped.');
    return;
  }
  const quick = process.argv.includes('--quick');
  const tmp = mkdtempSync(join(tmpdir(), 'spanproof-gridbench-'));
  // The runs and caches only serve the timings: leave nothing in the temp folder (SPANPROOF_KEEP_TMP=1 keeps it).
  process.on('exit', () => {
    if (process.env.SPANPROOF_KEEP_TMP === '1') console.log(`kept ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  });
  const all: RunSettings['chunkers'] = ['fixed', 'recursive', 'sentence', 'heading', 'semantic'];
  const four: RunSettings['chunkers'] = ['fixed', 'recursive', 'sentence', 'heading'];
  const row = (name: string, r: ReturnType<typeof runChild>, target: string) =>
    console.log(`${name.padEnd(34)} ${r.ms.toFixed(0).padStart(7)} ms  ${r.rssMB.toFixed(0).padStart(5)} MB  ${String(r.configs).padStart(2)} configs × ${r.questions} q  target ${target}  (load ${loadavg()[0].toFixed(1)})`);
  console.log(`grid bench on ${CORPUS} — ${new Date().toISOString()}, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  const c24 = runChild({ workspace: CORPUS, cacheDir: join(tmp, 'c24'), runsRoot: join(tmp, 'runs'), chunkers: four, write: true });
  row('24 configs (no semantic), cold', c24, '< 2900 ms, ≤ 400 MB');
  const c30 = runChild({ workspace: CORPUS, cacheDir: join(tmp, 'c30'), runsRoot: join(tmp, 'runs'), chunkers: all, write: true });
  row('30 configs, cold', c30, '≤ 5000 ms');
  console.log('  cold stages ms:', Object.entries(c30.stages).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', '));
  console.log('  per chunker ms (chunk/bm25/embed):', Object.entries(c30.perChunker).map(([k, v]) => `${k} ${v.chunkMs.toFixed(0)}/${v.bm25Ms.toFixed(0)}/${v.embedMs.toFixed(0)}`).join(', '));
  const w30 = runChild({ workspace: CORPUS, cacheDir: join(tmp, 'c30'), runsRoot: join(tmp, 'runs'), chunkers: all, write: true });
  row('30 configs, warm', w30, '≤ 1000 ms');
  console.log('  warm stages ms:', Object.entries(w30.stages).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', '));
  console.log('  per chunker ms (chunk/bm25/embed):', Object.entries(w30.perChunker).map(([k, v]) => `${k} ${v.chunkMs.toFixed(0)}/${v.bm25Ms.toFixed(0)}/${v.embedMs.toFixed(0)}`).join(', '));
  const one = runChild({ workspace: CORPUS, cacheDir: join(tmp, 'c30'), runsRoot: join(tmp, 'runs'), chunkers: all, write: false, question: 'fa-d-001' });
  row('one question re-run (resident worker)', one, '≤ 100 ms');
  if (!quick) {
    for (const [pct, step] of [[25, 4], [50, 2]] as const) {
      const ws = subset(step, join(tmp, `sub${pct}`));
      const r = runChild({ workspace: ws, cacheDir: join(tmp, `cs${pct}`), runsRoot: join(tmp, 'runs'), chunkers: all, write: true });
      row(`30 configs, cold, ${pct}% of the docs`, r, '(scaling)');
    }
    row('30 configs, cold, 100% of the docs', c30, '(scaling)');
  }
}

void main();
