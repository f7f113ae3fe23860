/**
 * Parameter count of an ONNX model: the number of elements of all its weight tensors (graph
 * initializers, including those of sub-graphs), read from the model file with `onnx-proto`. Used by
 * the deterministic compute cost of the verdict (SPEC §9: a reranker pass weighted by the model's
 * parameter count). Quantised models count their weight elements once (scales and zero points are
 * initializers too and are counted; they are a small fraction).
 */
import { readFileSync } from 'node:fs';
import { SpanproofError } from '../errors';

type Onnx = typeof import('onnx-proto').onnx;
let onnxModule: Promise<Onnx> | undefined;

function loadOnnx(): Promise<Onnx> {
  onnxModule ??= import('onnx-proto').then((mod) => mod.onnx ?? (mod as unknown as { default: typeof mod }).default.onnx); // CJS module under ESM interop
  return onnxModule;
}

interface GraphLike {
  initializer?: Array<{ dims?: Array<number | { toNumber(): number }> }> | null;
  node?: Array<{ attribute?: Array<{ g?: GraphLike | null; graphs?: GraphLike[] | null }> | null }> | null;
}

function countGraph(g: GraphLike | null | undefined): number {
  if (!g) return 0;
  let n = 0;
  for (const t of g.initializer ?? []) n += (t.dims ?? []).reduce<number>((p, d) => p * (typeof d === 'number' ? d : d.toNumber()), 1);
  for (const node of g.node ?? []) for (const a of node.attribute ?? []) n += countGraph(a.g) + (a.graphs ?? []).reduce((s, sub) => s + countGraph(sub), 0);
  return n;
}

/**
 * Decodes the ONNX ModelProto at `modelPath` (the whole file, weights included).
 * @throws SpanproofError('model') naming the file when it is not an ONNX ModelProto.
 */
export async function decodeOnnxModel(modelPath: string): Promise<import('onnx-proto').onnx.ModelProto> {
  const onnx = await loadOnnx();
  try {
    return onnx.ModelProto.decode(readFileSync(modelPath));
  } catch (e) {
    throw new SpanproofError('model', `cannot read the ONNX model to count its parameters: ${(e as Error).message}`, { file: modelPath, fix: 'use an ONNX file exported by Hugging Face Optimum.', cause: e });
  }
}

/** Σ over the initializers of Π dims of a decoded model (a scalar initializer counts 1). */
export function countModelParameters(model: import('onnx-proto').onnx.IModelProto): number {
  return countGraph(model.graph as GraphLike);
}

/**
 * Σ over the initializers of Π dims, for the ONNX model at `modelPath` (a scalar initializer counts 1).
 * @throws SpanproofError('model') naming the file when it is not an ONNX ModelProto.
 */
export async function countOnnxParameters(modelPath: string): Promise<number> {
  return countModelParameters(await decodeOnnxModel(modelPath));
}
