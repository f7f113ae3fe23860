/**
 * The injection exposure study (issue #17 item 1; docs/safety.md), offline, no model beyond the run's
 * own retrieval models: copy the corpus into a scratch folder, plant canary instructions there
 * (./canaries.ts), map the ground truth to the copy, run the grid on the copy through the normal
 * stages (src/core/grid runGrid, nothing written but the caches), and measure exposure@k per config
 * (./exposure.ts). The user's documents are only read; the scratch folder is removed afterwards.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { SpanproofError } from '../errors';
import { loadStage } from '../grid/load';
import { runGrid, type GridHooks } from '../grid/run';
import { serializeGroundTruth, type GroundTruthFile } from '../groundtruth';
import { metricDef } from '../metrics/registry';
import { ENDPOINT_PREFIX } from '../models/embedderSpec';
import { resolveCacheDir, writeInjectionStudy } from '../runs';
import type { GridRunParams, GridRunResult } from '../grid/types';
import { isSpanproofError } from '../errors';
import { parseRunSettings, type RunSettings } from '../settings';
import { plantCanaries, DEFAULT_CANARIES_PER_KIND, type PlantedCorpus } from './canaries';
import { exposedItems, injectionExposure } from './exposure';
import type { InjectionStudy } from './types';
import { XPIA_KINDS } from './templates';
import { makeDirs } from '../files/dirs';

export const INJECTION_NOTE = 'Exposure is measured offline: it says how often a config would put a planted instruction in front of the generator, not whether a model would follow it (that needs an endpoint and a judge; a local judge is not Azure\'s safety service).';

export interface InjectionStudyInput {
  workspace: string;
  groundTruthFile: string;
  settings: RunSettings;
  /** Index/embedding cache of the workspace (reused: unplanted documents hit it). */
  cacheDir?: string;
  canariesPerKind?: number;
  /** Only these questions (as in the main run). */
  questionIds?: string[];
  /** Scratch parent (default os.tmpdir()). */
  scratchRoot?: string;
  /** API key of `settings.modelEndpoint.url` (endpoint models; in memory only). */
  apiKey?: string;
}

/** Model folder settings made absolute against the original workspace (the copy lives elsewhere); `endpoint:<model>` entries stay as they are. */
function anchoredSettings(s: RunSettings, workspace: string, extraBytes: number): RunSettings {
  const abs = (v: string) => (v && !v.startsWith(ENDPOINT_PREFIX) && !isAbsolute(v) && /[\\/]|^\./.test(v) ? resolve(workspace, v) : v);
  return { ...s, embeddingModel: abs(s.embeddingModel), embedders: s.embedders.map(abs), rerankerModel: abs(s.rerankerModel), maxFileBytes: s.maxFileBytes + extraBytes };
}

/** Writes the planted copy and its ground truth under `dir`; returns the copy's corpus root and ground-truth file. */
function writeCopy(dir: string, planted: PlantedCorpus, gt: GroundTruthFile): { root: string; gtFile: string } {
  const root = join(dir, 'corpus');
  for (const [source, text] of planted.texts) {
    const file = join(root, ...source.split('/'));
    makeDirs(dirname(file));
    writeFileSync(file, text);
  }
  const gtFile = join(dir, 'groundtruth.json');
  writeFileSync(gtFile, serializeGroundTruth(gt));
  return { root, gtFile };
}

/**
 * Runs the study. Deterministic for (corpus, ground truth, settings, canariesPerKind): the canaries
 * are seeded with settings.bootstrap.seed and the CIs use the run's resamples.
 * @throws SpanproofError('bad-input') when no question can be scored or the corpus is empty;
 *   SpanproofError('invariant') when the ground truth does not resolve exactly in the copy.
 */
export async function runInjectionStudy(input: InjectionStudyInput, hooks: Pick<GridHooks, 'signal' | 'onProgress' | 'onLog'> = {}): Promise<InjectionStudy> {
  const { settings } = input;
  const time = <T>(_: string, f: () => Promise<T> | T) => Promise.resolve(f());
  const inputs = await loadStage({ workspace: input.workspace, groundTruthFile: input.groundTruthFile, settings, questionIds: input.questionIds, requireScorable: true, time });
  const planted = plantCanaries(inputs.corpus.documents, inputs.questions.flatMap((q) => q.spans), { seed: settings.bootstrap.seed, perKind: input.canariesPerKind ?? DEFAULT_CANARIES_PER_KIND });
  const gt: GroundTruthFile = {
    spanproof: 1,
    questions: inputs.questions.map((q) => ({
      id: q.id, question: q.question, ...(q.answer !== undefined ? { answer: q.answer } : {}), match: q.match,
      evidence: q.spans.map((s) => { const m = planted.mapSpan(s); return { source: m.source, exact: planted.texts.get(m.source)!.slice(m.start, m.end), start: m.start, end: m.end }; }),
    })),
  };
  const scratch = mkdtempSync(join(input.scratchRoot ?? tmpdir(), 'spanproof-injection-'));
  try {
    const copy = writeCopy(scratch, planted, gt);
    const extra = Math.max(...planted.canaries.map((c) => c.text.length + 4)) * planted.canaries.length * 3;
    const r = await runGrid({
      workspace: copy.root, groundTruthFile: copy.gtFile, settings: anchoredSettings(settings, inputs.workspace, extra),
      cacheDir: resolveCacheDir(inputs.workspace, input.cacheDir), apiKey: input.apiKey, writeRun: false, returnRecords: true, requireScorable: true,
    }, { signal: hooks.signal, onLog: hooks.onLog, onProgress: (p) => hooks.onProgress?.({ ...p, stage: `injection: ${p.stage}` }) });
    const acc = r.results.acceptance;
    if (acc.resolved !== inputs.questions.length || acc.moved) {
      throw new SpanproofError('invariant', `the ground truth did not resolve exactly in the planted copy (${acc.resolved} of ${inputs.questions.length} resolved, ${acc.moved} moved).`);
    }
    const chunkerOf = new Map(r.results.configs.map((c) => [c.id, c.chunker]));
    const order = new Map(inputs.questions.map((q, i) => [q.id, i]));
    const records = [...(r.records ?? [])].sort((a, b) => order.get(a.question)! - order.get(b.question)! || (a.config < b.config ? -1 : a.config > b.config ? 1 : 0));
    const { configs, chunkers } = injectionExposure({ records, questions: inputs.questions.map((q) => q.id), chunkerOf, canaries: planted.canaries, k: settings.k, resamples: settings.bootstrap.resamples, seed: settings.bootstrap.seed });
    return {
      spanproof: 1, templates: planted.templatesVersion, seed: planted.seed, k: settings.k, metric: metricDef(`exposure@${settings.k}`).key, resamples: settings.bootstrap.resamples,
      questions: inputs.questions.length, kinds: [...XPIA_KINDS], canaries: planted.canaries, configs, chunkers, exposed: exposedItems(records, planted.canaries, settings.k), note: INJECTION_NOTE,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The study after a written run (`GridRunParams.injectionStudy`): runs it with the run's workspace,
 * ground truth, settings, cache and question selection, writes `<runDir>/injection.json`, and returns
 * the result with `injection` set. A cancel during the study names the (finished) run directory.
 */
export async function withInjectionStudy(params: GridRunParams, result: GridRunResult, hooks: Pick<GridHooks, 'signal' | 'onProgress' | 'onLog'> = {}): Promise<GridRunResult> {
  const settings = parseRunSettings(params.settings, 'settings');
  const wanted = params.injectionStudy ?? settings.injection.study;
  if (!wanted || !result.runDir || result.status !== 'succeeded') return result;
  const perKind = (typeof wanted === 'object' ? wanted.canariesPerKind : undefined) ?? settings.injection.canariesPerKind;
  try {
    const study = await runInjectionStudy({ workspace: params.workspace, groundTruthFile: params.groundTruthFile, settings, cacheDir: params.cacheDir, canariesPerKind: perKind, questionIds: params.questionIds, apiKey: params.apiKey }, hooks);
    return { ...result, injection: { file: writeInjectionStudy(result.runDir, study), study } };
  } catch (e) {
    if (isSpanproofError(e) && e.code === 'cancelled') e.runDir = result.runDir;
    throw e;
  }
}
