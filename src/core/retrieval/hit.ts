/**
 * The unit every retriever returns: an index into the chunker's chunk array and a score.
 */

/**
 * A retrieved chunk: `chunk` is an index into the chunker's chunk array (which the chunkers return
 * sorted by (source, start)), `score` the retriever's score (higher is better; its scale depends on
 * the retriever: BM25 sum, cosine, RRF sum or reranker score).
 */
export interface Hit {
  chunk: number;
  score: number;
}

/**
 * Total order of hits: higher score first, then lower chunk index (= (source, start) order, so ties
 * are broken deterministically by position in the corpus).
 */
export function compareHits(a: Hit, b: Hit): number {
  return b.score - a.score || a.chunk - b.chunk;
}
