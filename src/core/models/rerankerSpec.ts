/**
 * Reranker entries (SPEC §5.3): ONE place that turns the `rerankerModel` setting (CLI `--reranker`)
 * into a spec, a name and a report line, as embedderSpec.ts does for embedders. Loads no model code
 * (no onnxruntime, no network), so reports and the extension host can name rerankers.
 *
 * Entry forms:
 * - `''` or `baseline`: the built-in MaxSim baseline (labelled {@link BASELINE_RERANKER_LABEL});
 * - `endpoint:<model>`: a model at a rerank endpoint (`POST {base}/rerank`, setting `modelEndpoint.url`);
 * - a catalogue cross-encoder name (`ms-marco-MiniLM-L-6-v2`): the folder `spanproof models pull` made;
 * - anything else: a cross-encoder model folder path, relative to the workspace.
 */
import * as path from 'node:path';
import { SpanproofError } from '../errors';
import { CATALOGUE, findCatalogueEntry, type CatalogueEntry } from './catalogue/entries';
import { BASELINE_RERANKER_LABEL, ENDPOINT_PREFIX } from './embedderSpec';

export type RerankerSpec = { kind: 'baseline' } | { kind: 'endpoint'; model: string } | { kind: 'catalogue'; name: string } | { kind: 'folder'; path: string };

/**
 * Parses the `rerankerModel` value (surrounding whitespace ignored).
 * Throws SpanproofError('bad-input') for `endpoint:` without a model name, or a catalogue name that is
 * an embedder (naming the embedders setting instead).
 */
export function parseRerankerSpec(value: string, catalogue: readonly CatalogueEntry[] = CATALOGUE): RerankerSpec {
  const v = value.trim();
  if (v === '' || v === 'baseline') return { kind: 'baseline' };
  if (v.startsWith(ENDPOINT_PREFIX)) {
    const model = v.slice(ENDPOINT_PREFIX.length).trim();
    if (!model) throw new SpanproofError('bad-input', `"${v}" names no model.`, { field: 'rerankerModel', fix: `write ${ENDPOINT_PREFIX}<model name at the endpoint>, e.g. ${ENDPOINT_PREFIX}rerank-v3.5.` });
    return { kind: 'endpoint', model };
  }
  const entry = !/[\\/]/.test(v) ? findCatalogueEntry(v, catalogue) : undefined;
  if (entry) {
    if (entry.kind !== 'cross-encoder') throw new SpanproofError('bad-input', `"${v}" is an embedder, not a reranker.`, { field: 'rerankerModel', fix: `name a cross-encoder (${catalogue.filter((e) => e.kind === 'cross-encoder').map((e) => e.name).join(', ')}), or put ${entry.name} in embedders.` });
    return { kind: 'catalogue', name: entry.name };
  }
  return { kind: 'folder', path: v };
}

/** The reranker's name for reports and the CLI: `baseline`, `endpoint:<model>`, the catalogue name, or the folder's base name. */
export function rerankerName(spec: RerankerSpec): string {
  if (spec.kind === 'baseline') return 'baseline';
  if (spec.kind === 'endpoint') return `${ENDPOINT_PREFIX}${spec.model}`;
  if (spec.kind === 'catalogue') return spec.name;
  return path.basename(path.resolve(spec.path));
}

/** One line for reports: what the reranker is; the baseline says it is not a trained cross-encoder. */
export function describeReranker(spec: RerankerSpec): string {
  if (spec.kind === 'baseline') return `MaxSim ${BASELINE_RERANKER_LABEL}`;
  if (spec.kind === 'endpoint') return `${rerankerName(spec)}: model "${spec.model}" at the configured rerank endpoint`;
  if (spec.kind === 'catalogue') return `${spec.name}: catalogue cross-encoder (${findCatalogueEntry(spec.name)?.repo ?? 'downloaded'})`;
  return `${rerankerName(spec)}: cross-encoder model folder ${spec.path}`;
}
