/** Cross-encoder rerankers from model folders (e.g. an Optimum/Xenova export of ms-marco-MiniLM). */
import type * as ort from 'onnxruntime-node';
import * as path from 'node:path';
import { SpanproofError } from '../errors';
import { type ModelFolder, openModelFolder } from './folder';
import { createSession, feedsFor, orderByLength, runSession } from './session';
import { DEFAULT_BATCH_SIZE } from './embedder';
import type { ModelOptions, PairScorer } from './types';
import { countOnnxParameters } from './parameters';

/**
 * Loads a cross-encoder: (query, passage) pairs are encoded as one row (`[CLS] query [SEP] passage
 * [SEP]` for BERT), truncated longest-first to the model's max length, and scored by the `logits`
 * output. `[batch, 1]` (or `[batch]`): the score is the logit. `[batch, 2]`: a binary classifier; the
 * score is `logit[1] − logit[0]`, the log-odds of the positive (relevant) class, which orders passages
 * exactly as the softmax probability of class 1 does.
 *
 * Throws SpanproofError('not-found'/'model') like {@link loadEmbedderFromFolder}; 'model' also when
 * the model has no `logits` output or it has more than 2 classes.
 */
export async function loadCrossEncoderFromFolder(dir: string, opts: ModelOptions): Promise<PairScorer> {
  const folder = openModelFolder(dir);
  const session = await createSession(folder.modelPath, opts.threads, dir);
  if (!session.outputNames.includes('logits')) {
    const outs = session.outputNames;
    await session.release();
    throw new SpanproofError('model', `Model outputs not understood: declares [${outs.join(', ')}], a cross-encoder needs "logits".`, {
      file: dir,
      field: 'outputs',
      fix: 'Export the cross-encoder with Optimum task text-classification (output "logits"); a sentence embedder belongs in the embedding-model setting instead.',
    });
  }
  let parameters: number;
  try {
    parameters = await countOnnxParameters(folder.modelPath);
  } catch (e) {
    await session.release();
    throw e;
  }
  return new OnnxCrossEncoder(folder, session, opts.batchSize ?? DEFAULT_BATCH_SIZE, parameters);
}

class OnnxCrossEncoder implements PairScorer {
  readonly id: string;
  readonly baseline = false;
  private released = false;

  constructor(
    private readonly folder: ModelFolder,
    private readonly session: ort.InferenceSession,
    private readonly batchSize: number,
    readonly parameters: number,
  ) {
    this.id = `cross-encoder:${path.basename(folder.dir)}@${folder.contentHash}`;
  }

  async score(query: string, passages: readonly string[]): Promise<Float32Array> {
    if (this.released) throw new SpanproofError('internal', 'Cross-encoder used after dispose().');
    const rows = passages.map((p) => this.folder.tokenizer.encodePair(query, p));
    const scores = new Float32Array(passages.length);
    const order = orderByLength(rows.map((r) => r.ids.length));
    for (let s = 0; s < order.length; s += this.batchSize) {
      const idx = order.slice(s, s + this.batchSize);
      const { feeds } = feedsFor(this.session, idx.map((i) => rows[i]), this.folder.tokenizer.padId);
      const t = (await runSession(this.session, feeds, ['logits'], this.folder.dir)).logits;
      const data = t.data as Float32Array;
      const classes = t.dims.length === 1 ? 1 : t.dims.length === 2 ? t.dims[1] : -1;
      if (t.type !== 'float32' || t.dims[0] !== idx.length || (classes !== 1 && classes !== 2)) {
        throw new SpanproofError('model', `Output logits is ${t.type} [${t.dims.join(', ')}], expected float32 [batch, 1] or [batch, 2].`, {
          file: this.folder.dir,
          field: 'outputs.logits',
        });
      }
      idx.forEach((i, b) => {
        scores[i] = classes === 1 ? data[b] : data[b * 2 + 1] - data[b * 2];
      });
    }
    return scores;
  }

  async dispose(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await this.session.release();
  }
}
