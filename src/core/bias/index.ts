/**
 * The chunk-ID ground-truth bias study (SPEC §7.5). Benchmarks that label relevance by chunk ID were
 * labelled with one chunker — the "author" A. This study rebuilds that situation from span ground truth
 * and measures how much the labelling itself favours A.
 *
 * For each author chunker A and each question q:
 * - relevant IDs Rel_A(q) = the chunks of A's whole index holding an evidence span
 *   (coverage |chunk ∩ e| / |e| ≥ τ for some span e). Questions where no chunk of A reaches τ cannot be
 *   labelled by A and are left out of A's rotation (listed in `unlabelled`) — an ID benchmark built
 *   with A would not contain them either.
 * - ID hit@k of a config C/retriever/rerank = 1 when one of its top-k result chunks r has
 *   IoU(r, a) = |r ∩ a| / |r ∪ a| ≥ θ with some a ∈ Rel_A(q) (same document). θ = 1 is exact ID equality.
 * - span hit@k = SPEC §7.1 hit@k (coverage of every / any evidence span by the union of the top-k ≥ τ).
 * - author advantage under a metric M, per question = mean of M over A's configs − mean over the other
 *   configs; its mean has a 95% paired-bootstrap CI over questions (`src/core/stats`). The **bias**
 *   = advantage under ID matching − advantage under span alignment (paired, same resamples).
 *
 * Offsets are UTF-16 code units; k, τ, θ as in SPEC (defaults k = 5, τ = 0.9, θ ∈ {1, .9, .7, .5, .3}).
 */

export * from './types';
export { runBiasStudy, relevantChunks, spanIou } from './study';
export { readBiasInputFromRun } from './read-run';
export { biasStudyMarkdown } from './markdown';
