/**
 * Grid runs of the real CLI (`dist/cli.js run`) on the sample corpora, for model comparisons: the
 * use-lite build check (fp32 vs shipped) and the default-embedder measurement (bench/models.bench.ts).
 * Chroma and SQuAD are imported with `spanproof import` into a temporary workspace first; runs and
 * caches go to a temporary folder, never into ../shared/data.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SHARED_DATA } from './sampleText';

const ROOT = path.resolve(__dirname, '..', '..');
let cli = '';

/**
 * A snapshot of dist/ inside the repository's git-ignored .cache/ (so onnxruntime-node still
 * resolves from node_modules), taken once per process: rebuilding dist/ while a long measurement
 * runs cannot change the code it measures.
 */
function cliPath(): string {
  if (cli) return cli;
  const dist = path.join(ROOT, 'dist');
  if (!existsSync(path.join(dist, 'cli.js'))) throw new Error(`${dist}/cli.js not found: run \`npm run build\` first`);
  const snap = path.join(ROOT, '.cache', `dist-snapshot-${process.pid}`);
  rmSync(snap, { recursive: true, force: true });
  cpSync(dist, path.join(snap, 'dist'), { recursive: true });
  cpSync(path.join(ROOT, 'media', 'models'), path.join(snap, 'media', 'models'), { recursive: true });
  process.on('exit', () => rmSync(snap, { recursive: true, force: true }));
  cli = path.join(snap, 'dist', 'cli.js');
  return cli;
}

export interface SampleCorpus {
  name: string;
  workspace: string;
  groundTruth: string;
}

/** The four sample corpora, importing Chroma and SQuAD into `scratch` (once per folder). */
export function sampleCorpora(scratch: string): SampleCorpus[] {
  const CLI = cliPath();
  const imported = (name: string, format: string, file: string): SampleCorpus => {
    const ws = path.join(scratch, name);
    const gt = path.join(ws, '.spanproof', 'groundtruth.json');
    if (!existsSync(gt)) execFileSync(process.execPath, [CLI, 'import', format, path.join(SHARED_DATA, file), '--workspace', ws], { stdio: 'ignore' });
    return { name, workspace: ws, groundTruth: gt };
  };
  return [
    { name: 'fastapi-docs', workspace: path.join(SHARED_DATA, 'fastapi-docs'), groundTruth: path.join(SHARED_DATA, 'fastapi-docs.groundtruth.json') },
    { name: 'prose', workspace: path.join(SHARED_DATA, 'prose'), groundTruth: path.join(SHARED_DATA, 'prose.groundtruth.json') },
    imported('chroma', 'chroma', path.join('chroma', 'questions_df.csv')),
    imported('squad', 'squad', path.join('squad', 'squad2_dev_small.json')),
  ];
}

/** Per config id, per question id: hit@5 (0/1) — from the run's questions.jsonl. */
export type HitTable = Map<string, Map<string, number>>;

/**
 * Runs the grid with `settings` (the `--config` JSON: same keys as the VS Code settings) and returns
 * the per-question hit@5 of every config. Throws Error with the CLI's stderr when the run fails.
 */
export function gridHits(corpus: SampleCorpus, settings: Record<string, unknown>, scratch: string, label: string): HitTable {
  const dir = path.join(scratch, 'runs', `${corpus.name}-${label}`);
  mkdirSync(path.dirname(dir), { recursive: true });
  const cfg = path.join(scratch, `${corpus.name}-${label}.config.json`);
  writeFileSync(cfg, JSON.stringify(settings));
  const args = [cliPath(), 'run', '--workspace', corpus.workspace, '--groundtruth', corpus.groundTruth, '--config', cfg, '--out', dir, '--cache-dir', path.join(scratch, 'cache', corpus.name), '--json'];
  execFileSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 30 });
  const table: HitTable = new Map();
  for (const line of readFileSync(path.join(dir, 'questions.jsonl'), 'utf8').split('\n')) {
    if (!line) continue;
    const r = JSON.parse(line) as { config: string; question: string; 'hit@5'?: number };
    if (typeof r['hit@5'] !== 'number') continue;
    if (!table.has(r.config)) table.set(r.config, new Map());
    (table.get(r.config) as Map<string, number>).set(r.question, r['hit@5']);
  }
  return table;
}

export interface QualityRow {
  corpus: string;
  questions: number;
  fp32: number;
  shipped: number;
}

const mean = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0) / Math.max(1, m.size);

/** hit@5 of `recursive/dense/none` on each sample corpus for two model folders. */
export async function denseHitAt5(models: { fp32: string; shipped: string }): Promise<QualityRow[]> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'spanproof-use-check-'));
  const rows: QualityRow[] = [];
  for (const corpus of sampleCorpora(scratch)) {
    const base = { chunkers: ['recursive'], retrievers: ['dense'], rerank: [false] };
    const a = gridHits(corpus, { ...base, embeddingModel: models.fp32 }, scratch, 'fp32').get('recursive/dense/none') ?? new Map();
    const b = gridHits(corpus, { ...base, embeddingModel: models.shipped }, scratch, 'shipped').get('recursive/dense/none') ?? new Map();
    rows.push({ corpus: corpus.name, questions: a.size, fp32: mean(a), shipped: mean(b) });
    console.error(`hit@5 ${corpus.name}: fp32 ${mean(a).toFixed(3)}, shipped ${mean(b).toFixed(3)} (${a.size} questions)`);
  }
  return rows;
}
