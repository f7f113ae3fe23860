/**
 * Sentence embedders from model folders (SPEC §5.3): the embedded static GloVe default and user
 * transformer exports go through this one code path.
 */
import type * as ort from 'onnxruntime-node';
import * as path from 'node:path';
import { SpanproofError } from '../errors';
import { type ModelFolder, type Pooling, openModelFolder } from './folder';
import { createSession, feedsFor, orderByLength, runSession } from './session';
import type { EncodedRow, ModelTokenizer } from './tokenizer';
import type { EmbedProgress, ModelOptions, TextEmbedder } from './types';
import { countModelParameters, countOnnxParameters, decodeOnnxModel } from './parameters';
import { readStaticModel, staticForward, type StaticModelWeights } from './staticForward';

/** Outputs that already hold one vector per text (sentence-transformers ONNX exports, our static model). */
const SENTENCE_OUTPUTS = ['sentence_embedding'];
/** Token-level outputs `[batch, seq, hidden]`, pooled here. */
const TOKEN_OUTPUTS = ['last_hidden_state', 'token_embeddings'];
/** Pooled outputs used only when no token-level output exists (BERT's tanh pooler is not an ST embedding). */
const POOLED_FALLBACK = ['pooler_output'];

export const DEFAULT_BATCH_SIZE = 32;
/** Longest stretch of tokenising in {@link OnnxEmbedder.embed} before yielding to the event loop, ms. */
const YIELD_MS = 25;

/**
 * Loads a sentence embedder from a model folder (see {@link openModelFolder} for the files).
 * Output chosen: `sentence_embedding` if declared, else `last_hidden_state` / `token_embeddings`
 * pooled per `1_Pooling/config.json` (mean over the attention mask when absent; cls; max; last token),
 * else `pooler_output`. Rows are always L2-normalised (the contract is cosine by dot product),
 * whether or not the folder has a Normalize module. A text with no tokens gives a zero row.
 *
 * Throws SpanproofError('not-found') when the folder does not exist, SpanproofError('model') when files
 * are missing, or inputs/outputs are not understood (the message names them).
 */
export function loadEmbedderFromFolder(dir: string, opts: ModelOptions): Promise<TextEmbedder> {
  return openOnnxEmbedder(dir, opts);
}

/** {@link loadEmbedderFromFolder} with the concrete type (token-level access for the MaxSim baseline). */
export async function openOnnxEmbedder(dir: string, opts: ModelOptions): Promise<OnnxEmbedder> {
  const folder = openModelFolder(dir);
  const batchSize = opts.batchSize ?? DEFAULT_BATCH_SIZE;
  // The embedded static model's graph is computed by its exact TypeScript port (staticForward.ts):
  // the same floats, without the [batch, width, dim] intermediates of a session call.
  const decoded = await decodeOnnxModel(folder.modelPath).catch(() => undefined); // not decodable: onnxruntime reports it below
  const weights = decoded ? readStaticModel(decoded) : undefined;
  if (decoded && weights) {
    const embedder = new OnnxEmbedder(folder, { kind: 'static', weights }, batchSize);
    embedder.threads = opts.threads;
    embedder.parameters = countModelParameters(decoded);
    // No probe: the port's rows are `weights.dim` long by construction, and the tokenizer (built on
    // first use) is not needed by a run whose vectors and counts all come from the caches.
    embedder.dim = weights.dim;
    return embedder;
  }
  const session = await createSession(folder.modelPath, opts.threads, dir);
  const output = pickOutput(session, dir);
  const embedder = new OnnxEmbedder(folder, { kind: 'session', session, output }, batchSize);
  embedder.threads = opts.threads;
  try {
    embedder.parameters = decoded ? countModelParameters(decoded) : await countOnnxParameters(folder.modelPath);
    await embedder.probe();
  } catch (e) {
    await session.release();
    throw e;
  }
  return embedder;
}

/** How a batch of rows is computed: an onnxruntime session and its chosen output, or the static model's port. */
export type EmbedderForward =
  | { kind: 'session'; session: ort.InferenceSession; output: { name: string; kind: 'sentence' | 'token' } }
  | { kind: 'static'; weights: StaticModelWeights };

function pickOutput(session: ort.InferenceSession, dir: string): { name: string; kind: 'sentence' | 'token' } {
  const outs = session.outputNames;
  const sentence = SENTENCE_OUTPUTS.find((n) => outs.includes(n));
  if (sentence) return { name: sentence, kind: 'sentence' };
  const token = TOKEN_OUTPUTS.find((n) => outs.includes(n));
  if (token) return { name: token, kind: 'token' };
  const pooled = POOLED_FALLBACK.find((n) => outs.includes(n));
  if (pooled) return { name: pooled, kind: 'sentence' };
  void session.release();
  throw new SpanproofError('model', `Model outputs not understood: declares [${outs.join(', ')}].`, {
    file: dir,
    field: 'outputs',
    fix: `An embedder needs one of ${[...SENTENCE_OUTPUTS, ...TOKEN_OUTPUTS, ...POOLED_FALLBACK].join(', ')} (a cross-encoder with "logits" is loaded as a reranker instead).`,
  });
}

/** The ONNX-backed {@link TextEmbedder}; also used by the MaxSim baseline for per-token vectors. */
export class OnnxEmbedder implements TextEmbedder {
  readonly id: string;
  dim = 0;
  /** ONNX initializer elements, set when the model is opened. */
  parameters = 0;
  /** `intraOpNumThreads` of its session (set when the model is opened). */
  threads = 1;
  private released = false;

  constructor(
    private readonly folder: ModelFolder,
    private readonly forward: EmbedderForward,
    private readonly batchSize: number,
  ) {
    this.id = `onnx:${path.basename(folder.dir)}@${folder.contentHash}`;
  }

  get tokenizer(): ModelTokenizer {
    return this.folder.tokenizer;
  }

  /** Absolute path of its model folder. */
  get dir(): string {
    return this.folder.dir;
  }

  /** The batch size of its session calls. */
  get batch(): number {
    return this.batchSize;
  }

  /** Runs one tiny input to learn `dim` and fail early on shape surprises. */
  async probe(): Promise<void> {
    const row = this.folder.tokenizer.encodeSingle('a');
    const out = await this.runRows([row.ids.length > 0 ? row : { ids: [this.folder.tokenizer.padId], typeIds: [0], contentTokens: 1 }]);
    if (this.dim === 0 || out.length !== this.dim) {
      const name = this.forward.kind === 'session' ? this.forward.output.name : 'sentence_embedding';
      throw new SpanproofError('model', `Output ${name} has an unexpected shape.`, { file: this.folder.dir, field: `outputs.${name}` });
    }
  }

  countTokens(text: string): number {
    return this.folder.tokenizer.countTokens(text);
  }

  async embed(texts: readonly string[], onProgress?: EmbedProgress): Promise<Float32Array> {
    this.assertOpen();
    // Tokenised in slices that yield to the event loop every ~25 ms (a large chunk set took 300–900 ms
    // of tokenising before the first await, stalling progress and cancel, SPEC §6). The batches are
    // still formed over ALL rows (length-sorted), so the ONNX calls and the numbers are unchanged.
    const rows: EncodedRow[] = new Array(texts.length);
    let since = performance.now();
    for (let i = 0; i < texts.length; i++) {
      rows[i] = this.folder.tokenizer.encodeSingle(texts[i]);
      if (performance.now() - since > YIELD_MS) {
        await new Promise<void>((r) => setImmediate(r));
        this.assertOpen();
        since = performance.now();
      }
    }
    return this.embedRows(rows, onProgress);
  }

  /** Embeds pre-tokenised rows (batched, length-sorted); rows with no content tokens stay zero. `onProgress` as in `embed`. */
  async embedRows(rows: readonly EncodedRow[], onProgress?: EmbedProgress): Promise<Float32Array> {
    this.assertOpen();
    const result = new Float32Array(rows.length * this.dim);
    const live = orderByLength(rows.map((r) => r.ids.length)).filter((i) => rows[i].contentTokens > 0);
    for (let s = 0; s < live.length; s += this.batchSize) {
      const idx = live.slice(s, s + this.batchSize);
      const vecs = await this.runRows(idx.map((i) => rows[i]));
      idx.forEach((i, b) => result.set(vecs.subarray(b * this.dim, (b + 1) * this.dim), i * this.dim));
      await onProgress?.(Math.min(s + this.batchSize, live.length), live.length);
    }
    return result;
  }

  /** One session.run over `rows` (or its exact port); returns `rows.length × dim`, L2-normalised. Sets `dim` on first use. */
  private async runRows(rows: readonly EncodedRow[]): Promise<Float32Array> {
    if (this.forward.kind === 'static') {
      const { weights } = this.forward;
      this.dim ||= weights.dim;
      const out = staticForward(weights, rows);
      normaliseRows(out, weights.dim);
      return out;
    }
    const { session, output } = this.forward;
    const { feeds, width } = feedsFor(session, rows, this.folder.tokenizer.padId);
    const res = await runSession(session, feeds, [output.name], this.folder.dir);
    const t = res[output.name];
    const data = t.data as Float32Array;
    if (t.type !== 'float32') {
      throw new SpanproofError('model', `Output ${output.name} is ${t.type}, expected float32.`, { file: this.folder.dir, field: `outputs.${output.name}` });
    }
    const dims = t.dims;
    let out: Float32Array;
    if (output.kind === 'sentence') {
      if (dims.length !== 2 || dims[0] !== rows.length) throw shapeError(this.folder.dir, output.name, dims, '[batch, dim]');
      this.dim ||= dims[1];
      out = Float32Array.from(data);
    } else {
      if (dims.length !== 3 || dims[0] !== rows.length || dims[1] !== width) throw shapeError(this.folder.dir, output.name, dims, '[batch, seq, hidden]');
      this.dim ||= dims[2];
      out = poolTokens(data, rows, width, dims[2], this.folder.pooling);
    }
    normaliseRows(out, dims[dims.length - 1]);
    return out;
  }

  async dispose(): Promise<void> {
    if (this.released) return;
    this.released = true;
    if (this.forward.kind === 'session') await this.forward.session.release();
  }

  private assertOpen(): void {
    if (this.released) throw new SpanproofError('internal', 'Embedder used after dispose().');
  }
}

function shapeError(dir: string, name: string, dims: readonly number[], expected: string): SpanproofError {
  return new SpanproofError('model', `Output ${name} has shape [${dims.join(', ')}], expected ${expected}.`, { file: dir, field: `outputs.${name}` });
}

/**
 * Pools token vectors `[rows, width, hidden]` into `[rows, hidden]` over each row's real tokens
 * (attention mask 1 = the row's `ids`, special tokens included, as sentence-transformers does).
 */
export function poolTokens(data: Float32Array, rows: readonly EncodedRow[], width: number, hidden: number, pooling: Pooling): Float32Array {
  const out = new Float32Array(rows.length * hidden);
  const acc = new Float64Array(hidden);
  rows.forEach((r, i) => {
    const len = r.ids.length;
    const base = i * width * hidden;
    if (pooling === 'cls' || pooling === 'lasttoken') {
      const j = pooling === 'cls' ? 0 : len - 1;
      out.set(data.subarray(base + j * hidden, base + (j + 1) * hidden), i * hidden);
      return;
    }
    acc.fill(pooling === 'max' ? -Infinity : 0);
    for (let j = 0; j < len; j++) {
      const o = base + j * hidden;
      for (let d = 0; d < hidden; d++) {
        const v = data[o + d];
        if (pooling === 'max') acc[d] = Math.max(acc[d], v);
        else acc[d] += v;
      }
    }
    for (let d = 0; d < hidden; d++) out[i * hidden + d] = pooling === 'max' ? acc[d] : acc[d] / Math.max(1, len);
  });
  return out;
}

/** L2-normalises each row in place (float64 accumulation); zero rows stay zero, unit rows are left as is. */
export function normaliseRows(m: Float32Array, dim: number): void {
  for (let o = 0; o < m.length; o += dim) {
    let ss = 0;
    for (let d = 0; d < dim; d++) ss += m[o + d] * m[o + d];
    const norm = Math.sqrt(ss);
    if (norm === 0 || Math.abs(norm - 1) < 1e-6) continue;
    for (let d = 0; d < dim; d++) m[o + d] = m[o + d] / norm;
  }
}
