// The built-in static GloVe model (static-glove), through the real folder-loading path, against a plain-JS
// computation from the int8 table read out of model.onnx with onnx-proto, and (for the SIF weighting
// folded into the row scales) against 7 source GloVe vectors in test/fixtures/models/glove-sample.json.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { onnx } from 'onnx-proto';
import { createMaxSimReranker, staticGloveDir, loadEmbedder, type TextEmbedder } from '../../../../src/core/models/index';
import { zipfWeight } from '../../../../src/core/models/maxSim';
import { FIXTURES } from '../../../helpers/paths';

const DIR = staticGloveDir();
const DIM = 100;
let table: Int8Array;
let scales: Float32Array;
let vocab: Map<string, number>;
let e: TextEmbedder;

before(async () => {
  const model = onnx.ModelProto.decode(readFileSync(path.join(DIR, 'model.onnx')));
  const init = (name: string) => model.graph!.initializer!.find((t) => t.name === name)!.rawData!;
  const t = init('table_int8');
  table = new Int8Array(t.buffer, t.byteOffset, t.byteLength);
  const s = Uint8Array.from(init('row_scale'));
  scales = new Float32Array(s.buffer);
  const tok = JSON.parse(readFileSync(path.join(DIR, 'tokenizer.json'), 'utf8')) as { model: { vocab: Record<string, number> } };
  vocab = new Map(Object.entries(tok.model.vocab));
  e = await loadEmbedder({ kind: 'builtin', name: 'static-glove' }, { threads: 1 });
});
after(() => e.dispose());

/** Independent tokenisation: NFKC, lower-case, letter/digit runs or single other characters. */
function tokens(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{M}\p{N}]+|[^\s\p{L}\p{M}\p{N}]/gu) ?? [];
}

/** Plain-JS reference: L2-normalised mean of dequantised vectors of known words (float64). */
function reference(text: string): number[] {
  const known = tokens(text).map((t) => vocab.get(t)).filter((id): id is number => id !== undefined && id > 1);
  const sum = new Array<number>(DIM).fill(0);
  for (const id of known) for (let d = 0; d < DIM; d++) sum[d] += table[id * DIM + d] * scales[id];
  const norm = Math.sqrt(sum.reduce((a, x) => a + x * x, 0));
  return norm === 0 ? sum : sum.map((x) => x / norm);
}

function cos(m: Float32Array, i: number, j: number): number {
  let s = 0;
  for (let d = 0; d < DIM; d++) s += m[i * DIM + d] * m[j * DIM + d];
  return s;
}

test('default model folder exists with its provenance files', () => {
  for (const f of ['model.onnx', 'tokenizer.json', 'README.md', 'SHA256SUMS']) assert.ok(existsSync(path.join(DIR, f)), f);
  assert.match(readFileSync(path.join(DIR, 'README.md'), 'utf8'), /PDDL/);
  assert.equal(vocab.size, 50_002);
  assert.equal(vocab.get('[PAD]'), 0);
  assert.equal(vocab.get('[UNK]'), 1);
  assert.equal(vocab.get('the'), 2); // most frequent GloVe word first
  // The shipped files are the ones SHA256SUMS names (npm run build:models -- --check rebuilds them).
  const sums = readFileSync(path.join(DIR, 'SHA256SUMS'), 'utf8').trim().split('\n');
  assert.equal(sums.length, 5);
  for (const line of sums) {
    const [hash, name] = line.split(/\s+/);
    assert.equal(createHash('sha256').update(readFileSync(path.join(DIR, name))).digest('hex'), hash, name);
  }
  assert.match(e.id, /^onnx:glove-6b-100d-50k-int8@[0-9a-f]{16}$/);
  assert.equal(e.dim, DIM);
});

// Tolerance 6e-8 = one float32 ulp in [0.5, 1): ORT computes in float32, the reference in float64.
test('embeddings equal the plain-JS computation from the int8 table (within one float32 ulp)', async () => {
  const texts = [
    'The king and the queen ruled the country.',
    'How do I declare query parameters in FastAPI?',
    'Path-parameters, e-mail & JSON: 3.5 percent!',
    'carrot',
  ];
  const got = await e.embed(texts);
  texts.forEach((t, i) => {
    const ref = reference(t);
    for (let d = 0; d < DIM; d++) assert.ok(Math.abs(got[i * DIM + d] - ref[d]) <= 6e-8, `${t} [${d}] ${got[i * DIM + d]} vs ${ref[d]}`);
  });
});

test('semantics, normalisation, OOV masking, empty and Chinese text', async () => {
  const m = await e.embed(['king', 'queen', 'carrot', 'king zzqqxxyy', '', 'zzqqxxyy', '你好，世界', 'king queen']);
  assert.ok(cos(m, 0, 1) > cos(m, 0, 2), `king·queen ${cos(m, 0, 1)} vs king·carrot ${cos(m, 0, 2)}`);
  for (const i of [0, 1, 2, 3, 7]) assert.ok(Math.abs(cos(m, i, i) - 1) < 1e-6, `row ${i} norm`);
  // An unknown word is masked out, it does not pull the mean towards zero.
  for (let d = 0; d < DIM; d++) assert.equal(m[3 * DIM + d], m[d]);
  for (const i of [4, 5]) assert.ok(m.subarray(i * DIM, (i + 1) * DIM).every((x) => x === 0), `row ${i} zero`);
  assert.ok(m.subarray(6 * DIM, 7 * DIM).every((x) => Number.isFinite(x)));
  assert.equal(e.countTokens('Hello, world!'), 4);
  assert.equal(e.countTokens(''), 0);
});

interface SampleWord {
  id: number;
  rank: number;
  vector: number[];
}

test('shipped rows: int8 of the source GloVe vector, SIF weight a/(a + p_zipf(rank)) folded into the scale', () => {
  const config = JSON.parse(readFileSync(path.join(DIR, 'config.json'), 'utf8')) as { pooling: string; sif_a: number; sif_ranked_words: number };
  assert.equal(config.pooling, 'sif-weighted-mean');
  assert.equal(config.sif_a, 1e-4);
  assert.equal(config.sif_ranked_words, 341_479);
  let h = 0; // harmonic number H_N: Zipf normaliser over the N ranked source words
  for (let r = config.sif_ranked_words; r >= 1; r--) h += 1 / r;
  const sample = JSON.parse(readFileSync(path.join(FIXTURES, 'models', 'glove-sample.json'), 'utf8')) as { words: Record<string, SampleWord> };
  for (const [word, { id, rank, vector }] of Object.entries(sample.words)) {
    assert.equal(vocab.get(word), id, word);
    const s0 = Math.fround(Math.max(...vector.map(Math.abs)) / 127);
    const q = vector.map((x) => Math.sign(x / s0) * Math.round(Math.abs(x / s0)));
    const weight: number = config.sif_a / (config.sif_a + 1 / ((rank + 1) * h));
    assert.deepEqual([...table.subarray(id * DIM, (id + 1) * DIM)], q, `${word}: int8 row`);
    assert.equal(scales[id], Math.fround(weight * s0), `${word}: scale`);
  }
  // "the" (rank 0) is weighted ≈ 1/700 of "carrot" (rank 19,587): the frequent word barely counts.
  assert.ok(scales[vocab.get('the')!] / scales[vocab.get('carrot')!] < 0.01);
});

test('SIF: a frequent word barely moves the sentence vector; single-word rows are the unit int8 row (scale-free)', async () => {
  const m = await e.embed(['the king', 'king', 'queen']);
  assert.ok(cos(m, 0, 1) > 0.9999, `the king · king = ${cos(m, 0, 1)}`);
  // One-token rows (what the MaxSim baseline uses) are q/‖q‖ whatever the row scale, so the SIF
  // weights leave the MaxSim scores unchanged.
  for (const [i, w] of [[1, 'king'], [2, 'queen']] as const) {
    const id = vocab.get(w)!;
    const q = [...table.subarray(id * DIM, (id + 1) * DIM)];
    const n = Math.sqrt(q.reduce((s, x) => s + x * x, 0));
    for (let d = 0; d < DIM; d++) assert.ok(Math.abs(m[i * DIM + d] - q[d] / n) <= 6e-8, `${w}[${d}]`);
  }
});

test('MaxSim baseline: score = Σ zipf(q) · max cosine, labelled baseline, prefers the related passage', async () => {
  const r = await createMaxSimReranker({ threads: 1 });
  try {
    assert.equal(r.baseline, true);
    assert.match(r.id, /^maxsim-baseline/);
    const unit = (w: string) => reference(w);
    const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);
    const [king, queen, carrot, monarch] = ['king', 'queen', 'carrot', 'monarch'].map(unit);
    const s = await r.score('king carrot', ['queen', 'monarch carrot', '']);
    const wk = zipfWeight(vocab.get('king')!);
    const wc = zipfWeight(vocab.get('carrot')!);
    const expected = [
      wk * Math.max(0, dot(king, queen)) + wc * Math.max(0, dot(carrot, queen)),
      wk * Math.max(dot(king, monarch), dot(king, carrot), 0) + wc * Math.max(dot(carrot, monarch), dot(carrot, carrot), 0),
      0,
    ];
    for (let i = 0; i < 3; i++) assert.ok(Math.abs(s[i] - expected[i]) < 1e-5, `${i}: ${s[i]} vs ${expected[i]}`);
    const ranked = await r.score('how to declare query parameters', ['Query parameters are declared as function arguments.', 'The weather is nice today.']);
    assert.ok(ranked[0] > ranked[1]);
  } finally {
    await r.dispose();
  }
});
