/**
 * Built-in embedders side by side (printed, never asserted): embedding throughput (passages/s) of
 * each, cold grid time with each, and the quality measurement of the default-embedder rule in
 * docs/models.md — per sample corpus, hit@5 of every dense/hybrid config with `use-lite` and with
 * `static-glove`, each row's paired difference with its 95 % bootstrap CI, and the rule's statistic
 * (the per-question difference averaged over the five chunkers).
 *
 *   node --import tsx bench/embedders.bench.ts [--quick] [--threads N] [--corpus a,b] [--json FILE]
 *
 * --quick: throughput only (the grid runs take tens of minutes on a shared 2-core machine). Runs the
 * real CLI (dist/cli.js, `npm run build` first) on the corpora of ../shared/data; Chroma and SQuAD are
 * imported into a temporary folder; nothing is written into ../shared. Quality numbers are
 * deterministic; timings depend on the machine's load.
 */
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadEmbedder } from '../src/core/models/registry';
import type { BuiltinEmbedderName } from '../src/core/models/embedderSpec';
import { bootstrapResamples, pairedDifferenceCI } from '../src/core/stats';
import { type HitTable, gridHits, sampleCorpora } from '../scripts/models/quality';
import { SHARED_DATA } from '../scripts/models/sampleText';

const arg = (name: string, fallback: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const THREADS = Number(arg('--threads', '2'));
const QUICK = process.argv.includes('--quick');
const JSON_OUT = arg('--json', '');
/** Only these sample corpora (comma-separated names), e.g. to run corpora in parallel processes. */
const ONLY = arg('--corpus', '').split(',').filter(Boolean);
const MODELS: BuiltinEmbedderName[] = ['use-lite', 'static-glove'];
const CHUNKERS = ['fixed', 'recursive', 'sentence', 'heading', 'semantic'];
const RETRIEVERS = ['dense', 'hybrid'];
const B = 2000;
const SEED = 42;

/** Paragraphs (text between blank lines, 40–4000 characters) of the FastAPI docs: a fixed unit for throughput. */
function paragraphs(): string[] {
  const walk = (d: string): string[] => readdirSync(d).sort().flatMap((n) => (statSync(path.join(d, n)).isDirectory() ? walk(path.join(d, n)) : n.endsWith('.md') ? [path.join(d, n)] : []));
  return walk(path.join(SHARED_DATA, 'fastapi-docs'))
    .flatMap((f) => readFileSync(f, 'utf8').split(/\r?\n[ \t]*\r?\n/))
    .map((p) => p.trim())
    .filter((p) => p.length >= 40 && p.length <= 4000);
}

async function throughput(): Promise<Record<string, number>> {
  const paras = paragraphs().slice(0, 1500);
  const out: Record<string, number> = {};
  for (const name of MODELS) {
    const e = await loadEmbedder({ kind: 'builtin', name }, { threads: THREADS });
    await e.embed(paras.slice(0, 16));
    const t0 = performance.now();
    await e.embed(paras);
    const s = (performance.now() - t0) / 1000;
    out[name] = paras.length / s;
    console.log(`${name.padEnd(13)} ${paras.length} FastAPI paragraphs in ${s.toFixed(1)} s = ${out[name].toFixed(1)} passages/s (threads ${THREADS})`);
    await e.dispose();
  }
  return out;
}

interface Row {
  corpus: string;
  config: string;
  questions: number;
  useLite: number;
  glove: number;
  diff: { mean: number; lo: number; hi: number };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const f3 = (x: number) => x.toFixed(3);
const s3 = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`;

/** Rows per config, plus the rule's chunker-averaged row per retriever. */
function compare(corpus: string, a: HitTable, b: HitTable): Row[] {
  const rows: Row[] = [];
  for (const r of RETRIEVERS) {
    const ids = CHUNKERS.map((c) => `${c}/${r}/none`);
    const questions = [...(a.get(ids[0])?.keys() ?? [])].sort();
    const res = bootstrapResamples(questions.length, B, SEED);
    const per = (t: HitTable, id: string) => questions.map((q) => t.get(id)?.get(q) ?? NaN);
    for (const id of ids) {
      const x = per(a, id);
      const y = per(b, id);
      rows.push({ corpus, config: id, questions: questions.length, useLite: mean(x), glove: mean(y), diff: pairedDifferenceCI(x, y, res) });
    }
    const avg = (t: HitTable) => questions.map((q) => mean(ids.map((id) => t.get(id)?.get(q) ?? NaN)));
    const x = avg(a);
    const y = avg(b);
    rows.push({ corpus, config: `mean of 5 chunkers/${r}`, questions: questions.length, useLite: mean(x), glove: mean(y), diff: pairedDifferenceCI(x, y, res) });
  }
  return rows;
}

async function main(): Promise<void> {
  console.log(`threads ${THREADS}; the machine's 2 cores are shared with other sessions: timings as measured, not asserted`);
  const tput = ONLY.length > 0 ? {} : await throughput();
  if (QUICK) return;
  const scratch = mkdtempSync(path.join(tmpdir(), 'spanproof-embedders-'));
  const rows: Row[] = [];
  const cold: Record<string, Record<string, number>> = {};
  for (const corpus of sampleCorpora(scratch).filter((c) => ONLY.length === 0 || ONLY.includes(c.name))) {
    const tables: HitTable[] = [];
    cold[corpus.name] = {};
    for (const name of MODELS) {
      const t0 = performance.now();
      tables.push(gridHits(corpus, { embeddingModel: name, chunkers: CHUNKERS, retrievers: RETRIEVERS, rerank: [false] }, scratch, name));
      cold[corpus.name][name] = (performance.now() - t0) / 1000;
      console.log(`${corpus.name}: cold grid (5 chunkers × dense,hybrid) with ${name}: ${cold[corpus.name][name].toFixed(1)} s wall`);
    }
    const got = compare(corpus.name, tables[0], tables[1]);
    rows.push(...got);
    console.log(`\n| config | use-lite | static-glove | difference [95% CI] |\n|---|---:|---:|---|`);
    for (const r of got) console.log(`| ${r.config} | ${f3(r.useLite)} | ${f3(r.glove)} | ${s3(r.diff.mean)} [${s3(r.diff.lo)}, ${s3(r.diff.hi)}] |`);
    console.log('');
  }
  const rule = RETRIEVERS.map((r) => rows.filter((x) => x.config === `mean of 5 chunkers/${r}`));
  const denseWins = rule[0].filter((x) => x.diff.lo > 0).length;
  const worse = [...rule[0], ...rule[1]].filter((x) => x.diff.hi < 0);
  const useLite = denseWins >= 2 && worse.length === 0;
  console.log(`rule (docs/models.md): dense CI above 0 on ${denseWins} of ${rule[0].length} corpora; significantly worse (dense or hybrid) on ${worse.length ? worse.map((w) => `${w.corpus} ${w.config}`).join(', ') : 'none'} → default: ${useLite ? 'use-lite' : 'static-glove'}`);
  if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify({ threads: THREADS, throughput: tput, cold, rows, decision: useLite ? 'use-lite' : 'static-glove' }, null, 2));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
