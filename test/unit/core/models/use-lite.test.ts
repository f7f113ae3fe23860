// The built-in use-lite embedder (media/models/use-lite): files match SHA256SUMS; loads through the
// registry and the ordinary folder path; and a fast parity check against the ORIGINAL TF.js graph
// (tfjs-core + tfjs-converter + WebAssembly backend, devDependencies) on a handful of real sentences:
// the shipped int8 model within cosine 0.99 per sentence (the build check requires that against the
// fp32 conversion on 256 texts), the in-memory fp32 conversion within 0.9999. The full check is
// `npm run build:models -- --check --model use-lite`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { builtinModelDir, loadEmbedder } from '../../../../src/core/models/registry';
import { loadEmbedderFromFolder } from '../../../../src/core/models/embedder';
import { readTfjsModel } from '../../../../src/core/models/build/tfjsModel';
import { encodeUseLite } from '../../../../src/core/models/build/useLiteGraph';
import type { TextEmbedder } from '../../../../src/core/models/types';
import { loadUseReference, useSourceDir, type UseReference } from '../../../../scripts/models/useReference';
import { SHIPPED, useLiteModel } from '../../../../scripts/models/useLite';

const DIR = builtinModelDir('use-lite');
const SENTENCES = [
  'How do I declare a path parameter with a type in FastAPI?',
  'Query parameters that are not part of the path are interpreted as query parameters.',
  'The Angler had caught a trout of nearly two feet in length.',
  'Beauty, n. The power by which a woman charms a lover and terrifies a husband.',
  'Super Bowl 50 was an American football game to determine the champion of the NFL for the 2015 season.',
  'Use 🚀 emoji, `code`, and a very long URL https://example.com/a/b/c?d=e in one line.',
];
let ref: UseReference;
let refVecs: Float32Array;
let shipped: TextEmbedder;

function cosines(a: Float32Array, b: Float32Array, dim = 512): number[] {
  const out: number[] = [];
  for (let o = 0; o < a.length; o += dim) {
    let ab = 0, aa = 0, bb = 0;
    for (let d = 0; d < dim; d++) {
      ab += a[o + d] * b[o + d];
      aa += a[o + d] ** 2;
      bb += b[o + d] ** 2;
    }
    out.push(ab / Math.sqrt(aa * bb));
  }
  return out;
}

before(async () => {
  ref = await loadUseReference();
  refVecs = await ref.embed(SENTENCES);
  shipped = await loadEmbedder({ kind: 'builtin', name: 'use-lite' }, { threads: 1 });
});
after(() => shipped.dispose());

test('use-lite files match their SHA256SUMS', () => {
  const sums = readFileSync(path.join(DIR, 'SHA256SUMS'), 'utf8').trim().split('\n');
  assert.ok(sums.length >= 5);
  for (const line of sums) {
    const [hash, name] = line.split(/\s+/);
    assert.equal(createHash('sha256').update(readFileSync(path.join(DIR, name))).digest('hex'), hash, name);
  }
});

test('use-lite: 512-d unit vectors; the shipped int8 model is within cosine 0.99 of the TF.js graph per sentence', async () => {
  assert.equal(shipped.dim, 512);
  assert.match(shipped.id, /^onnx:use-lite@[0-9a-f]{16}$/);
  const v = await shipped.embed(SENTENCES);
  for (let i = 0; i < SENTENCES.length; i++) {
    const n = Math.hypot(...v.subarray(i * 512, (i + 1) * 512));
    assert.ok(Math.abs(n - 1) < 1e-5, `norm ${n}`);
  }
  const c = cosines(v, refVecs);
  c.forEach((x, i) => assert.ok(x >= 0.99, `${SENTENCES[i]}: cosine ${x}`));
  // batching and padding do not change a row (padding is masked): embed one alone
  const alone = await shipped.embed([SENTENCES[3]]);
  assert.ok(cosines(alone, v.subarray(3 * 512, 4 * 512))[0] > 0.999999);
});

test('the fp32 conversion of the installed TF.js package is within cosine 0.9999 of the TF.js graph per sentence', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'spanproof-use-fp32-'));
  try {
    writeFileSync(path.join(dir, 'model.onnx'), encodeUseLite(readTfjsModel(useSourceDir()), 'fp32', 'test'));
    for (const f of ['tokenizer.json', 'tokenizer_config.json']) copyFileSync(path.join(DIR, f), path.join(dir, f));
    const fp32 = await loadEmbedderFromFolder(dir, { threads: 1 });
    try {
      const c = cosines(await fp32.embed(SENTENCES), refVecs);
      c.forEach((x, i) => assert.ok(x >= 0.9999, `${SENTENCES[i]}: cosine ${x}`));
    } finally {
      await fp32.dispose();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the shipped model.onnx is exactly the int8 conversion of the installed TF.js package', () => {
  const built = useLiteModel(SHIPPED).onnx;
  assert.ok(built.equals(readFileSync(path.join(DIR, 'model.onnx'))), 'rebuild differs from media/models/use-lite/model.onnx');
});
