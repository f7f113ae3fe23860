/**
 * ONNX Runtime sessions for model folders: creation with explicit thread counts, and the padded
 * int64 input tensors a transformer expects (`input_ids`, `attention_mask`, `token_type_ids`).
 */
import '../ortEnv'; // before onnxruntime-node: no telemetry
import type * as ort from 'onnxruntime-node';
import { SpanproofError } from '../errors';
import type { EncodedRow } from './tokenizer';

type Ort = typeof import('onnxruntime-node');
let ortModule: Ort | undefined;

/**
 * onnxruntime-node, loaded on the first session (its native library is ≈ 13 MB of resident memory,
 * and a run of the embedded static model needs no session: staticForward.ts).
 */
async function loadOrt(): Promise<Ort> {
  if (ortModule) return ortModule;
  const mod: Ort = await import('onnxruntime-node');
  const m = ((mod as { default?: Ort }).default ?? mod) as Ort; // CJS module under ESM interop
  ortModule = m;
  return m;
}

/** The module, loaded by {@link createSession}; loaded here when tensors are built for a session from elsewhere. */
function loadedOrt(): Ort {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous fallback, CommonJS bundle
  ortModule ??= require('onnxruntime-node') as Ort;
  return ortModule;
}

/**
 * onnxruntime's load failure in words: its C++ message ("Load model from /p/model.onnx failed:Protobuf
 * parsing failed.") names the path again and says nothing a user can act on. A file that does not
 * parse as ONNX is said to be damaged or not a model; other failures keep onnxruntime's reason.
 */
export function ortLoadError(e: unknown, modelPath: string): SpanproofError {
  const raw = (e instanceof Error ? e.message : String(e)).trim();
  const reason = raw.replace(/^\[ONNXRuntimeError\] : \d+ : \w+ : /, '').replace(/^Load model from .*? failed: ?/s, '').trim();
  if (/protobuf parsing failed|invalid protobuf|no graph was found|ModelProto does not have a graph/i.test(reason)) {
    return new SpanproofError('model', 'this model.onnx is damaged (cut short or overwritten) or not an ONNX model: onnxruntime cannot read it.', {
      file: modelPath,
      fix: 're-download or re-export the model (spanproof models pull NAME for a catalogue model; optimum-cli export onnx for your own), then run again.',
      cause: e,
    });
  }
  return new SpanproofError('model', `onnxruntime could not load this model: ${reason.replace(/\.?$/, '.')}`, {
    file: modelPath,
    fix: 'Use an ONNX file exported by Hugging Face Optimum (opset ≥ 11) for CPU.',
    cause: e,
  });
}

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
    session = await (await loadOrt()).InferenceSession.create(modelPath, {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    });
  } catch (e) {
    throw ortLoadError(e, modelPath);
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

/** 0 on a little-endian host (the low 32-bit word of an int64 comes first), 1 on a big-endian one. */
const LOW_WORD = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 0 : 1;

/**
 * Element `k` of the int64 array whose 32-bit words are `words` := `v`. An int32 `v` is written as two
 * words (sign-extended), so no BigInt is allocated per element (a chunker's embedding wrote ≈ 3 BigInts
 * per token, tens of MB of heap garbage); any other number goes through `BigInt(v)` as before.
 */
function setInt64(arr: BigInt64Array, words: Int32Array, k: number, v: number): void {
  if ((v | 0) === v) {
    words[2 * k + LOW_WORD] = v;
    words[2 * k + 1 - LOW_WORD] = v < 0 ? -1 : 0;
  } else arr[k] = BigInt(v);
}

/**
 * Padded `[rows, width]` int64 tensors for the inputs the session declares (only those are built);
 * width = longest row (≥ 1). `input_ids` = the row's ids then `padId`; `attention_mask` = 1 over the
 * row, 0 after; `token_type_ids` = the row's type ids then 0; `position_ids` = 0, 1, 2, … per row.
 */
export function feedsFor(session: ort.InferenceSession, rows: readonly EncodedRow[], padId: number): { feeds: Record<string, ort.Tensor>; width: number } {
  const width = Math.max(1, ...rows.map((r) => r.ids.length));
  const n = rows.length;
  const feeds: Record<string, ort.Tensor> = {};
  for (const name of session.inputNames) {
    const arr = new BigInt64Array(n * width);
    const words = new Int32Array(arr.buffer, arr.byteOffset, arr.length * 2);
    const set = (k: number, v: number) => setInt64(arr, words, k, v);
    rows.forEach((r, i) => {
      const o = i * width;
      const len = r.ids.length;
      if (name === 'input_ids') {
        for (let j = 0; j < len; j++) set(o + j, r.ids[j]);
        if (padId !== 0) for (let j = len; j < width; j++) set(o + j, padId);
      } else if (name === 'attention_mask') {
        for (let j = 0; j < len; j++) set(o + j, 1);
      } else if (name === 'token_type_ids') {
        for (let j = 0; j < len; j++) set(o + j, r.typeIds[j]);
      } else if (name === 'position_ids') {
        for (let j = 0; j < width; j++) set(o + j, j);
      }
    });
    feeds[name] = new (loadedOrt().Tensor)('int64', arr, [n, width]);
  }
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
