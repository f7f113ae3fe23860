/**
 * Build-time helpers to write ONNX graphs in TypeScript with `onnx-proto` (opset 17, IR 8). Used by
 * `scripts/build-models.ts` and by the unit tests' tiny models. At run time only staticForward.ts
 * reads it, to compare a model's graph with the static graph spec (onnx-proto is a dev dependency,
 * bundled into dist/ by esbuild).
 */
import { onnx } from 'onnx-proto';

export const OPSET = 17;
export const IR_VERSION = 8;
export const DT = onnx.TensorProto.DataType;

/** An initializer from a typed array; `raw_data` little-endian as ONNX requires. */
export function tensor(name: string, dims: number[], data: Float32Array | Int8Array | BigInt64Array): onnx.ITensorProto {
  const dataType = data instanceof Float32Array ? DT.FLOAT : data instanceof Int8Array ? DT.INT8 : DT.INT64;
  return { name, dims, dataType, rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

/** A graph input/output; a string dim is symbolic (`batch`, `seq`). */
export function valueInfo(name: string, elemType: number, shape: (number | string)[]): onnx.IValueInfoProto {
  return {
    name,
    type: { tensorType: { elemType, shape: { dim: shape.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) } } },
  };
}

/** A float attribute (e.g. LayerNormalization `epsilon`); plain numbers are integers. */
export interface FloatAttr {
  float: number;
}
type AttrValue = number | number[] | FloatAttr;

/** A node; integer attributes become INT/INTS (to, keepdims, axis, perm), `{ float }` becomes FLOAT. */
export function node(opType: string, input: string[], output: string[], attrs: Record<string, AttrValue> = {}): onnx.INodeProto {
  const T = onnx.AttributeProto.AttributeType;
  const attribute: onnx.IAttributeProto[] = Object.entries(attrs).map(([name, v]) =>
    Array.isArray(v) ? { name, type: T.INTS, ints: v } : typeof v === 'number' ? { name, type: T.INT, i: v } : { name, type: T.FLOAT, f: v.float },
  );
  return { opType, input, output, name: `${opType}_${output[0]}`, attribute };
}

export interface GraphSpec {
  name: string;
  nodes: onnx.INodeProto[];
  initializers: onnx.ITensorProto[];
  inputs: onnx.IValueInfoProto[];
  outputs: onnx.IValueInfoProto[];
  docString?: string;
}

/** Serialises a model. Deterministic: same spec → same bytes (no timestamps). */
export function encodeModel(g: GraphSpec, producerName = 'spanproof'): Uint8Array {
  const model = onnx.ModelProto.create({
    irVersion: IR_VERSION,
    opsetImport: [{ domain: '', version: OPSET }],
    producerName,
    producerVersion: '1',
    docString: g.docString ?? '',
    graph: { name: g.name, node: g.nodes, initializer: g.initializers, input: g.inputs, output: g.outputs },
  });
  return onnx.ModelProto.encode(model).finish();
}
