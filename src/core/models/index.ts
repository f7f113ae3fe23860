/**
 * Models (SPEC §5.3): sentence embedders, cross-encoders and the MaxSim baseline reranker, all run
 * offline on CPU through `onnxruntime-node`.
 *
 * - Two built-in embedders (registry.ts): `use-lite`, Universal Sentence Encoder Lite converted to
 *   ONNX (`media/models/use-lite/`), and `static-glove`, GloVe 6B 100-d (50k words, int8 with per-row
 *   scales, `media/models/glove-6b-100d-50k-int8/`), both built by `npm run build:models` and loaded
 *   through the same folder-loading code path as user models. Which one is the default:
 *   {@link DEFAULT_EMBEDDER} (decided by the rule in docs/models.md).
 * - User model folders: `model.onnx` (or `onnx/model.onnx`) + `tokenizer.json` (or `vocab.txt`), as
 *   exported by Hugging Face Optimum / Xenova. See docs/models.md.
 */
export type { TextEmbedder, PairScorer, ModelOptions } from './types';
export { staticGloveDir, STATIC_GLOVE_FOLDER } from './defaultModel';
export {
  BASELINE_RERANKER_LABEL,
  BUILTIN_EMBEDDERS,
  DEFAULT_EMBEDDER,
  ENDPOINT_PREFIX,
  describeEmbedder,
  embedderFromSetting,
  embedderName,
  parseEmbedderList,
  parseEmbedderSpec,
  runEmbedderSpecs,
  type BuiltinEmbedderName,
  type EmbedderSpec,
} from './embedderSpec';
export { builtinModelDir, loadEmbedder, type EmbedderContext } from './registry';
export { parseRerankerSpec, rerankerName, describeReranker, type RerankerSpec } from './rerankerSpec';
export { loadReranker, type RerankerContext } from './rerankers';
export { ModelEndpoint, type ModelLedgerFile } from './endpoint';
export { loadEmbedderFromFolder } from './embedder';
export { loadCrossEncoderFromFolder } from './crossEncoder';
export { createMaxSimReranker } from './maxSim';

import type { ModelOptions, TextEmbedder } from './types';
import { DEFAULT_EMBEDDER } from './embedderSpec';
import { loadEmbedder } from './registry';

/**
 * Loads the default built-in embedder ({@link DEFAULT_EMBEDDER}). Throws SpanproofError('model') if
 * the shipped files are missing (run `npm run build:models`).
 */
export function loadDefaultEmbedder(opts: ModelOptions): Promise<TextEmbedder> {
  return loadEmbedder({ kind: 'builtin', name: DEFAULT_EMBEDDER }, { threads: opts.threads });
}
