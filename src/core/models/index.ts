/**
 * Models (SPEC §5.3): sentence embedders, cross-encoders and the MaxSim baseline reranker, all run
 * offline on CPU through `onnxruntime-node`.
 *
 * - The embedded default is a static GloVe 6B 100-d model (50k words, int8 with per-row scales)
 *   shipped in `media/models/glove-6b-100d-50k-int8/` and built by `npm run build:models`; it is loaded
 *   through the same folder-loading code path as user models.
 * - User model folders: `model.onnx` (or `onnx/model.onnx`) + `tokenizer.json` (or `vocab.txt`), as
 *   exported by Hugging Face Optimum / Xenova. See docs/models.md.
 */
export type { TextEmbedder, PairScorer, ModelOptions } from './types';
export { defaultModelDir, DEFAULT_MODEL_NAME } from './defaultModel';
export { loadEmbedderFromFolder } from './embedder';
export { loadCrossEncoderFromFolder } from './crossEncoder';
export { createMaxSimReranker } from './maxSim';

import type { ModelOptions, TextEmbedder } from './types';
import { defaultModelDir } from './defaultModel';
import { loadEmbedderFromFolder } from './embedder';

/**
 * Loads the embedded default static GloVe embedder (`loadEmbedderFromFolder(defaultModelDir())`).
 * Throws SpanproofError('model') if the shipped files are missing (run `npm run build:models`).
 */
export function loadDefaultEmbedder(opts: ModelOptions): Promise<TextEmbedder> {
  return loadEmbedderFromFolder(defaultModelDir(), opts);
}
