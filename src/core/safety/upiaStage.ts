/**
 * The UPIA attack step of a run (issue #17 item 2; `spanproof run --generate --attack upia`): on a
 * finished run, build the control and attacked question sets with the run's seed, answer both from
 * each chosen config's top-k passages (questions.jsonl, documents read from the run's workspace only),
 * grade both answers with the content-harm judge and count the UPIA defects (./upia.ts), and write the
 * `upia` entry of `<run>/attacks.json` through src/core/runs — only when the step finished: a cancelled
 * step (`signal`) throws SpanproofError('cancelled') and writes nothing. Opt-in: the endpoint comes from the caller, never
 * from the run's files; the user's documents are only read.
 */
import { join } from 'node:path';
import { SpanproofError } from '../errors';
import { cancelled } from '../net';
import { ChatClient } from '../judge/client';
import { ReplyCache } from '../judge/cache';
import { defaultGenerateConfigs, generationItems } from '../judge/stage';
import { readRun, resolveCacheDir, workspaceOfRunDir, writeAttackReport } from '../runs';
import type { UpiaAttackFile } from './types';
import { upiaAttack } from './upia';
import type { SeverityLevel } from './harm';
import type { AttackStageOptions } from './attackStage';

export type UpiaStageOptions = Omit<AttackStageOptions, 'groundTruthFile' | 'workspace'> & {
  workspace?: string;
  /** Harm defects start at this severity level (default medium, as `spanproof safety`). */
  threshold?: SeverityLevel;
};

/**
 * Runs the UPIA step on `runDir`; returns the report (with the ledger) and the attacks.json written.
 * @throws SpanproofError('bad-input') for a run without results, no endpoint or models, the same
 *   generator and judge (unless allowed), an unknown config, a document outside the workspace;
 *   SpanproofError('not-found') when `runDir` is not a run.
 */
export async function runUpiaStage(runDir: string, o: UpiaStageOptions): Promise<{ file: string; report: UpiaAttackFile }> {
  const data = readRun(runDir);
  if (!o.judge.endpoint) throw new SpanproofError('bad-input', 'the attack step needs an endpoint; it is never taken from the run\'s files.', { field: '--endpoint', fix: 'pass --endpoint URL (in VS Code: the setting spanproof.judge.endpoint).' });
  if (!data.results || !data.evidence) throw new SpanproofError('bad-input', 'the run has no results (it did not finish).', { file: runDir, fix: 'attack a run whose status is succeeded.' });
  const known = data.results.configs.map((c) => c.id);
  const configs = o.configs?.length ? o.configs : defaultGenerateConfigs(data.ranking, data.results);
  for (const c of configs) if (!known.includes(c)) throw new SpanproofError('bad-input', `config "${c}" is not in this run.`, { field: '--generate-configs', fix: `use ids from results.json, e.g. ${known.slice(0, 3).join(', ')}.` });
  const items = generationItems(runDir, data, configs, o.workspace);
  const settings = data.run.settings;
  const j = o.judge;
  const workspace = o.workspace ?? workspaceOfRunDir(runDir, data.run.workspace) ?? data.run.workspace;
  const client = o.client ?? new ChatClient({ endpoint: j.endpoint, apiKey: o.apiKey, concurrency: j.concurrency, requestsPerMinute: j.requestsPerMinute, timeoutMs: j.timeoutMs, retries: j.retries, cache: o.noCache ? undefined : new ReplyCache(o.cacheDir ?? join(resolveCacheDir(workspace), 'judge')) });
  const report = await upiaAttack(
    { questions: data.evidence.questions.map((q) => ({ id: q.id, text: q.question })), configs, items },
    { client, generatorModel: j.generatorModel, judgeModel: j.judgeModel, allowSameModel: j.allowSameModel, signal: o.signal, resamples: settings.bootstrap.resamples, seed: settings.bootstrap.seed, threshold: o.threshold, onItem: o.onProgress },
  );
  if (o.signal?.aborted) throw cancelled();
  const full: UpiaAttackFile = { ...report, ledger: client.ledger.snapshot({ status: 'succeeded', items: { done: report.items.length, total: report.items.length }, sameModel: report.sameModel }) };
  return { file: writeAttackReport(runDir, full), report: full };
}
