/**
 * What a long-lived worker keeps between requests: the loaded models (ONNX sessions, one per model
 * folder and thread count), the pair-score caches, and the chunker stages (chunks, BM25 index, dense
 * index) of the latest corpus — so "Run Evaluation for This Question" after a full run does not
 * re-load models or rebuild indexes. The memo is dropped when the corpus content changes; `release()`
 * disposes every session (the worker calls it on shutdown and after an idle period).
 */
import type { PairScorer, TextEmbedder } from '../models';
import type { PersistentRerankCache } from '../cache';
import type { StageMemo } from './engine';

export class ResidentState {
  readonly embedders = new Map<string, TextEmbedder>();
  readonly rerankers = new Map<string, PairScorer>();
  readonly rerankCaches = new Map<string, PersistentRerankCache>();
  readonly stages = new Map<string, StageMemo>();
  private corpusKey: string | null = null;

  /** Drops the stage memo when `corpusKey` differs from the previous run's (bounded memory). */
  useCorpus(corpusKey: string): void {
    if (this.corpusKey !== corpusKey || this.stages.size > 20) this.stages.clear();
    this.corpusKey = corpusKey;
  }

  /** Disposes every model session and forgets everything. */
  async release(): Promise<void> {
    const models = [...this.embedders.values(), ...this.rerankers.values()];
    this.embedders.clear();
    this.rerankers.clear();
    this.rerankCaches.clear();
    this.stages.clear();
    this.corpusKey = null;
    await Promise.all(models.map((m) => m.dispose().catch(() => undefined)));
  }
}
