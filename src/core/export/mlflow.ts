/**
 * Export of Spanproof runs to an MLflow tracking server (issue #18 item 4, docs/mlflow.md) through
 * the MLflow REST API 2.x and the server's artifact proxy (`mlflow server` with `--serve-artifacts`,
 * the default since MLflow 2.0), over src/core/net (deadline, reply cap, same-origin redirects,
 * retries of 408/429/5xx with Retry-After):
 *
 * - experiment: `GET experiments/get-by-name`, created with `POST experiments/create` when missing;
 * - run: found by the tag `spanproof.run_id` (`POST runs/search`) so a re-export updates the same
 *   MLflow run, else `POST runs/create`; ended with `POST runs/update` (FINISHED);
 * - params: every setting (dotted keys), corpus and ground-truth hashes, tool version, models;
 * - metrics: `<config>/<metric>` = mean, `<config>/<metric>/lo` and `/hi` = the 95% CI bounds, at the
 *   run's end time and step 0 (so a re-export logs the same points); keys use MLflow's characters only
 *   (letters, digits, `_ - . /` and space: `hit@5` → `hit_at_5`, `dense:use-lite` → `dense_use-lite`);
 * - tags: `spanproof.verdict` (recommended config), `spanproof.status`, `spanproof.primary_metric`;
 * - `POST runs/log-batch` in chunks within MLflow's limits (≤ 1000 entries, ≤ 100 params, ≤ 100 tags,
 *   ≤ `maxBodyBytes` of JSON); a 413 reply splits the chunk in two and sends both halves;
 * - artifacts results.json, ranking.json, questions.jsonl, report.html and heatmap.csv (per document
 *   × question: the share of the recommended config's top-k context taken from each document, `E`
 *   marking the question's evidence documents) by `PUT /api/2.0/mlflow-artifacts/artifacts/<path>`;
 *   a file larger than `maxBodyBytes` (or refused with 413) is sent as numbered parts
 *   `<name>.part-001-of-003` (concatenate them to restore it).
 */
import { MAX_DATA_FILE_BYTES, readRegularTextSync } from '../files/read';
import { join } from 'node:path';
import { SpanproofError } from '../errors';
import { HttpClient, NetError, findNetError, redactUrl } from '../net';
import { readRun } from '../runs/read';
import type { RunData } from '../runs/types';
import { renderReport } from '../report';
import { readAnswers } from '../judge/read';
import { csvCell } from '../text/csv';

export interface MlflowExportOptions {
  /** `http(s)://host:port` of the tracking server. */
  trackingUri: string;
  /** Experiment name (default `spanproof`). */
  experiment?: string;
  /** Bearer token (MLFLOW_TRACKING_TOKEN), sent as Authorization. */
  token?: string;
  /** Largest request body, bytes (default 1 000 000, MLflow's log-batch limit). */
  maxBodyBytes?: number;
  retries?: number;
  timeoutMs?: number;
  /** Tests: the wait between retries. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface MlflowExportResult {
  experimentId: string;
  runId: string;
  /** False when an earlier export's MLflow run was found and updated. */
  created: boolean;
  params: number;
  metrics: number;
  tags: number;
  /** Artifact paths uploaded (parts listed one by one). */
  artifacts: string[];
}

type KV = { key: string; value: string };
type Metric = { key: string; value: number; timestamp: number; step: number };

const API = '/api/2.0/mlflow';

/** An MLflow key: only letters, digits, `_ - . /` and space; at most 250 characters. */
export function mlflowKey(s: string): string {
  return s.replace(/@/g, '_at_').replace(/[^A-Za-z0-9_\-. /]/g, '_').slice(0, 250);
}

function flatten(o: unknown, prefix: string, out: KV[]): void {
  if (o !== null && typeof o === 'object' && !Array.isArray(o)) {
    for (const k of Object.keys(o).sort()) flatten((o as Record<string, unknown>)[k], prefix ? `${prefix}.${k}` : k, out);
  } else out.push({ key: mlflowKey(prefix), value: (typeof o === 'string' ? o : JSON.stringify(o)).slice(0, 6000) });
}

/** Params, metrics and tags of a run (module docstring). */
export function mlflowEntries(d: RunData): { params: KV[]; metrics: Metric[]; tags: KV[] } {
  const params: KV[] = [];
  flatten(d.run.settings, 'settings', params);
  params.push({ key: 'corpus_hash', value: d.run.corpusHash }, { key: 'groundtruth_hash', value: d.run.groundTruthHash }, { key: 'tool_version', value: d.run.toolVersion });
  if (d.run.models) {
    params.push({ key: 'models.embedders', value: d.run.models.embedders.map((e) => e.description).join('; ').slice(0, 6000) });
    params.push({ key: 'models.reranker', value: d.run.models.reranker ?? 'none' });
  }
  const timestamp = Date.parse(d.run.endedAt ?? d.run.startedAt) || 0;
  const metrics: Metric[] = [];
  for (const c of d.results?.configs ?? []) {
    for (const [m, v] of Object.entries(c.metrics)) {
      const key = mlflowKey(`${c.id}/${m}`);
      for (const [suffix, x] of [['', v.mean], ['/lo', v.lo], ['/hi', v.hi]] as const) if (Number.isFinite(x)) metrics.push({ key: `${key}${suffix}`, value: x, timestamp, step: 0 });
    }
  }
  const v = d.verdict;
  const tags: KV[] = [
    { key: 'spanproof.run_id', value: d.run.id },
    { key: 'spanproof.verdict', value: v?.recommended ?? 'none' },
    { key: 'spanproof.status', value: v?.status ?? d.run.status },
    { key: 'spanproof.primary_metric', value: v?.primaryMetric ?? '' },
    { key: 'mlflow.runName', value: d.run.id },
  ];
  return { params, metrics, tags };
}

/** heatmap.csv: documents × questions, share of the recommended config's top-k context from each document; `E` = an evidence document. */
export function heatmapCsv(d: RunData): string {
  const rec = d.verdict?.recommended ?? d.results?.configs.find((c) => c.rank === 1)?.id;
  const k = d.results?.k ?? 5;
  const qs = (d.evidence?.questions ?? []).map((q) => q.id);
  const share = new Map<string, Map<string, number>>();
  const docs = new Set<string>();
  for (const q of d.evidence?.questions ?? []) for (const s of q.spans) docs.add(s.source);
  for (const r of d.questions) {
    if (r.config !== rec) continue;
    const top = r.results.slice(0, k);
    const total = top.reduce((t, h) => t + (h.end - h.start), 0);
    for (const h of top) {
      docs.add(h.source);
      const m = share.get(h.source) ?? new Map<string, number>();
      m.set(r.question, (m.get(r.question) ?? 0) + (total ? (h.end - h.start) / total : 0));
      share.set(h.source, m);
    }
  }
  const ev = new Map((d.evidence?.questions ?? []).map((q) => [q.id, new Set(q.spans.map((s) => s.source))]));
  const lines = [['document', ...qs].map(csvCell).join(',')];
  for (const doc of [...docs].sort()) lines.push([doc, ...qs.map((q) => `${(share.get(doc)?.get(q) ?? 0).toFixed(3)}${ev.get(q)?.has(doc) ? 'E' : ''}`)].map(csvCell).join(','));
  return lines.join('\n') + '\n';
}

/** Splits `items` into log-batch chunks within MLflow's limits and `maxBytes`. */
function batches(p: KV[], m: Metric[], t: KV[], maxBytes: number): Array<{ params: KV[]; metrics: Metric[]; tags: KV[] }> {
  const out: Array<{ params: KV[]; metrics: Metric[]; tags: KV[] }> = [];
  let cur = { params: [] as KV[], metrics: [] as Metric[], tags: [] as KV[] };
  let bytes = 100;
  const push = <K extends 'params' | 'metrics' | 'tags'>(kind: K, x: (typeof cur)[K][number], cap: number) => {
    const size = Buffer.byteLength(JSON.stringify(x)) + 1;
    const n = cur.params.length + cur.metrics.length + cur.tags.length;
    if (n >= 1000 || cur[kind].length >= cap || bytes + size > maxBytes) { out.push(cur); cur = { params: [], metrics: [], tags: [] }; bytes = 100; }
    (cur[kind] as Array<typeof x>).push(x);
    bytes += size;
  };
  for (const x of t) push('tags', x, 100);
  for (const x of p) push('params', x, 100);
  for (const x of m) push('metrics', x, 1000);
  if (cur.params.length + cur.metrics.length + cur.tags.length) out.push(cur);
  return out;
}

const is413 = (e: unknown) => findNetError(e)?.kind === 'http' && findNetError(e)?.status === 413;

/** Exports one run folder. Throws SpanproofError('bad-input') for an unreachable or refusing server (message names the URL and the step). */
export async function exportRunToMlflow(runDir: string, o: MlflowExportOptions): Promise<MlflowExportResult> {
  const d = readRun(runDir);
  if (!d.results) throw new SpanproofError('bad-input', 'this run has no results.json to export.', { file: runDir, fix: 'export a finished run.' });
  const base = o.trackingUri.replace(/\/+$/, '');
  const maxBytes = o.maxBodyBytes ?? 1_000_000;
  const http = new HttpClient({ timeoutMs: o.timeoutMs ?? 60000, retries: o.retries ?? 3, sleep: o.sleep, concurrency: 2, headers: o.token ? { authorization: `Bearer ${o.token}` } : undefined });
  const step = async <T>(what: string, f: () => Promise<T>): Promise<T> => {
    try { return await f(); } catch (e) {
      if (e instanceof SpanproofError) throw e;
      throw new SpanproofError('bad-input', `MLflow ${what} at ${redactUrl(base)} failed: ${(e as Error).message}`, { field: '--tracking-uri', fix: 'check that the tracking server runs (mlflow server, with artifact serving) and the URI is right.', cause: e });
    }
  };
  const post = <T>(path: string, body: unknown) => http.postJson<T>(`${base}${API}/${path}`, body).then((r) => r.json);
  // A reply without the field MLflow always sends: another service answers at this URI (#16 item 15) — not an internal "Cannot read properties of undefined".
  const must = <T>(value: T | undefined, field: string, route: string): T => {
    if (typeof value === 'string' && value !== '') return value;
    throw new SpanproofError('bad-input', `the server at ${redactUrl(base)} did not answer like an MLflow tracking server (no ${field} in the reply to ${route}).`, { field: '--tracking-uri', fix: 'check --tracking-uri: the base URL of an MLflow tracking server (mlflow server, e.g. http://127.0.0.1:5000), not another service or a proxy page.' });
  };
  const name = o.experiment ?? 'spanproof';
  const experimentId = await step('experiment lookup', async () => {
    try {
      const r = (await http.getJson<{ experiment?: { experiment_id?: string } } | null>(`${base}${API}/experiments/get-by-name?experiment_name=${encodeURIComponent(name)}`)).json;
      return must(r?.experiment?.experiment_id, 'experiment_id', 'experiments/get-by-name');
    } catch (e) {
      if (!(e instanceof NetError && e.status === 404)) throw e;
      return must((await post<{ experiment_id?: string } | null>('experiments/create', { name }))?.experiment_id, 'experiment_id', 'experiments/create');
    }
  });
  const { params, metrics, tags } = mlflowEntries(d);
  const found = await step('run search', () => post<{ runs?: Array<{ info?: { run_id?: string; artifact_uri?: string } }> } | null>('runs/search', { experiment_ids: [experimentId], filter: `tags.\`spanproof.run_id\` = '${d.run.id.replace(/'/g, '')}'`, max_results: 1 }));
  const hit = Array.isArray(found?.runs) ? found.runs[0] : undefined;
  const raw = hit ? hit.info : (await step('run create', () => post<{ run?: { info?: { run_id?: string; artifact_uri?: string } } } | null>('runs/create', { experiment_id: experimentId, run_name: d.run.id, start_time: Date.parse(d.run.startedAt) || 0, tags: [tags[0]] })))?.run?.info;
  const route = hit ? 'runs/search' : 'runs/create';
  const info = { run_id: must(raw?.run_id, 'run_id', route), artifact_uri: must(raw?.artifact_uri, 'artifact_uri', route) };
  const existing = hit;
  const sendBatch = async (b: { params: KV[]; metrics: Metric[]; tags: KV[] }): Promise<void> => {
    try { await post('runs/log-batch', { run_id: info.run_id, ...b }); } catch (e) {
      const all = [...b.tags.map((x) => ['tags', x] as const), ...b.params.map((x) => ['params', x] as const), ...b.metrics.map((x) => ['metrics', x] as const)];
      if (!is413(e) || all.length < 2) throw e;
      const half = Math.ceil(all.length / 2);
      for (const part of [all.slice(0, half), all.slice(half)]) {
        await sendBatch({ tags: part.filter((x) => x[0] === 'tags').map((x) => x[1] as KV), params: part.filter((x) => x[0] === 'params').map((x) => x[1] as KV), metrics: part.filter((x) => x[0] === 'metrics').map((x) => x[1] as Metric) });
      }
    }
  };
  for (const b of batches(params, metrics, tags, maxBytes)) await step('log-batch', () => sendBatch(b));
  const artifacts = await step('artifact upload', () => uploadArtifacts(http, base, info.artifact_uri, runDir, d, maxBytes));
  await step('run update', () => post('runs/update', { run_id: info.run_id, status: 'FINISHED', end_time: Date.parse(d.run.endedAt ?? d.run.startedAt) || 0 }));
  return { experimentId, runId: info.run_id, created: !existing, params: params.length, metrics: metrics.length, tags: tags.length, artifacts };
}

/** `text` in pieces of at most `units` UTF-16 code units, never splitting a surrogate pair. */
function splitText(text: string, units: number): string[] {
  if (text.length <= units) return [text];
  const out: string[] = [];
  for (let i = 0; i < text.length;) {
    let j = Math.min(text.length, i + units);
    if (j < text.length && /[\uD800-\uDBFF]/.test(text[j - 1])) j--;
    out.push(text.slice(i, j));
    i = j;
  }
  return out;
}

async function uploadArtifacts(http: HttpClient, base: string, artifactUri: string, runDir: string, d: RunData, maxBytes: number): Promise<string[]> {
  const m = /^mlflow-artifacts:(?:\/\/[^/]*)?\/(.*)$/.exec(artifactUri);
  if (!m) throw new SpanproofError('bad-input', `the run's artifact location ${artifactUri} is not served by the tracking server.`, { field: '--tracking-uri', fix: 'start the server with artifact serving (mlflow server --serve-artifacts, the default since MLflow 2.0).' });
  const root = `${base}/api/2.0/mlflow-artifacts/artifacts/${m[1].replace(/\/+$/, '')}`;
  const files: Array<[string, string]> = [
    ...(['results.json', 'ranking.json', 'questions.jsonl'] as const).map((f): [string, string] => [f, readRegularTextSync(join(runDir, f), MAX_DATA_FILE_BYTES)]),
    ['report.html', renderReport(d, 'html', readAnswers(runDir))],
    ['heatmap.csv', heatmapCsv(d)],
  ];
  const done: string[] = [];
  const put = (path: string, body: string) => http.request(`${root}/${path}`, { method: 'PUT', body, headers: { 'content-type': 'application/octet-stream' } });
  for (const [name, text] of files) {
    // Parts are cut between UTF-16 code units (never inside a surrogate pair), at most 3 bytes each in UTF-8.
    let units = Buffer.byteLength(text) <= maxBytes ? text.length : Math.floor(maxBytes / 3);
    for (;;) {
      const parts = splitText(text, units);
      const names = parts.length === 1 ? [name] : parts.map((_, i) => `${name}.part-${String(i + 1).padStart(3, '0')}-of-${String(parts.length).padStart(3, '0')}`);
      try {
        for (let i = 0; i < parts.length; i++) await put(names[i], parts[i]);
        done.push(...names);
        break;
      } catch (e) {
        if (!is413(e) || units < 1024) throw e;
        units = Math.floor(Math.min(units, text.length) / 2);
      }
    }
  }
  return done;
}
