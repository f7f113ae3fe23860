/**
 * The XPIA attack stage of a run (issue #17 item 2; `spanproof run --injection-study --generate`):
 * after the injection study wrote injection.json, re-plant the same canaries in memory (same corpus,
 * ground truth and seed — checked against injection.json), generate answers from each exposed item's
 * top-k results with the canaries present, judge whether a planted instruction was followed
 * (./attack.ts), and write `<run>/attacks.json`. Opt-in: needs an endpoint given by the caller (never
 * taken from the run's files); the user's documents are only read.
 */
import { join, resolve } from 'node:path';
import { SpanproofError } from '../errors';
import { cancelled } from '../net';
import { loadStage } from '../grid/load';
import { ChatClient } from '../judge/client';
import { ReplyCache } from '../judge/cache';
import { defaultGenerateConfigs } from '../judge/stage';
import type { LedgerFile } from '../judge/types';
import { readRun, resolveCacheDir, stableStringify, writeAttackReport } from '../runs';
import type { RunSettings } from '../settings';
import { attackSuccess, type AttackReport } from './attack';
import { plantCanaries } from './canaries';
import { XPIA_KINDS } from './templates';

export interface AttackStageOptions {
  /** Judge settings; `endpoint`, `generatorModel`, `judgeModel` required. */
  judge: RunSettings['judge'];
  apiKey?: string;
  /** The workspace the run was made on (chosen by the user, never run.json's). */
  workspace: string;
  groundTruthFile: string;
  /** Configs to attack; default the recommended config, the next two and the worst. */
  configs?: string[];
  cacheDir?: string;
  noCache?: boolean;
  client?: ChatClient;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/**
 * Runs the attack stage on `runDir`; returns the report (with the ledger) and the file written.
 * @throws SpanproofError('bad-input') without an injection study, an endpoint or models, for the same
 *   generator and judge (unless allowed), an unknown config, or when the corpus changed since the study.
 */
export async function runAttackStage(runDir: string, o: AttackStageOptions): Promise<{ file: string; report: AttackReport & { ledger: LedgerFile } }> {
  const data = readRun(runDir);
  const study = data.injection;
  if (!study) throw new SpanproofError('bad-input', 'the run has no injection study (injection.json).', { file: runDir, fix: 'run with --injection-study first.' });
  if (!o.judge.endpoint) throw new SpanproofError('bad-input', 'the attack step needs an endpoint.', { field: '--endpoint', fix: 'pass --endpoint URL.' });
  const settings = data.run.settings;
  const time = <T>(_: string, f: () => Promise<T> | T) => Promise.resolve(f());
  const inputs = await loadStage({ workspace: resolve(o.workspace), groundTruthFile: o.groundTruthFile, settings, time });
  const scored = new Set(data.evidence?.questions.map((q) => q.id) ?? inputs.questions.map((q) => q.id));
  const questions = inputs.questions.filter((q) => scored.has(q.id));
  const planted = plantCanaries(inputs.corpus.documents, questions.flatMap((q) => q.spans), { seed: study.seed, perKind: study.canaries.length / XPIA_KINDS.length });
  if (inputs.corpusHash !== data.run.corpusHash || stableStringify(planted.canaries) !== stableStringify(study.canaries)) {
    throw new SpanproofError('bad-input', 'the corpus or the ground truth changed since the injection study: the canaries do not plant the same way again.', { file: join(runDir, 'injection.json'), fix: 'run the evaluation again with --injection-study.' });
  }
  const known = study.configs.map((c) => c.id);
  const configs = o.configs?.length ? o.configs : defaultGenerateConfigs(data.ranking, data.results);
  for (const c of configs) if (!known.includes(c)) throw new SpanproofError('bad-input', `config "${c}" is not in this run.`, { field: '--generate-configs', fix: `use ids from injection.json, e.g. ${known.slice(0, 3).join(', ')}.` });
  const j = o.judge;
  const client = o.client ?? new ChatClient({ endpoint: j.endpoint, apiKey: o.apiKey, concurrency: j.concurrency, requestsPerMinute: j.requestsPerMinute, timeoutMs: j.timeoutMs, retries: j.retries, cache: o.noCache ? undefined : new ReplyCache(o.cacheDir ?? join(resolveCacheDir(inputs.workspace), 'judge')) });
  const report = await attackSuccess(
    { questions: questions.map((q) => ({ id: q.id, text: q.question })), configs, exposed: study.exposed, canaries: planted.canaries, textOf: (s) => planted.texts.get(s.source)!.slice(s.start, s.end) },
    { client, generatorModel: j.generatorModel, judgeModel: j.judgeModel, allowSameModel: j.allowSameModel, signal: o.signal, resamples: settings.bootstrap.resamples, seed: settings.bootstrap.seed, onItem: o.onProgress },
  );
  if (o.signal?.aborted) throw cancelled(); // a cancel that came after the last reply: still nothing written
  const full = { ...report, ledger: client.ledger.snapshot({ status: 'succeeded', items: { done: report.items.length, total: report.items.length }, sameModel: report.sameModel }) };
  return { file: writeAttackReport(runDir, full), report: full };
}
