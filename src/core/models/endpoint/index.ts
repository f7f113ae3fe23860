/**
 * Endpoint models (SPEC §5.3): embeddings from an OpenAI-compatible `POST {base}/embeddings` and
 * reranking from the common `POST {base}/rerank` shape, as a {@link TextEmbedder} and a
 * {@link PairScorer} that plug into the grid like local models. Opt-in: nothing is sent unless an
 * endpoint model is configured (and, in VS Code, the workspace is trusted).
 *
 * - {@link ModelEndpoint}(opts): the client of one base URL with its concurrency limit, retry policy
 *   (Retry-After honoured) and ledger ({@link ModelEndpoint.ledgerFile} → `models-ledger.json`).
 * - {@link loadEndpointEmbedder}(opts) / {@link loadEndpointReranker}(opts): the models, cached on disk
 *   by (endpoint, model, text hash) in `<cacheDir>/endpoint-models/` so an identical re-run sends no request.
 */
export { ModelEndpoint, endpointDisplay, type EndpointOptions, type ModelLedgerFile } from './connection';
export { loadEndpointEmbedder, endpointModelId, DIMENSION_PROBE, type EndpointEmbedderOptions } from './embedder';
export { loadEndpointReranker, checkRerank, type EndpointRerankerOptions } from './reranker';
export { DEFAULT_POLICY, type EndpointPolicy } from './request';
