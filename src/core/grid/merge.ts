/**
 * `spanproof merge --out DIR RUN...` (issue #18, docs/ci.md): joins the run folders of
 * `spanproof run --shard i/n` into the run one process would have written. It checks that the shards
 * belong together (the same settings, corpus hash, ground-truth hash, tool version and questions; each
 * holds exactly the units its index gives — ./shard.ts — so together they are disjoint and complete;
 * every shard present once), concatenates their per-item scores (shard-items.jsonl, full precision)
 * in engine order and computes the aggregates, bootstrap and verdict once (./conclude.ts), so the
 * merged results.json, ranking.json and questions.jsonl are byte-identical to an unsharded run with
 * the same settings. Missing, repeated or foreign shards are a SpanproofError('bad-input') naming them.
 */
import { join, resolve } from 'node:path';
import { SpanproofError } from '../errors';
import { readJsonFile, readJsonLines } from '../files/json';
import { RunWriter, stableStringify } from '../runs';
import type { EvidenceFile, QuestionRecord, ResultsFile, RunFile } from '../runs/types';
import type { ComputeModels } from '../ranking';
import type { Verdict } from '../ranking/types';
import { concludeResults } from './conclude';
import { planConfigs, planExternalConfigs, type ConfigPlan } from './plan';
import { buildTimings, configLatencies } from './results';
import { selectionJson, shardGroups, shardSelection, type ShardSpec } from './shard';
import type { ItemRecord } from './types';

/** shard.json: what a shard's folder adds for the merge. */
export interface ShardFile {
  spanproof: 1;
  shard: ShardSpec;
  /** Question ids per group (chunker or external config id) this shard ran. */
  units: Record<string, string[]>;
  /** Every scored question of the run, in ground-truth order. */
  questionOrder: string[];
  computeModels: ComputeModels;
  stageErrors: Array<{ chunker: string; error: string }>;
  skipped: Array<{ source: string; reason: string; detail: string }>;
}

/** One line of shard-items.jsonl: an item without its lists (those are in questions.jsonl). */
export type ShardItem = Omit<ItemRecord, 'pool' | 'final' | 'chunks'>;

/** The shard item of an engine item (numbers at full precision: written with JSON.stringify). */
export function shardItem(it: ItemRecord): ShardItem {
  const { pool: _p, final: _f, chunks: _c, ...rest } = it;
  return rest;
}

interface Shard {
  dir: string;
  run: RunFile;
  file: ShardFile;
}

const FIX = 'pass the run folders written by `spanproof run --shard i/n` with the same settings, one per shard.';
const bad = (message: string, file?: string) => new SpanproofError('bad-input', message, { file, fix: FIX });

function readShard(dir: string): Shard {
  const d = resolve(dir);
  const run = readJsonFile<RunFile>(join(d, 'run.json'), FIX);
  if (!run) throw new SpanproofError('not-found', 'not a Spanproof run folder (no run.json).', { file: d, fix: FIX });
  const file = readJsonFile<ShardFile>(join(d, 'shard.json'), FIX);
  if (!file) throw bad('this run is not a shard (no shard.json): run it with --shard i/n.', d);
  if (run.status !== 'succeeded') throw bad(`shard ${file.shard.index}/${file.shard.count} did not succeed (run.json status ${run.status}); re-run it.`, d);
  return { dir: d, run, file };
}

/** Refuses shards that do not belong together, naming the folder and what differs; returns the shards in index order. */
function checkShards(shards: Shard[]): Shard[] {
  if (!shards.length) throw bad('no shard folders given.');
  const [a] = shards;
  const n = a.file.shard.count;
  const same: Array<[string, (s: Shard) => unknown]> = [
    ['shard count', (s) => s.file.shard.count],
    ['settings', (s) => stableStringify(s.run.settings)],
    ['corpus hash', (s) => s.run.corpusHash],
    ['ground-truth hash', (s) => s.run.groundTruthHash],
    ['tool version', (s) => s.run.toolVersion],
    ['questions', (s) => s.file.questionOrder.join('\n')],
    ['models', (s) => stableStringify(s.file.computeModels)],
  ];
  for (const s of shards.slice(1)) {
    for (const [what, f] of same) if (f(s) !== f(a)) throw bad(`${s.dir} and ${a.dir} are not shards of one run: their ${what} differ.`, s.dir);
  }
  const byIndex = new Map<number, Shard>();
  for (const s of shards) {
    const prev = byIndex.get(s.file.shard.index);
    if (prev) throw bad(`shard ${s.file.shard.index}/${n} is given twice: ${prev.dir} and ${s.dir}.`, s.dir);
    byIndex.set(s.file.shard.index, s);
  }
  const missing = Array.from({ length: n }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length) throw bad(`missing shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${n}`).join(', ')} (given: ${[...byIndex.keys()].sort((x, y) => x - y).map((i) => `${i}/${n}`).join(', ')}).`);
  for (const s of byIndex.values()) {
    const want = selectionJson(shardSelection(s.run.settings, s.file.questionOrder, s.file.shard));
    if (stableStringify(want) !== stableStringify(s.file.units)) throw bad(`${s.dir} does not hold the work of shard ${s.file.shard.index}/${n} for these settings.`, s.dir);
  }
  return [...byIndex.values()].sort((x, y) => x.file.shard.index - y.file.shard.index);
}

/** Items of every shard in engine order: chunkers in plan order (question-major, or config-major for a failed chunker), then external configs. */
function engineOrder(configs: readonly ConfigPlan[], questions: readonly string[], items: Map<string, ItemRecord>, failed: ReadonlySet<string>): ItemRecord[] {
  const out: ItemRecord[] = [];
  const take = (c: ConfigPlan, q: string) => {
    const it = items.get(`${c.id}\u0000${q}`);
    if (!it) throw bad(`no shard holds the item ${q} × ${c.id}; a shard folder is incomplete — re-run that shard.`);
    out.push(it);
  };
  const chunkers = [...new Set(configs.filter((c) => !c.external).map((c) => c.chunker))];
  for (const ch of chunkers) {
    const mine = configs.filter((c) => !c.external && c.chunker === ch);
    if (failed.has(ch)) for (const c of mine) for (const q of questions) take(c, q);
    else for (const q of questions) for (const c of mine) take(c, q);
  }
  for (const c of configs.filter((x) => x.external)) for (const q of questions) take(c, q);
  return out;
}

/** A shard item as the aggregate reads it (null metrics from JSON back to NaN). */
function reviveItem(s: ShardItem): ItemRecord {
  const scores = s.scores ? { ...s.scores, metrics: Object.fromEntries(Object.entries(s.scores.metrics).map(([k, v]) => [k, v ?? NaN])) as typeof s.scores.metrics } : null;
  return { ...s, scores, pool: [], final: [] };
}

export interface MergeResult {
  runDir: string;
  settings: RunFile['settings'];
  results: ResultsFile;
  verdict: Verdict;
  warnings: string[];
}

/** Merges shard folders into `outDir` (new or empty). Throws SpanproofError('bad-input' | 'not-found') as the module says. */
export function mergeShards(dirs: readonly string[], outDir: string): MergeResult {
  const t0 = performance.now();
  const shards = checkShards(dirs.map(readShard));
  const first = shards[0];
  const settings = first.run.settings;
  const questions = first.file.questionOrder;
  const configs: ConfigPlan[] = [...planConfigs(settings), ...planExternalConfigs(settings)];
  const items = new Map<string, ItemRecord>();
  const records: QuestionRecord[] = [];
  const chunkTexts: EvidenceFile['chunks'] = {};
  const stageErrors = new Map<string, string>();
  for (const s of shards) {
    for (const line of readJsonLines<ShardItem>(join(s.dir, 'shard-items.jsonl'), FIX)) items.set(`${line.config}\u0000${line.question}`, reviveItem(line));
    records.push(...readJsonLines<QuestionRecord>(join(s.dir, 'questions.jsonl'), FIX));
    const ev = readJsonFile<EvidenceFile>(join(s.dir, 'evidence.json'), FIX);
    for (const [ch, m] of Object.entries(ev?.chunks ?? {})) Object.assign((chunkTexts[ch] ??= {}), m);
    for (const e of s.file.stageErrors) if (!stageErrors.has(e.chunker)) stageErrors.set(e.chunker, e.error);
  }
  const groups = shardGroups(settings);
  const ordered = engineOrder(configs, questions, items, new Set(stageErrors.keys()));
  const out = { configs, items: ordered, stages: [] };
  const latency = configLatencies(out);
  const { verdict, results } = concludeResults({
    settings, configs, items: ordered, questions: questions.map((id) => ({ id })),
    stageErrors: groups.filter((g) => stageErrors.has(g)).map((g) => ({ chunker: g, error: stageErrors.get(g)! })),
    acceptance: first.run.acceptance!, skipped: first.file.skipped, computeModels: first.file.computeModels, latency,
  });
  const evidence = readJsonFile<EvidenceFile>(join(first.dir, 'evidence.json'), FIX)!;
  const writer = RunWriter.create({
    workspace: first.run.workspace, outDir: resolve(outDir),
    inputsKey: stableStringify({ settings, corpusHash: first.run.corpusHash, groundTruthHash: first.run.groundTruthHash }),
    init: { ...first.run, status: 'running', progress: { finished: 0, total: 1 }, error: null, startedAt: new Date().toISOString(), endedAt: null },
  });
  if (first.run.models) writer.run.models = first.run.models;
  const timings = buildTimings(out, latency, { merge: performance.now() - t0 }, first.run.counts?.documents ?? 0);
  writer.writeOutputs({ results, ranking: verdict.ranking, records, questionOrder: questions, evidence: { questions: evidence.questions, chunks: chunkTexts }, timings });
  writer.finish('succeeded', null, { documents: first.run.counts?.documents ?? 0, questions: questions.length, chunks: Object.assign({}, ...shards.map((s) => s.run.counts?.chunks ?? {})) });
  return { runDir: writer.dir, settings, results, verdict: verdict.ranking.verdict, warnings: [...stageErrors.values()] };
}
