/**
 * The deterministic cost of a config (SPEC §9): what a query costs, computed from the run's inputs
 * only — never from a clock — so the verdict is the same on every run of the same inputs.
 *
 * cost = context + compute, per query:
 * - context = mean size of the result list at k, |∪R₁..R_k|: in tokens of the embedder's tokenizer
 *   when every config of the run has a token count, else in characters (UTF-16 code units) for all;
 * - compute = Σ over the model passes of one query of (model parameters / 10⁶): BM25 makes no model
 *   call; dense and hybrid embed the query once (one pass of the embedder); a reranker makes one
 *   cross-encoder pass per candidate-pool item (poolSize passes of the reranker). A retriever outside
 *   Spanproof (`external/…`) has unknown compute, counted 0.
 *
 * The exchange rate — one pass of a 1-million-parameter model costs as much as one context token — is
 * a convention, not a measurement: it makes a reranker (poolSize passes) visibly dearer than the same
 * retrieval without it, and a query embedding cheap next to a result list, as they are on real
 * hardware. Cost only orders configs that are already shown close in quality (the non-inferiority
 * rule) and breaks exact quality ties; it never outweighs a quality difference.
 */

/** Parameter counts of the run's models (src/core/models `parameters`). */
export interface ComputeModels {
  /** Parameters of the query embedder (dense/hybrid). */
  embedderParameters: number;
  /** Parameters per embedder name for `dense:<name>` / `hybrid:<name>` retrievers (several-embedder runs). */
  embedderParametersByName?: Readonly<Record<string, number>>;
  /** Parameters of the reranker; null when no config reranks. */
  rerankerParameters: number | null;
  /** Candidate-pool size N: the reranker scores N (query, chunk) pairs per query. */
  poolSize: number;
}

/** What a config's cost is made of. */
export interface CostInput {
  retriever: string;
  rerank: boolean;
  /** Mean |∪R₁..R_k| in UTF-16 code units. */
  contextChars: number;
  /** Mean |∪R₁..R_k| in embedder tokens, when known. */
  contextTokens?: number;
}

/** A config's deterministic cost per query. */
export interface DeterministicCost {
  /** Mean context size at k, in `contextUnit`. */
  context: number;
  contextUnit: 'tokens' | 'characters';
  /** Query-embedding passes (0 or 1) and reranker passes (0 or poolSize) per query. */
  queryEmbeddings: number;
  rerankPasses: number;
  /** Σ passes × parameters / 10⁶. */
  compute: number;
  /** context + compute. */
  total: number;
}

const M = 1e6;

/** The query embedder's parameter count for `retriever`, or null when it embeds no query. */
function queryEmbedder(retriever: string, models: ComputeModels): number | null {
  const m = /^(dense|hybrid)(?::(.+))?$/.exec(retriever);
  if (!m) return null;
  return (m[2] !== undefined ? models.embedderParametersByName?.[m[2]] : undefined) ?? models.embedderParameters;
}

/**
 * The deterministic cost of every config of a run, in one unit: tokens when every config has a finite
 * `contextTokens`, else characters. Returned in input order.
 */
export function deterministicCosts(configs: readonly CostInput[], models: ComputeModels): DeterministicCost[] {
  const tokens = configs.length > 0 && configs.every((c) => Number.isFinite(c.contextTokens));
  return configs.map((c) => {
    const emb = queryEmbedder(c.retriever, models);
    const queryEmbeddings = emb === null ? 0 : 1;
    const rerankPasses = c.rerank ? models.poolSize : 0;
    const compute = (queryEmbeddings * (emb ?? 0) + rerankPasses * (models.rerankerParameters ?? 0)) / M;
    const context = tokens ? (c.contextTokens as number) : c.contextChars;
    return { context, contextUnit: tokens ? 'tokens' : 'characters', queryEmbeddings, rerankPasses, compute, total: context + compute };
  });
}
