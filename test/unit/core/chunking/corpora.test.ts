/**
 * Every chunker on every shared corpus (fastapi-docs: emoji + Markdown; prose: CRLF Gutenberg books;
 * chroma corpora): offsets, coverage, safe boundaries, order (all via assertChunkInvariants, which
 * chunkCorpus also runs), size bounds, and determinism (a second run is identical).
 */
import { test } from 'node:test';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import assert from 'node:assert/strict';
import { assertChunkInvariants, chunkCorpus } from '../../../../src/core/chunking';
import { sentenceRanges, sentenceRangesWholeText } from '../../../../src/core/chunking/sentences';
import { staticGloveDir, loadEmbedder } from '../../../../src/core/models';
import type { ChunkerId } from '../../../../src/core/types';
import { DEFAULT_SETTINGS } from '../../../../src/core/settings';
import { hashedBagOfWords, loadSharedCorpus, SHARED_CORPORA } from '../../../helpers/chunking';

const params = DEFAULT_SETTINGS.chunkerParams;
const MAX: Record<ChunkerId, number> = {
  fixed: params.fixed.size,
  recursive: params.recursive.size,
  sentence: params.sentence.size,
  heading: params.heading.maxSize,
  semantic: params.semantic.maxSize,
};

for (const rel of SHARED_CORPORA) {
  test(`chunk invariants and determinism on ${rel}`, async () => {
    const docs = await loadSharedCorpus(rel);
    assert.ok(docs.length > 0);
    for (const chunker of DEFAULT_SETTINGS.chunkers) {
      const embed = chunker === 'semantic' ? hashedBagOfWords(256) : undefined;
      const chunks = await chunkCorpus(docs, chunker, params, embed);
      assert.ok(chunks.length >= docs.length, `${chunker}: at least one chunk per non-empty document`);
      for (const d of docs) assertChunkInvariants(d, chunks.filter((c) => c.source === d.source), chunker);
      for (const c of chunks) assert.ok(c.end - c.start <= MAX[chunker], `${chunker} ${c.id} is longer than ${MAX[chunker]}`);
      // Document order: sources ascending as loaded, then offsets.
      const order = new Map(docs.map((d, i) => [d.source, i]));
      for (let i = 1; i < chunks.length; i++) {
        const a = chunks[i - 1];
        const b = chunks[i];
        assert.ok(order.get(a.source)! < order.get(b.source)! || (a.source === b.source && a.start <= b.start), `${chunker}: ${a.id} before ${b.id}`);
      }
      if (chunker !== 'heading') {
        // heading parses Markdown (≈ 3 s on fastapi-docs); its determinism is checked on the smaller corpora and by the property tests.
        const again = await chunkCorpus(docs, chunker, params, chunker === 'semantic' ? hashedBagOfWords(256) : undefined);
        assert.deepEqual(again, chunks, `${chunker} is deterministic`);
      }
    }
  });
}

test('per-line sentence segmentation equals one Intl.Segmenter pass over the whole text (chroma corpora)', async () => {
  const docs = await loadSharedCorpus('test/fixtures/shared-data/chroma/corpora');
  for (const d of docs) assert.deepEqual(sentenceRanges(d.text), sentenceRangesWholeText(d.text), d.source);
});

test('semantic with the static-glove embedder keeps the invariants (chroma corpora)', async (t) => {
  const docs = await loadSharedCorpus('test/fixtures/shared-data/chroma/corpora');
  if (!existsSync(path.join(staticGloveDir(), 'model.onnx'))) {
    t.skip(`the default model is not built in ${staticGloveDir()} (npm run build:models)`);
    return;
  }
  const model = await loadEmbedder({ kind: 'builtin', name: 'static-glove' }, { threads: 1 });
  t.after(() => model.dispose());
  const chunks = await chunkCorpus(docs, 'semantic', params, { fn: (x) => model.embed(x), dim: model.dim });
  for (const d of docs) assertChunkInvariants(d, chunks.filter((c) => c.source === d.source), 'semantic');
  for (const c of chunks) assert.ok(c.end - c.start <= params.semantic.maxSize);
  assert.ok(chunks.length > docs.length);
});
