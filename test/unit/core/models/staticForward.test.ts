// The embedded static model's TypeScript port (src/core/models/staticForward.ts) against the
// reference it ports: an onnxruntime-node session of the same model.onnx, bit for bit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync, mkdirSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { onnx } from 'onnx-proto';
import { createSession, feedsFor, orderByLength, runSession } from '../../../../src/core/models/session';
import { normaliseRows, openOnnxEmbedder } from '../../../../src/core/models/embedder';
import { openModelFolder } from '../../../../src/core/models/folder';
import { readStaticModel, staticForward } from '../../../../src/core/models/staticForward';
import type { EncodedRow } from '../../../../src/core/models/tokenizer';
import { REPO, SHARED_DATA } from '../../../helpers/paths';
import { tempDir } from '../../../helpers/tmp';

const MODEL_DIR = join(REPO, 'media/models/glove-6b-100d-50k-int8');
const MODEL = join(MODEL_DIR, 'model.onnx');

/** Windows of the FastAPI docs fixture of many lengths (1 … ≈ 2,500 tokens), plus edge rows. */
function texts(): string[] {
  const out: string[] = ['', 'a', '!!! ??', 'zzqxv wvvqz', 'query zzqxv parameter', 'the the the the the the the'];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.md')) {
        const s = readFileSync(p, 'utf8');
        for (let i = 0, k = 0; i < s.length; i += 1500, k++) out.push(s.slice(i, i + 40 + ((k * 977) % 9000)));
      }
    }
  };
  walk(join(SHARED_DATA, 'fastapi-docs'));
  return out;
}

const bits = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

test('the graph of the shipped model is recognised; its port gives onnxruntime\'s bytes at batch sizes 1, 2, 3, 7, 32 and 1 and 2 threads', async () => {
  const folder = openModelFolder(MODEL_DIR);
  const weights = readStaticModel(onnx.ModelProto.decode(readFileSync(MODEL)));
  assert.ok(weights, 'the shipped model is the static graph');
  assert.deepEqual([weights.vocab, weights.dim, weights.lastSpecialId], [50_002, 100, 1]);
  const rows: EncodedRow[] = texts().map((t) => folder.tokenizer.encodeSingle(t));
  assert.ok(rows.length > 300 && Math.max(...rows.map((r) => r.ids.length)) > 1500, 'long and short rows');
  assert.ok(rows.some((r) => r.ids.includes(1) && r.ids.some((id) => id > 1)), 'rows mixing [UNK] and known words');
  const order = orderByLength(rows.map((r) => r.ids.length));
  for (const threads of [1, 2]) {
    const session = await createSession(MODEL, threads, MODEL_DIR);
    try {
      for (const batch of [1, 2, 3, 7, 32]) {
        let compared = 0;
        for (let s = 0; s < order.length; s += batch) {
          const part = order.slice(s, s + batch).map((i) => rows[i]);
          const { feeds } = feedsFor(session, part, folder.tokenizer.padId);
          const ref = Float32Array.from((await runSession(session, feeds, ['sentence_embedding'], MODEL_DIR)).sentence_embedding.data as Float32Array);
          const port = staticForward(weights, part);
          if (!bits(port).equals(bits(ref))) {
            const r = [...part.keys()].find((k) => !bits(port.subarray(k * 100, k * 100 + 100)).equals(bits(ref.subarray(k * 100, k * 100 + 100))));
            assert.fail(`threads ${threads}, batch ${batch}: row of ${part[r ?? 0].ids.length} tokens in a batch of width ${Math.max(...part.map((p) => p.ids.length))} differs`);
          }
          compared += part.length;
        }
        assert.equal(compared, rows.length);
      }
    } finally {
      await session.release();
    }
  }
});

test('the embedder opens the shipped model without a session and embeds exactly as the session path did', async () => {
  const folder = openModelFolder(MODEL_DIR);
  const all = texts();
  const embedder = await openOnnxEmbedder(MODEL_DIR, { threads: 2 });
  const session = await createSession(MODEL, 2, MODEL_DIR);
  try {
    assert.equal(embedder.parameters, 5_050_207);
    assert.equal(embedder.dim, 100);
    const got = await embedder.embed(all);
    // The session path as embedRows ran it: rows with content tokens, length-sorted, 32 per call, L2-normalised.
    const rows = all.map((t) => folder.tokenizer.encodeSingle(t));
    const want = new Float32Array(rows.length * 100);
    const live = orderByLength(rows.map((r) => r.ids.length)).filter((i) => rows[i].contentTokens > 0);
    for (let s = 0; s < live.length; s += 32) {
      const idx = live.slice(s, s + 32);
      const { feeds } = feedsFor(session, idx.map((i) => rows[i]), folder.tokenizer.padId);
      const v = Float32Array.from((await runSession(session, feeds, ['sentence_embedding'], MODEL_DIR)).sentence_embedding.data as Float32Array);
      normaliseRows(v, 100);
      idx.forEach((i, b) => want.set(v.subarray(b * 100, (b + 1) * 100), i * 100));
    }
    assert.ok(bits(got).equals(bits(want)));
  } finally {
    await embedder.dispose();
    await session.release();
  }
});

test('a graph that differs from the static graph in one node, one constant or one input is left to onnxruntime', (t) => {
  const base = onnx.ModelProto.decode(readFileSync(MODEL));
  const variant = (edit: (m: onnx.ModelProto) => void) => {
    const m = onnx.ModelProto.decode(onnx.ModelProto.encode(base).finish());
    edit(m);
    return readStaticModel(m);
  };
  assert.ok(variant(() => {}));
  assert.equal(variant((m) => { m.graph!.node![10].opType = 'ReduceMean'; }), undefined, 'ReduceSum → ReduceMean');
  assert.equal(variant((m) => { m.graph!.node!.pop(); }), undefined, 'a node fewer');
  assert.equal(variant((m) => { m.graph!.node![0].attribute![0].i = 1; }), undefined, 'Gather axis');
  const eps = (m: onnx.ModelProto) => m.graph!.initializer!.find((i) => i.name === 'eps')!;
  assert.equal(variant((m) => { eps(m).rawData = new Uint8Array(Float32Array.of(1e-6).buffer); }), undefined, 'eps constant');
  const special = (m: onnx.ModelProto) => m.graph!.initializer!.find((i) => i.name === 'last_special_id')!;
  const w = variant((m) => { special(m).rawData = new Uint8Array(BigInt64Array.of(5n).buffer); });
  assert.equal(w?.lastSpecialId, 5, 'a different special-id bound is a parameter of the same graph');
  assert.equal(variant((m) => { m.graph!.input![1].name = 'mask'; }), undefined, 'input renamed');
  // And such a model still loads (through onnxruntime) as an embedder.
  const dir = tempDir('spanproof-static-variant-', t);
  mkdirSync(join(dir, 'm'));
  for (const f of ['tokenizer.json', 'tokenizer_config.json', 'config.json']) copyFileSync(join(MODEL_DIR, f), join(dir, 'm', f));
  const m = onnx.ModelProto.decode(onnx.ModelProto.encode(base).finish());
  eps(m).rawData = new Uint8Array(Float32Array.of(1e-6).buffer);
  writeFileSync(join(dir, 'm', 'model.onnx'), onnx.ModelProto.encode(m).finish());
  return openOnnxEmbedder(join(dir, 'm'), { threads: 1 }).then(async (e) => {
    const v = await e.embed(['query parameter']);
    assert.equal(v.length, 100);
    await e.dispose();
  });
});
