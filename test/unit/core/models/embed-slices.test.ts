// OnnxEmbedder.embed tokenises in slices that yield to the event loop; the batches must still be formed
// over all rows (length-sorted), so embed(texts) equals embedRows of the same rows bit for bit (a guard
// against forming batches per slice, which would change the ONNX calls). The yielding itself is
// measured, not asserted (no timing tests): see docs/models.md "Speed".
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { staticGloveDir } from '../../../../src/core/models/defaultModel';
import { type OnnxEmbedder, openOnnxEmbedder } from '../../../../src/core/models/embedder';

let emb: OnnxEmbedder;
before(async () => {
  emb = await openOnnxEmbedder(staticGloveDir(), { threads: 1, batchSize: 7 });
});
after(() => emb.dispose());

test('embed(texts) is bit-identical to embedRows(encodeSingle(texts)) with mixed lengths and empty texts', async () => {
  const words = ['path', 'query', 'parameters', 'the', 'dependency', 'injection', 'zzqxj', 'fastapi', 'request', 'body'];
  const texts: string[] = [];
  for (let i = 0; i < 3000; i++) {
    const n = (i * 37) % 400;
    texts.push(i % 97 === 0 ? '' : Array.from({ length: n }, (_, j) => words[(i + j * j) % words.length]).join(' '));
  }
  const got = await emb.embed(texts);
  const want = await emb.embedRows(texts.map((t) => emb.tokenizer.encodeSingle(t)));
  assert.equal(got.length, texts.length * emb.dim);
  assert.ok(Buffer.from(got.buffer).equals(Buffer.from(want.buffer)), 'embed differs from embedRows');
});
