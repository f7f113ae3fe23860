/**
 * ONNX Runtime sessions for model folders: creation with explicit thread counts, and the padded
 * int64 input tensors a transformer expects (`input_ids`, `attention_mask`, `token_type_ids`).
 */
import '../ortEnv'; // before onnxruntime-node: no telemetry
import * as ort from 'onnxruntime-node';
import { SpanproofError } from '../errors';
import type { EncodedRow } from './tokenizer';

/** Input names this code knows how to fill (`position_ids` = 0, 1, 2, … per row, as some exports declare it). */
export const KNOWN_INPUTS = ['input_ids', 'attention_mask', 'token_type_ids', 'position_ids'] as const;

/**
 * Creates a CPU session with `intraOpNumThreads = threads` and one inter-op thread. Throws
 * SpanproofError('model') when the file is not a loadable ONNX model, or when the model declares an
 * input other than input_ids / attention_mask / token_type_ids, or lacks input_ids.
 */
export async function createSession(modelPath: string, threads: number, dir: string): Promise<ort.InferenceSession> {
  if (!Number.isInteger(threads) || threads < 1) {
    throw new SpanproofError('bad-input', `threads must be a positive integer, got ${threads}.`, { field: 'threads', fix: 'Set threads to 1 or more.' });
  }
  let session: ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(modelPath, {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    });
  } catch (e) {
    throw new SpanproofError('model', `onnxruntime could not load the model: ${(e as Error).message}`, {
      file: modelPath,
      fix: 'Use an ONNX file exported by Hugging Face Optimum (opset ≥ 11) for CPU.',
      cause: e,
    });
  }
  const unknown = session.inputNames.filter((n) => !(KNOWN_INPUTS as readonly string[]).includes(n));
  if (unknown.length > 0 || !session.inputNames.includes('input_ids')) {
    await session.release();
    throw new SpanproofError('model', `Model inputs not understood: declares [${session.inputNames.join(', ')}].`, {
      file: dir,
      field: unknown.length > 0 ? `inputs ${unknown.join(', ')}` : 'inputs',
      fix: `Spanproof feeds ${KNOWN_INPUTS.join(', ')} (input_ids required); export a text-encoder or cross-encoder graph with those inputs (optimum-cli export onnx --task feature-extraction or text-classification).`,
    });
  }
  return session;
}

/** Padded `[rows, width]` tensors for the inputs the session declares; width = longest row (≥ 1). */
export function feedsFor(session: ort.InferenceSession, rows: readonly EncodedRow[], padId: number): { feeds: Record<string, ort.Tensor>; width: number } {
  const width = Math.max(1, ...rows.map((r) => r.ids.length));
  const n = rows.length;
  const ids = new BigInt64Array(n * width).fill(BigInt(padId));
  const mask = new BigInt64Array(n * width);
  const types = new BigInt64Array(n * width);
  const positions = new BigInt64Array(n * width);
  rows.forEach((r, i) => {
    const o = i * width;
    for (let j = 0; j < r.ids.length; j++) {
      ids[o + j] = BigInt(r.ids[j]);
      mask[o + j] = 1n;
      types[o + j] = BigInt(r.typeIds[j]);
    }
    for (let j = 0; j < width; j++) positions[o + j] = BigInt(j);
  });
  const all: Record<string, BigInt64Array> = { input_ids: ids, attention_mask: mask, token_type_ids: types, position_ids: positions };
  const feeds: Record<string, ort.Tensor> = {};
  for (const name of session.inputNames) feeds[name] = new ort.Tensor('int64', all[name], [n, width]);
  return { feeds, width };
}

/** Runs the session, turning onnxruntime failures into SpanproofError('model'). */
export async function runSession(session: ort.InferenceSession, feeds: Record<string, ort.Tensor>, outputs: string[], dir: string): Promise<ort.InferenceSession.OnnxValueMapType> {
  try {
    return await session.run(feeds, outputs);
  } catch (e) {
    throw new SpanproofError('model', `Model inference failed: ${(e as Error).message}`, { file: dir, cause: e });
  }
}

/** Indices 0..n-1 ordered by row length, so batches hold rows of similar length (less padding). */
export function orderByLength(lengths: readonly number[]): number[] {
  return lengths.map((_, i) => i).sort((a, b) => lengths[a] - lengths[b] || a - b);
}
