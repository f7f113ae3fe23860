/**
 * How the cost grows with the corpus (SPEC §15, issue #13): the 24 pyref configs (4 chunkers × BM25 /
 * dense / hybrid × rerank on/off, static-glove) on the FastAPI docs at 1×, 4× and 16× (the 155 files
 * plus 3 or 15 copies under distinct folder names `copy-N/`; the 45 questions unchanged, so their
 * evidence stays in the original files), each run cold (empty cache) by `node dist/cli.js run` under
 * GNU time. Per multiple: wall, CPU (user + sys) and peak RSS of the process, and per stage the wall,
 * the CPU and the peak RSS by its end from timings.json (`stages`, `resources`, `perChunker`), then
 * each figure per 1× of corpus (the figure ÷ the multiple; flat or falling = linear or better).
 *
 * usage: `npm run bench -- scaling` (builds first); `npm run bench -- scaling -- --quick` runs 1× and 4× only.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TimingsFile } from '../src/core/runs/types';

const REPO = join(__dirname, '..');
const CORPUS = join(REPO, 'test/fixtures/shared-data/fastapi-docs');
const GT = join(REPO, 'test/fixtures/shared-data/fastapi-docs.groundtruth.json');
const CLI = join(REPO, 'dist/cli.js');
const multiples = process.argv.includes('--quick') ? [1, 4] : [1, 4, 16];

interface Row {
  m: number;
  wall: number;
  cpu: number;
  rssMB: number;
  chunks: number;
  timings: TimingsFile;
}

function run(m: number, root: string): Row {
  const ws = join(root, `ws-${m}x`);
  cpSync(CORPUS, ws, { recursive: true });
  for (let k = 1; k < m; k++) cpSync(CORPUS, join(ws, `copy-${k}`), { recursive: true });
  const out = join(root, `run-${m}x`);
  const time = join(root, `time-${m}x`);
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', '-o', time, process.execPath, CLI, 'run', '--workspace', ws, '--groundtruth', GT, '--chunkers', 'fixed,recursive,sentence,heading', '--embedders', 'static-glove', '--out', out, '--cache-dir', join(root, `cache-${m}x`), '--json'], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${m}×: exit ${r.status}\n${r.stderr.slice(-2000)}`);
  const [wall, user, sys, rssKB] = readFileSync(time, 'utf8').trim().split(/\s+/).map(Number);
  const timings = JSON.parse(readFileSync(join(out, 'timings.json'), 'utf8')) as TimingsFile;
  const chunks = Object.values(timings.perChunker).reduce((s, c) => s + c.chunks, 0);
  rmSync(ws, { recursive: true, force: true });
  return { m, wall, cpu: user + sys, rssMB: rssKB / 1024, chunks, timings };
}

if (!existsSync(CLI) || !existsSync('/usr/bin/time')) {
  console.log('scaling: needs dist/cli.js (npm run build) and GNU time (/usr/bin/time)');
  process.exit(0);
}
const root = mkdtempSync(join(tmpdir(), 'spanproof-scaling-'));
try {
  const rows: Row[] = [];
  for (const m of multiples) {
    rows.push(run(m, root));
    const r = rows[rows.length - 1];
    console.log(`${m}×: ${r.chunks} chunks, wall ${r.wall.toFixed(2)} s, CPU ${r.cpu.toFixed(2)} s, peak RSS ${r.rssMB.toFixed(0)} MB`);
  }
  const pad = (s: string, n: number) => s.padStart(n);
  const fmt = (v: number | undefined, d = 0) => (v === undefined ? '—' : v.toFixed(d));
  console.log(`\nprocess (cold, 24 configs)   ${rows.map((r) => pad(`${r.m}×`, 22)).join('')}`);
  const line = (label: string, f: (r: Row) => number, unit: string, d = 1) =>
    console.log(`${label.padEnd(28)} ${rows.map((r) => pad(`${f(r).toFixed(d)} ${unit} (${(f(r) / r.m).toFixed(d)}/1×)`, 22)).join('')}`);
  line('wall', (r) => r.wall, 's', 2);
  line('CPU (user + sys)', (r) => r.cpu, 's', 2);
  line('peak RSS', (r) => r.rssMB, 'MB', 0);
  line('chunks (4 chunkers)', (r) => r.chunks, '', 0);
  console.log(`\nper stage: wall ms / CPU ms / peak RSS MB by its end`);
  const stages = Object.keys(rows[0].timings.stages);
  for (const s of stages) {
    console.log(`${s.padEnd(28)} ${rows.map((r) => pad(`${fmt(r.timings.stages[s])} / ${fmt(r.timings.resources?.[s]?.cpuMs)} / ${fmt(r.timings.resources?.[s]?.peakRssMB)}`, 22)).join('')}`);
  }
  for (const c of Object.keys(rows[0].timings.perChunker)) {
    console.log(`${`chunker ${c}`.padEnd(28)} ${rows.map((r) => { const p = r.timings.perChunker[c]; return pad(`${fmt(p.wallMs)} / ${fmt(p.cpuMs)} / ${fmt(p.peakRssMB)}`, 22); }).join('')}`);
    console.log(`${'  chunk / BM25 / embed ms'.padEnd(28)} ${rows.map((r) => { const p = r.timings.perChunker[c]; return pad(`${fmt(p.chunkMs)} / ${fmt(p.bm25Ms)} / ${fmt(p.embedMs)}`, 22); }).join('')}`);
  }
  const last = rows[rows.length - 1];
  console.log(`\ngrowth ${rows[0].m}× → ${last.m}× (${last.m / rows[0].m}× the corpus): wall ×${(last.wall / rows[0].wall).toFixed(2)}, CPU ×${(last.cpu / rows[0].cpu).toFixed(2)}, peak RSS ×${(last.rssMB / rows[0].rssMB).toFixed(2)}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
