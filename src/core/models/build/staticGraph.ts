/**
 * The ONNX graph of the embedded static word-vector model (build time only, see onnxBuilder.ts):
 *
 *   input_ids int64 [batch, seq], attention_mask int64 [batch, seq]
 *   x      = Cast<float>(Gather(table_int8 [V, dim], input_ids)) · Gather(scales [V, 1], input_ids)
 *   m      = attention_mask · (input_ids > unkId)          -- [PAD]/[UNK] never count
 *   mean   = Σ_s x·m / max(Σ_s m, 1)
 *   sentence_embedding [batch, dim] = mean / max(‖mean‖₂, 1e-12)
 *
 * A row whose tokens are all masked (empty or only unknown words) is the zero vector.
 */
import { DT, type GraphSpec, encodeModel, node, tensor, valueInfo } from './onnxBuilder';

export interface StaticModelWeights {
  /** `vocab × dim` int8, row-major. */
  table: Int8Array;
  /** One dequantisation scale per row: value = table · scale. */
  scales: Float32Array;
  vocab: number;
  dim: number;
  /** Ids ≤ this are special ([PAD] = 0, [UNK] = 1) and masked out. */
  lastSpecialId: number;
}

export function staticEmbedderGraph(w: StaticModelWeights, docString: string): GraphSpec {
  return {
    name: 'static_word_embedding',
    docString,
    inputs: [valueInfo('input_ids', DT.INT64, ['batch', 'seq']), valueInfo('attention_mask', DT.INT64, ['batch', 'seq'])],
    outputs: [valueInfo('sentence_embedding', DT.FLOAT, ['batch', w.dim])],
    initializers: [
      tensor('table_int8', [w.vocab, w.dim], w.table),
      tensor('row_scale', [w.vocab, 1], w.scales),
      tensor('last_special_id', [], BigInt64Array.of(BigInt(w.lastSpecialId))),
      tensor('axis_seq', [1], BigInt64Array.of(1n)),
      tensor('axis_last', [1], BigInt64Array.of(-1n)),
      tensor('one', [], Float32Array.of(1)),
      tensor('eps', [], Float32Array.of(1e-12)),
    ],
    nodes: [
      node('Gather', ['table_int8', 'input_ids'], ['q'], { axis: 0 }),
      node('Cast', ['q'], ['qf'], { to: DT.FLOAT }),
      node('Gather', ['row_scale', 'input_ids'], ['s'], { axis: 0 }),
      node('Mul', ['qf', 's'], ['x']),
      node('Greater', ['input_ids', 'last_special_id'], ['known']),
      node('Cast', ['known'], ['known_f'], { to: DT.FLOAT }),
      node('Cast', ['attention_mask'], ['mask_f'], { to: DT.FLOAT }),
      node('Mul', ['mask_f', 'known_f'], ['m']),
      node('Unsqueeze', ['m', 'axis_last'], ['m3']),
      node('Mul', ['x', 'm3'], ['xm']),
      node('ReduceSum', ['xm', 'axis_seq'], ['sum'], { keepdims: 0 }),
      node('ReduceSum', ['m3', 'axis_seq'], ['count'], { keepdims: 0 }),
      node('Max', ['count', 'one'], ['count1']),
      node('Div', ['sum', 'count1'], ['mean']),
      node('Mul', ['mean', 'mean'], ['sq']),
      node('ReduceSum', ['sq', 'axis_last'], ['ss'], { keepdims: 1 }),
      node('Sqrt', ['ss'], ['norm']),
      node('Max', ['norm', 'eps'], ['norm1']),
      node('Div', ['mean', 'norm1'], ['sentence_embedding']),
    ],
  };
}

export function encodeStaticEmbedder(w: StaticModelWeights, docString: string): Uint8Array {
  return encodeModel(staticEmbedderGraph(w, docString), 'spanproof build-models');
}
