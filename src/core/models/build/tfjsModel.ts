/**
 * Reads a TF.js graph model (`model.json` + binary weight shards) into named typed arrays, for the
 * build-time conversion of Universal Sentence Encoder Lite to ONNX (useLiteGraph.ts). Build time
 * only; never imported by run-time code.
 *
 * Format (TF.js "graph-model", https://www.tensorflow.org/js/guide/save_load): `weightsManifest` is a
 * list of groups, each with `paths` (shard files, concatenated in order) and `weights`
 * (`{name, shape, dtype}` laid out back to back, little-endian, no padding).
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

export interface TfjsTensor {
  shape: number[];
  data: Float32Array | Int32Array;
}

export interface TfjsModel {
  /** Weight name → tensor (the graph's Const nodes that carry data). */
  weights: Map<string, TfjsTensor>;
  /** `op` of every graph node, in file order (used to fingerprint the architecture). */
  ops: string[];
  /** The raw model.json text and shard bytes, for provenance hashes. */
  files: Map<string, Buffer>;
}

interface Manifest {
  modelTopology: { node: { op: string }[] };
  weightsManifest: { paths: string[]; weights: { name: string; shape: number[]; dtype: string }[] }[];
}

/**
 * Loads `dir/model.json` and its shards. Throws Error naming the file when a dtype other than
 * float32/int32 appears, or when the shards are shorter or longer than the manifest says.
 */
export function readTfjsModel(dir: string): TfjsModel {
  const jsonBytes = readFileSync(path.join(dir, 'model.json'));
  const manifest = JSON.parse(jsonBytes.toString('utf8')) as Manifest;
  const files = new Map<string, Buffer>([['model.json', jsonBytes]]);
  const weights = new Map<string, TfjsTensor>();
  for (const group of manifest.weightsManifest) {
    const shards = group.paths.map((p) => {
      const b = readFileSync(path.join(dir, p));
      files.set(p, b);
      return b;
    });
    const all = Buffer.concat(shards);
    let offset = 0;
    for (const w of group.weights) {
      const count = w.shape.reduce((a, b) => a * b, 1);
      const bytes = count * 4;
      if (offset + bytes > all.length) throw new Error(`${path.join(dir, 'model.json')}: weights run past the shards at ${w.name}`);
      const slice = all.subarray(offset, offset + bytes);
      const copy = new ArrayBuffer(bytes);
      new Uint8Array(copy).set(slice);
      if (w.dtype === 'float32') weights.set(w.name, { shape: w.shape, data: new Float32Array(copy) });
      else if (w.dtype === 'int32') weights.set(w.name, { shape: w.shape, data: new Int32Array(copy) });
      else throw new Error(`${path.join(dir, 'model.json')}: unsupported dtype ${w.dtype} of ${w.name}`);
      offset += bytes;
    }
    if (offset !== all.length) throw new Error(`${path.join(dir, 'model.json')}: ${all.length - offset} bytes of shards left over`);
  }
  return { weights, ops: manifest.modelTopology.node.map((n) => n.op), files };
}

/**
 * The float32 weight named `name`, checked against `shape`. Throws Error naming the weight when it
 * is missing, not float32, or shaped differently.
 */
export function floatWeight(model: TfjsModel, name: string, shape: number[]): Float32Array {
  const t = model.weights.get(name);
  if (!t) throw new Error(`TF.js model has no weight ${name}`);
  if (!(t.data instanceof Float32Array)) throw new Error(`TF.js weight ${name} is not float32`);
  if (t.shape.join('x') !== shape.join('x')) throw new Error(`TF.js weight ${name} has shape [${t.shape}], expected [${shape}]`);
  return t.data;
}

/** A scalar weight (float32 or int32) as a number; throws Error when missing or not a scalar. */
export function scalarWeight(model: TfjsModel, name: string): number {
  const t = model.weights.get(name);
  if (!t || t.data.length !== 1) throw new Error(`TF.js model has no scalar weight ${name}`);
  return t.data[0];
}
