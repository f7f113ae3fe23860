// The MaxSim baseline memoises, per query, the cosine of each distinct query token with each distinct
// token id of the candidate pool. Its scores must be bit-identical to the direct computation (a double
// loop per passage, query token, passage token and dimension) — the implementation before the memo,
// kept verbatim here as `directScores` — on real pools: FastAPI docs paragraphs ranked for the shipped
// FastAPI questions (copies of ../shared/data in test/fixtures/shared-data), plus hand-made edge cases.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { staticGloveDir } from '../../../../src/core/models/defaultModel';
import { type OnnxEmbedder, openOnnxEmbedder } from '../../../../src/core/models/embedder';
import { createMaxSimReranker, type MaxSimWeighting, zipfWeight } from '../../../../src/core/models/maxSim';
import type { PairScorer } from '../../../../src/core/models/types';
import { SHARED_DATA } from '../../../helpers/paths';

const DATA = SHARED_DATA;
const DOCS = path.join(DATA, 'fastapi-docs');
const GT = path.join(DATA, 'fastapi-docs.groundtruth.json');

let emb: OnnxEmbedder;
const rerankers = new Map<MaxSimWeighting, PairScorer>();
const vectors = new Map<number, Float32Array>();

before(async () => {
  emb = await openOnnxEmbedder(staticGloveDir(), { threads: 1 });
  rerankers.set('zipf', await createMaxSimReranker({ threads: 1 }, staticGloveDir(), 'zipf'));
  rerankers.set('none', await createMaxSimReranker({ threads: 1 }, staticGloveDir(), 'none'));
});
after(async () => {
  await emb.dispose();
  for (const r of rerankers.values()) await r.dispose();
});

/** The pre-memo MaxSim (commit 238f5c3), same vectors: one-token rows of the same model. */
async function directScores(query: string, passages: readonly string[], weighting: MaxSimWeighting): Promise<Float32Array> {
  const tok = emb.tokenizer;
  const q = [...tok.idsOf(query)];
  const ps = passages.map((p) => [...new Set(tok.idsOf(p))]);
  const missing = [...new Set([q, ...ps].flat())].filter((id) => !vectors.has(id));
  if (missing.length > 0) {
    const m = await emb.embedRows(missing.map((id) => ({ ids: [id], typeIds: [0], contentTokens: 1 })));
    missing.forEach((id, i) => vectors.set(id, m.slice(i * emb.dim, (i + 1) * emb.dim)));
  }
  const dim = emb.dim;
  const qv = q.map((id) => vectors.get(id) as Float32Array);
  const qw = q.map((id) => (weighting === 'zipf' ? zipfWeight(id) : 1));
  const scores = new Float32Array(passages.length);
  ps.forEach((ids, i) => {
    const pv = ids.map((id) => vectors.get(id) as Float32Array);
    let total = 0;
    for (let a = 0; a < qv.length; a++) {
      const x = qv[a];
      let best = 0;
      for (const y of pv) {
        let dot = 0;
        for (let d = 0; d < dim; d++) dot += x[d] * y[d];
        if (dot > best) best = dot;
      }
      total += qw[a] * best;
    }
    scores[i] = total;
  });
  return scores;
}

async function assertSame(query: string, pool: readonly string[], weighting: MaxSimWeighting): Promise<void> {
  const got = await rerankers.get(weighting)!.score(query, pool);
  const want = await directScores(query, pool, weighting);
  assert.equal(got.length, want.length);
  for (let i = 0; i < want.length; i++) {
    // Object.is: exact bit equality of the float32 score (also tells 0 from -0)
    assert.ok(Object.is(got[i], want[i]), `${weighting} "${query}" passage ${i}: ${got[i]} !== ${want[i]}`);
  }
}

test('edge cases: repeated and out-of-vocabulary query tokens, empty and punctuation-only passages', async () => {
  const pool = ['', '!!!', 'the the the', 'Path parameters with types', 'zzqxj wibblefrotz query', 'query query parameters'];
  for (const w of ['zipf', 'none'] as const) {
    await assertSame('query query zzqxj parameters?', pool, w);
    await assertSame('', pool, w);
    await assertSame('the', [], w);
  }
});

test('bit-identical to the direct computation on FastAPI docs pools (30 paragraphs per question)', async () => {
  const paragraphs: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d).sort()) {
      const p = path.join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.md')) for (const para of readFileSync(p, 'utf8').split(/\n\s*\n/)) if (para.trim()) paragraphs.push(para);
    }
  };
  walk(DOCS);
  const questions = (JSON.parse(readFileSync(GT, 'utf8')) as { questions: Array<{ question: string }> }).questions.map((q) => q.question);
  assert.ok(questions.length >= 10 && paragraphs.length > 1000, `${questions.length} questions, ${paragraphs.length} paragraphs`);
  const tok = emb.tokenizer;
  const paraIds = paragraphs.map((p) => new Set(tok.idsOf(p)));
  let pools = 0;
  const firstPools: Array<[string, string[]]> = [];
  for (const question of questions) {
    // Pool: the 30 paragraphs sharing the most distinct token ids with the question (ties by position),
    // so passages share words with each other and with the query, as first-stage pools do.
    const qIds = new Set(tok.idsOf(question));
    const overlap = paraIds.map((s, i) => {
      let n = 0;
      for (const id of qIds) if (s.has(id)) n++;
      return [n, i] as const;
    });
    overlap.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    const pool = overlap.slice(0, 30).map(([, i]) => paragraphs[i]);
    await assertSame(question, pool, 'zipf');
    await assertSame(question, pool, 'none');
    // The memo lives across calls (one query is reranked over every chunker's and retriever's pool):
    // a second, overlapping pool for the same query reuses and extends it.
    const next = overlap.slice(15, 60).map(([, i]) => paragraphs[i]);
    await assertSame(question, next, 'zipf');
    await assertSame(question, next, 'none');
    firstPools.push([question, pool]);
    pools++;
  }
  assert.equal(pools, questions.length);
  // Back to the earlier queries after every other query's memo was built.
  for (const [question, pool] of firstPools.slice(0, 5)) await assertSame(question, [...pool].reverse(), 'zipf');
});
