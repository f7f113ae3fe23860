/**
 * The model contracts every retriever, chunker and reranker codes against (SPEC §5.3).
 * Implementations run `onnxruntime-node` sessions; they live in the worker and are created once per run.
 */

/** A sentence embedder: text → one L2-normalised vector per text. */
/** Called by `TextEmbedder.embed` after each batch: `done` of `total` rows embedded. */
export type EmbedProgress = (done: number, total: number) => void | Promise<void>;

export interface TextEmbedder {
  /**
   * Stable identifier used in cache keys: `<kind>:<folder name>@<first 16 hex of SHA-256 over the
   * model files>`. Changes whenever a weight or tokenizer byte changes.
   */
  readonly id: string;
  /** Vector length (number of float32 per row). */
  readonly dim: number;
  /** Number of weights of the model (ONNX initializer elements): the cost weight of one query embedding (SPEC §9). */
  readonly parameters: number;
  /**
   * Embeds `texts` in batches. Returns an `n × dim` row-major `Float32Array`; row i belongs to
   * `texts[i]`. Every row has L2 norm 1, except that a text with no known token (empty, whitespace
   * only, or every token out of vocabulary for a static model) gives an all-zero row, whose dot product
   * with anything is 0. Throws SpanproofError('model') if the session fails.
   * `onProgress(done, total)`, when given, is awaited after each batch with the rows embedded so far
   * (progress display and cancel; an error it throws ends the call). The numbers do not depend on it.
   */
  embed(texts: readonly string[], onProgress?: EmbedProgress): Promise<Float32Array>;
  /**
   * Number of tokens this model's tokenizer produces for `text`, without special tokens
   * ([CLS]/[SEP]) and without truncation — the context cost of the text for this model.
   */
  countTokens(text: string): number;
  /** The one-line notice of a disk cache of this model that could not be used whole (endpoint models: edited or damaged values, asked again), once; absent or null = none. */
  takeCacheNotice?(): string | null;
  /** Releases the ONNX session. The embedder must not be used afterwards. */
  dispose(): Promise<void>;
}

/** A reranker: a user cross-encoder, or the built-in MaxSim baseline. */
export interface PairScorer {
  /** Stable identifier used in the pair-score cache key (model + query + chunk-text hash). */
  readonly id: string;
  /**
   * `true` for the built-in MaxSim baseline over static word vectors. Every report must label such
   * results "baseline" (SPEC §5.3): it is not a trained cross-encoder.
   */
  readonly baseline: boolean;
  /** Number of weights the scorer runs per (query, passage) pair: the cost weight of one rerank pass (SPEC §9). */
  readonly parameters: number;
  /**
   * One relevance score per passage, `result[i]` for `passages[i]`; higher = more relevant.
   * Scores are comparable only within one call (one query); their scale is model-specific
   * (cross-encoder logit, or MaxSim sum of cosines).
   */
  score(query: string, passages: readonly string[]): Promise<Float32Array>;
  /** The one-line notice of a disk cache of this model that could not be used whole (endpoint models: edited or damaged values, asked again), once; absent or null = none. */
  takeCacheNotice?(): string | null;
  /** Releases the ONNX session. */
  dispose(): Promise<void>;
}

export interface ModelOptions {
  /** `intraOpNumThreads` of every ONNX session (always set explicitly; default ORT uses all cores). */
  threads: number;
  /** Texts per `session.run` call. Default 32. */
  batchSize?: number;
}
