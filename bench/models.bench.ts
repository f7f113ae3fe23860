/**
 * Models benchmark (printed, never asserted): session creation time, default-embedder throughput on
 * the FastAPI docs paragraphs, MaxSim baseline pair throughput, and a small quality check of the
 * MaxSim weighting (the numbers quoted in docs/models.md).
 *
 *   node --import tsx bench/models.bench.ts [--threads N] [--corpus fastapi-docs|prose]
 *
 * Needs ../shared/data (skips with a message when absent). Paragraph "chunks" here are the text
 * between blank lines of each file — a fixed, simple unit for this check, not one of the chunkers.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { Bm25Index } from '../src/core/retrieval/index';
import type { Chunk } from '../src/core/types';
import { createMaxSimReranker, staticGloveDir, loadDefaultEmbedder, type PairScorer } from '../src/core/models/index';

const DATA = path.resolve(__dirname, '..', '..', 'shared', 'data');
const arg = (name: string, fallback: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const CORPUS_NAME = arg('--corpus', 'fastapi-docs');
const CORPUS = path.join(DATA, CORPUS_NAME);
const GT = path.join(DATA, `${CORPUS_NAME}.groundtruth.json`);
const THREADS = Number(arg('--threads', '2'));
const K = 5;
const POOL = 20;

interface Question {
  id: string;
  question: string;
  evidence: { source: string; start: number; end: number }[];
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : /\.(md|txt)$/.test(n) && !/^(LICENSE|SOURCE)/.test(n) ? [p] : [];
  });
}

function paragraphs(): Chunk[] {
  const out: Chunk[] = [];
  for (const file of walk(CORPUS).sort()) {
    const source = path.relative(CORPUS, file).split(path.sep).join('/');
    const text = readFileSync(file, 'utf8');
    const re = /\S[\s\S]*?(?=\r?\n[ \t]*\r?\n|$)/g;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      out.push({ id: `${source}#${m.index}-${m.index + m[0].length}`, source, start: m.index, end: m.index + m[0].length, text: m[0] });
    }
  }
  return out;
}

const ms = (t0: number) => (performance.now() - t0).toFixed(1);

/** hit@K: a top-K chunk overlaps an evidence span. */
function hitAt(ranked: number[], chunks: Chunk[], q: Question): boolean {
  return ranked.slice(0, K).some((i) => q.evidence.some((e) => chunks[i].source === e.source && chunks[i].start < e.end && e.start < chunks[i].end));
}

async function rerank(scorer: PairScorer, query: string, pool: number[], chunks: Chunk[]): Promise<number[]> {
  const s = await scorer.score(query, pool.map((i) => chunks[i].text));
  return pool.map((c, j) => ({ c, s: s[j], j })).sort((a, b) => b.s - a.s || a.j - b.j).map((x) => x.c);
}

async function main(): Promise<void> {
  let t0 = performance.now();
  const first = await loadDefaultEmbedder({ threads: THREADS });
  console.log(`session creation (first in process, default model): ${ms(t0)} ms`);
  await first.dispose();
  t0 = performance.now();
  const e = await loadDefaultEmbedder({ threads: THREADS });
  console.log(`session creation (again): ${ms(t0)} ms   model: ${staticGloveDir()}   threads: ${THREADS}`);

  if (!existsSync(CORPUS) || !existsSync(GT)) {
    console.log(`skipped throughput and quality: ${CORPUS} not found`);
    await e.dispose();
    return;
  }
  const chunks = paragraphs();
  const texts = chunks.map((c) => c.text);
  await e.embed(texts.slice(0, 64)); // warm-up
  t0 = performance.now();
  const m = await e.embed(texts);
  const secs = (performance.now() - t0) / 1000;
  const chars = texts.reduce((s, t) => s + t.length, 0);
  console.log(`default embedder: ${chunks.length} paragraphs (${(chars / chunks.length).toFixed(0)} chars avg) in ${(secs * 1000).toFixed(0)} ms = ${(chunks.length / secs).toFixed(0)} passages/s`);

  const questions = (JSON.parse(readFileSync(GT, 'utf8')) as { questions: Question[] }).questions;
  const qv = await e.embed(questions.map((q) => q.question));
  const dim = e.dim;
  const denseRank = (qi: number) =>
    chunks
      .map((_, i) => {
        let s = 0;
        for (let d = 0; d < dim; d++) s += qv[qi * dim + d] * m[i * dim + d];
        return { i, s };
      })
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .map((x) => x.i);
  const bm25 = Bm25Index.build(chunks);
  const scorers: Record<string, PairScorer> = {
    'maxsim none': await createMaxSimReranker({ threads: THREADS }, staticGloveDir(), 'none'),
    'maxsim zipf': await createMaxSimReranker({ threads: THREADS }, staticGloveDir(), 'zipf'),
  };
  const rows: Record<string, number> = {};
  const count = (name: string, hit: boolean) => (rows[name] = (rows[name] ?? 0) + (hit ? 1 : 0));
  let pairs = 0;
  let pairMs = 0;
  for (let qi = 0; qi < questions.length; qi++) {
    const q = questions[qi];
    const dense = denseRank(qi);
    const lexical = bm25.search(q.question, POOL).map((h) => h.chunk);
    count('dense', hitAt(dense, chunks, q));
    count('bm25', hitAt(lexical, chunks, q));
    for (const [name, scorer] of Object.entries(scorers)) {
      const t1 = performance.now();
      count(`dense top-${POOL} → ${name}`, hitAt(await rerank(scorer, q.question, dense.slice(0, POOL), chunks), chunks, q));
      count(`bm25 top-${POOL} → ${name}`, hitAt(await rerank(scorer, q.question, lexical, chunks), chunks, q));
      pairMs += performance.now() - t1;
      pairs += POOL + lexical.length;
    }
  }
  console.log(`MaxSim baseline: ${(pairs / (pairMs / 1000)).toFixed(0)} pairs/s (pools of ${POOL} paragraphs, vectors cached per token)`);
  console.log(`\nquality check, ${CORPUS_NAME}, ${questions.length} questions, ${chunks.length} paragraph chunks, hit@${K} (evidence overlap):`);
  for (const [name, hits] of Object.entries(rows)) console.log(`  ${name.padEnd(28)} ${hits}/${questions.length} = ${(hits / questions.length).toFixed(3)}`);
  for (const s of Object.values(scorers)) await s.dispose();
  await e.dispose();
}

void main();
