/**
 * `spanproof run` (SPEC §11): the grid run in the CLI's own thread (src/worker/inProcess.ts: no worker
 * thread, one isolate — issue #13; the extension keeps its worker). Progress bar on a TTY (stderr),
 * plain lines otherwise; `--json` prints only the results.json content plus `runDir` on stdout.
 * SIGINT and SIGTERM cancel cleanly (run.json status `cancelled`). Exit codes: 0 ok; 1 a `--fail-under` gate
 * failed; 2 bad input (also: 0 documents indexed, no question can be scored, `--out` holds an earlier run); 3 internal
 * error, or every item of the run failed (run.json status `failed`); 130 cancelled with SIGINT
 * (128 + signal 2, the shell convention), 143 with SIGTERM (128 + 15).
 *
 * `--fail-under METRIC=VALUE` (repeatable) gates on the mean of METRIC (any key of results.json
 * `metrics` at the run's cutoffs, e.g. `hit@5=0.8`; `hit@k=0.8` means hit at the run's k) of the config
 * the deterministic verdict recommends (ranking.json v2 `verdict.recommended`, SPEC §9 — never a
 * timing-dependent choice, so identical runs gate identically), or of `--gate-config ID`; or
 * `acceptance=0.9` on the resolved/total rate.
 */
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { SpanproofError } from '../../core/errors';
import { InProcessGridClient } from '../../worker/inProcess';
import { checkRunThreads, RUN_ENVIRONMENT_HELP } from './runThreads';
import { groundTruthLocation } from '../../core/groundtruth';
import { CHUNKER_IDS, RETRIEVER_IDS, WORKSPACE_SETTINGS_FILE, mergeSettingsLayers, readSettingsLayers, settingOrigins, validateRunSettings, workspaceSettingsNotes, type SettingOrigin, type SettingsLayer, type WorkspaceSettings } from '../../core/settings';
import { assertNewOutDir, readRun, resolveCacheDir, resolveRunsRoot, stableStringify } from '../../core/runs';
import { parseShardSpec } from '../../core/grid/shard';
import { exportRunToMlflow } from '../../core/export/mlflow';
import { modelFlags } from './modelFlags';
import { endpointModels, gridModelNeeds } from '../../core/grid/models';
import { assertHttpUrl, redactUrl } from '../../core/net';
import { terminalSafe } from '../../core/text/terminal';
import { buildReportModel, injectionSummaryMarkdown, rankingTable } from '../../core/report';
import { addAttackOption, parseAttacks, runAttackSteps } from './attacks';
import { DEFAULT_SETTINGS, type RunSettings } from '../../core/settings';
import type { GridRunResult } from '../../shared/protocol';
import { applyGates, parseGates, resolveGates } from './gates';
import type { SetExit } from './index';
import { EXIT } from '../exit';
import { runAndWriteBiasStudy } from './bias';
import { progressPrinter } from '../progress';
import { addExternalRetrieverOptions, externalRetrieversFromOptions, type ExternalFlagOptions } from './externalFlags';
import { MAX_RESULT_LIST, parseRunSettings } from '../../core/settings';
import { countFlag } from '../flags';
import { addJudgeOptions, generationText, judgeSettings, runGenerateStep, validateGenerateOptions, type JudgeCliOptions } from '../judge';
import { onCancelSignal } from '../cancel';

interface RunOptions extends JudgeCliOptions, ExternalFlagOptions {
  workspace: string;
  groundtruth?: string;
  config?: string;
  out?: string;
  runsDir?: string;
  cacheDir?: string;
  chunkers?: string;
  retrievers?: string;
  rerank?: string;
  k?: string;
  pool?: string;
  tau?: string;
  keepChunks?: boolean;
  explainSettings?: boolean;
  biasStudy?: boolean;
  injectionStudy?: boolean;
  canariesPerKind?: string;
  attack?: string;
  threshold?: string;
  json?: boolean;
  failUnder: string[];
  gateConfig?: string;
  question?: string[];
  shard?: string;
  profile?: boolean;
  embedders?: string;
  reranker?: string;
}

const collect = (v: string, prev: string[]) => [...prev, v];
const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);


/** A comma-separated flag value checked against `known`; the error quotes the bad value and lists the known ones. */
function parseListFlag<T extends string>(flag: string, value: string, known: readonly T[], noun: string): T[] {
  const items = list(value);
  const example = `e.g. ${flag} ${known.slice(0, 2).join(',')}`;
  if (!items.length) throw new SpanproofError('bad-input', `no ${noun} given in "${value}" (known: ${known.join(', ')}).`, { field: flag, fix: `pass a comma-separated list, ${example}.` });
  for (const x of items) {
    if (!(known as readonly string[]).includes(x)) throw new SpanproofError('bad-input', `unknown ${noun} "${x}" (known: ${known.join(', ')}).`, { field: flag, fix: `pass a comma-separated list of those, ${example}.` });
  }
  return items as T[];
}

/** A numeric flag value; `ok` says whether it is acceptable, `rule` says what is. */
function parseNumberFlag(flag: string, value: string, ok: (n: number) => boolean, rule: string, example: string): number {
  const n = value.trim() === '' ? NaN : Number(value);
  if (!ok(n)) throw new SpanproofError('bad-input', `"${value}" is not ${rule}.`, { field: flag, fix: `pass ${rule}, e.g. ${flag} ${example}.` });
  return n;
}

/** Refuses a workspace that is missing or is not a folder, before the grid starts. */
function checkWorkspace(dir: string): void {
  let isDir = false;
  try { isDir = statSync(dir).isDirectory(); } catch { /* missing */ }
  if (!isDir) throw new SpanproofError('not-found', 'the corpus folder does not exist or is not a folder.', { file: dir, fix: 'pass an existing folder with --workspace DIR.' });
}

/** The flag of `spanproof run` for each setting that has one (named in a fix of a key set elsewhere: "raise --pool (setting poolSize)"). */
const RUN_SETTING_FLAGS: Partial<Record<keyof RunSettings, string>> = { chunkers: '--chunkers', retrievers: '--retrievers', rerank: '--rerank', k: '--k', poolSize: '--pool', tau: '--tau', embedders: '--embedders', rerankerModel: '--reranker' };

/** The options that choose the run settings (`failUnder` is accepted and ignored). */
type SettingsOptions = Pick<RunOptions, 'workspace' | 'config' | 'chunkers' | 'retrievers' | 'rerank' | 'k' | 'pool' | 'tau' | 'retrieverCmd' | 'retrieverUrl' | 'retrieverName' | 'embedders' | 'reranker' | 'endpoint'> & Partial<Pick<RunOptions, 'failUnder'>>;

/**
 * The run settings and where each came from: defaults ← `<workspace>/.vscode/settings.json`
 * (`spanproof.*`, as the editor reads them; restricted keys left out) ← `--config` ← flags (#16 item 19).
 * Ignored workspace keys are said on stderr (unless `quiet`), also when a value is wrong.
 */
export function resolveCliSettings(o: SettingsOptions, quiet = false): { settings: RunSettings; origins: SettingOrigin[]; ignored: WorkspaceSettings['ignored']; unlisted: number; layers: SettingsLayer[] } {
  const { workspace: ws, layers } = readSettingsLayers(o.workspace ?? '.', o.config || undefined, quiet ? undefined : (w) => process.stderr.write(workspaceSettingsNotes(w)));
  const s = mergeSettingsLayers(layers);
  const over: Partial<RunSettings> = {};
  const flags: Partial<Record<keyof RunSettings, string>> = {};
  if (o.chunkers !== undefined) { over.chunkers = parseListFlag('--chunkers', o.chunkers, CHUNKER_IDS, 'chunker'); flags.chunkers = '--chunkers'; }
  if (o.retrievers !== undefined) { over.retrievers = parseListFlag('--retrievers', o.retrievers, RETRIEVER_IDS, 'retriever'); flags.retrievers = '--retrievers'; }
  if (o.rerank !== undefined) { over.rerank = parseListFlag('--rerank', o.rerank, ['on', 'off'] as const, 'rerank value').map((x) => x === 'on'); flags.rerank = '--rerank'; }
  if (o.k !== undefined) { over.k = countFlag('--k', o.k, MAX_RESULT_LIST, 5); flags.k = '--k'; }
  if (o.pool !== undefined) { over.poolSize = countFlag('--pool', o.pool, MAX_RESULT_LIST, 20); flags.poolSize = '--pool'; }
  if (o.tau !== undefined) { over.tau = parseNumberFlag('--tau', o.tau, (n) => n > 0 && n <= 1, 'a number in (0, 1]', '0.9'); flags.tau = '--tau'; }
  if (o.retrieverCmd ?? o.retrieverUrl ?? o.retrieverName) { over.externalRetrievers = externalRetrieversFromOptions(o, s); flags.externalRetrievers = '--retriever-cmd/--retriever-url'; }
  // The flags' values through the schema too (a bad --retriever-name or URL is named like a --config key).
  Object.assign(over, modelFlags(o, s));
  const merged: RunSettings = over.externalRetrievers ? parseRunSettings({ ...s, ...over }, '--retriever-cmd/--retriever-url') : { ...s, ...over };
  // Cross-key checks before anything runs, naming the flag or the file key to change.
  validateRunSettings(merged, { file: layers.length ? layers.map((l) => l.file).join(' + ') : 'the default settings', flags, offered: RUN_SETTING_FLAGS });
  return { settings: merged, origins: settingOrigins(merged, layers, flags), ignored: ws.ignored, unlisted: ws.unlisted, layers };
}

/**
 * The ground-truth file of a command: `--groundtruth FILE` (resolved against the cwd), else the
 * `groundTruthPath` setting under the workspace — confined to the workspace when the workspace's own
 * `.vscode/settings.json` chose it, as in the editor (#16 item 6; src/core/groundtruth/location.ts).
 * @throws SpanproofError('bad-input') naming `spanproof.groundTruthPath` and the settings file when that path leaves the workspace.
 */
export function groundTruthFileOf(workspace: string, flag: string | undefined, cli: { settings: RunSettings; layers: readonly SettingsLayer[] }): string {
  if (flag !== undefined) return path.resolve(flag);
  const chooser = [...cli.layers].reverse().find((l) => l.values.groundTruthPath !== undefined);
  return groundTruthLocation(workspace, cli.settings.groundTruthPath, chooser?.kind === 'config' ? { by: 'user' } : { by: 'folder', settingsFile: chooser?.file });
}

/** One stderr line from the run's models-ledger.json: requests sent and inputs served from the cache. */
function modelsLedgerLine(runDir: string): string {
  try {
    const l = JSON.parse(readFileSync(path.join(runDir, 'models-ledger.json'), 'utf8')) as { requests: number; retries: number; cachedResponses: number };
    return `endpoint models: ${l.requests} request(s) sent (${l.retries} retries), ${l.cachedResponses} text(s) from the cache; details in models-ledger.json\n`;
  } catch {
    return '';
  }
}

/** Builds the run settings from the workspace's settings.json, --config and the flags (flags win). */
export function settingsFromOptions(o: SettingsOptions): RunSettings {
  return resolveCliSettings(o).settings;
}

/**
 * Why a setting does not matter to this `spanproof run` (its flags and the other settings), or
 * undefined when it is used — so `--explain-settings` does not suggest that editing it changes the run.
 */
export function unusedReason(key: string, s: RunSettings, o: Pick<RunOptions, 'generate'>): string | undefined {
  const [top, group] = key.split('.');
  if (top === 'draft') return 'read by spanproof draft only';
  if (top === 'injection') return 'the CLI takes --injection-study and --canaries-per-kind instead';
  if (top === 'judge' && !o.generate) return 'only with --generate';
  if (top === 'chunkerParams' && !(s.chunkers as string[]).includes(group)) return `the ${group} chunker is not in chunkers`;
  if (top === 'rerankerModel' && !s.rerank.includes(true)) return 'rerank has no on';
  if (top === 'external' && !s.externalRetrievers.length) return 'no external retriever';
  if (key === 'mlflow.experiment' && !s.mlflow.trackingUri) return 'mlflow.trackingUri is empty';
  if (top === 'modelEndpoint' && !sendsToEndpoint(s)) return 'no endpoint:<model> embedder or reranker';
  return undefined;
}

/** True when the run's embedders or reranker are `endpoint:<model>` entries (a broken entry counts as used: the run reports it). */
function sendsToEndpoint(s: RunSettings): boolean {
  try {
    return endpointModels({ ...s, modelEndpoint: { ...s.modelEndpoint, url: s.modelEndpoint.url || 'http://x' } }, gridModelNeeds(s)).length > 0;
  } catch {
    return true;
  }
}

/**
 * `--explain-settings`: one line per setting — key, value, and the file, flag or default it came from,
 * and `(not used: …)` for a setting this run does not read (JSON: `notUsed`).
 */
export function explainSettings(r: ReturnType<typeof resolveCliSettings>, json: boolean, o: Pick<RunOptions, 'generate'> = {}): string {
  const origins = r.origins.map((x) => {
    const notUsed = unusedReason(x.key, r.settings, o);
    return notUsed ? { ...x, notUsed } : x;
  });
  if (json) return `${JSON.stringify({ settings: origins, ignored: r.ignored, ...(r.unlisted ? { unlisted: r.unlisted } : {}) }, null, 2)}\n`;
  const w = Math.max(...origins.map((x) => x.key.length));
  const lines = origins.map((x) => `${x.key.padEnd(w)}  ${JSON.stringify(x.value)}  ← ${x.from}${'notUsed' in x ? `  (not used: ${x.notUsed})` : ''}`);
  for (const i of r.ignored) lines.push(`${i.key.replace(/^spanproof\./, '').padEnd(w)}  (not used from ${WORKSPACE_SETTINGS_FILE}: ${i.reason})`);
  if (r.unlisted) lines.push(`(and ${r.unlisted} more keys not used from ${WORKSPACE_SETTINGS_FILE}: not run settings of this version)`);
  return `${lines.join('\n')}\n`;
}

/** `--canaries-per-kind` as a whole number ≥ 1 (only with --injection-study). */
function parseCanariesPerKind(o: RunOptions): number | undefined {
  if (o.canariesPerKind === undefined) return undefined;
  const n = Number(o.canariesPerKind);
  if (!o.injectionStudy) throw new SpanproofError('bad-input', '--canaries-per-kind needs --injection-study.', { field: '--canaries-per-kind', fix: 'add --injection-study, or drop --canaries-per-kind.' });
  if (!Number.isInteger(n) || n < 1 || n > 50) throw new SpanproofError('bad-input', `--canaries-per-kind must be a whole number from 1 to 50, got "${o.canariesPerKind}".`, { field: '--canaries-per-kind', fix: 'e.g. --canaries-per-kind 4' });
  return n;
}

export function register(program: Command, setExit: SetExit): void {
  program
    .command('run')
    .description('Run the grid of chunker × retriever × reranker configs and write a run directory.')
    .option('--workspace <dir>', 'corpus root', '.')
    .option('--groundtruth <file>', `ground-truth file (default <workspace>/${DEFAULT_SETTINGS.groundTruthPath})`)
    .option('--config <file>', 'JSON file with run settings (same keys as the VS Code settings); wins over <workspace>/.vscode/settings.json')
    .option('--explain-settings', 'print every setting with the file, flag or default it came from, and exit (no run)')
    .option('--out <dir>', 'run directory, new or empty; an earlier run is never overwritten (default <workspace>/.spanproof/runs/<UTC timestamp>-<hash>)')
    .option('--runs-dir <dir>', 'parent folder of run directories (default <workspace>/.spanproof/runs)')
    .option('--cache-dir <dir>', 'index/embedding cache folder (default <workspace>/.spanproof/cache)')
    .option('--chunkers <list>', 'comma-separated chunkers (fixed,recursive,sentence,heading,semantic)')
    .option('--retrievers <list>', 'comma-separated retrievers (bm25,dense,hybrid)')
    .option('--rerank <list>', 'on,off | on | off')
    .option('--embedders <list>', 'comma-separated embedders, each static-glove | use-lite | a catalogue name (spanproof models list) | endpoint:<model> (with --endpoint) | a model folder; with more than one, dense and hybrid run once per embedder (dense:<name>, hybrid:<name>)')
    .option('--reranker <entry>', 'the reranker when --rerank includes on: baseline (default) | a catalogue cross-encoder | endpoint:<model> (with --endpoint) | a cross-encoder folder')
    .option('--k <n>', 'result-list size')
    .option('--pool <n>', 'candidate pool size N, at least k (the poolSize setting)')
    .option('--tau <x>', 'coverage threshold for a hit, in (0, 1]')
    .option('--keep-chunks', 'write chunks/<chunker>.jsonl into the run directory')
    .option('--bias-study', 'also run the chunk-ID bias study (SPEC §7.5; implies --keep-chunks) and write bias.json (see spanproof bias)')
    .option('--injection-study', 'also run the injection exposure study (offline, no model): canaries of the three XPIA kinds planted in a scratch copy of the corpus, exposure@k per config → injection.json (docs/safety.md)')
    .option('--canaries-per-kind <n>', 'canaries per XPIA kind in the injection study (default 4)')
    .option('--question <id>', 'score only this question (repeatable)', collect, [])
    .option('--profile', 'write a CPU profile of the grid into the run directory (worker.cpuprofile; also SPANPROOF_PROFILE=1); the grid then runs in one thread, so the profile holds every stage')
    .option('--json', 'print only JSON (results.json content plus runDir) on stdout')
    .option('--fail-under <metric=value>', 'exit 1 when the recommended config (the deterministic verdict) scores below (repeatable; e.g. hit@k=0.8)', collect, [])
    .option('--gate-config <id>', 'gate --fail-under on this config (e.g. heading/bm25/none) instead of the recommended one')
    .option('--shard <i/n>', 'run only shard i of n of the work (chunker × question; docs/ci.md) into its own run folder; join the shards with spanproof merge')
    .addHelpText('after', `
Exit codes:
  0    success
  1    a --fail-under gate failed
  2    bad input: the message names the file, the key or flag, and the fix (also: no question
       can be scored, or --out holds an earlier run — a run is never overwritten)
  3    internal error, or every item of the run failed (run.json status "failed")
  ${EXIT.cancelled}  cancelled with Ctrl-C (SIGINT; run.json status "cancelled")
  ${EXIT.terminated}  cancelled with SIGTERM (kill, docker stop, a CI timeout), the same way
${RUN_ENVIRONMENT_HELP}`)
    .action(async (o: RunOptions) => {
      const parsedGates = parseGates(o.failUnder, o.gateConfig);
      if (o.explainSettings) {
        process.stdout.write(explainSettings(resolveCliSettings(o, true), !!o.json, o));
        return;
      }
      const shard = o.shard === undefined ? undefined : parseShardSpec(o.shard);
      if (shard && (parsedGates.length || o.generate || o.biasStudy || o.injectionStudy)) {
        throw new SpanproofError('bad-input', 'a shard holds only part of the run: --fail-under, --generate, --bias-study and --injection-study apply to the whole run.', { field: '--shard', fix: 'run the shards without them, then `spanproof merge --out DIR SHARD...` (with --fail-under there).' });
      }
      const cli = resolveCliSettings(o);
      const settings = cli.settings;
      const gates = resolveGates(parsedGates, settings, o.gateConfig);
      validateGenerateOptions(settings, o); // --generate (SPEC §14): fail before the grid runs
      const sent = endpointModels(settings, gridModelNeeds(settings)); // endpoint models (SPEC §5.3): fail before the grid runs without an endpoint
      if (sent.length) assertHttpUrl(settings.modelEndpoint.url, o.endpoint ? '--endpoint' : 'modelEndpoint.url');
      if (sent.length && !o.json) process.stderr.write(terminalSafe(`Sending chunk and question texts to ${redactUrl(settings.modelEndpoint.url)} (${sent.join(', ')}); cached on disk, so an identical re-run sends none.\n`));
      const workspace = path.resolve(o.workspace);
      checkWorkspace(workspace);
      const perKind = parseCanariesPerKind(o);
      const attacks = parseAttacks(o); // --attack (issue #17): fail before the grid runs
      // Output folders before the grid starts: a file or an unwritable folder is bad input (exit 2), and an earlier run is never reused.
      if (o.out) assertNewOutDir(path.resolve(o.out));
      if (o.runsDir) resolveRunsRoot(workspace, path.resolve(o.runsDir));
      if (o.cacheDir) resolveCacheDir(workspace, path.resolve(o.cacheDir));
      const groundTruthFile = groundTruthFileOf(workspace, o.groundtruth, cli);
      checkRunThreads(o.profile); // SPANPROOF_GRID_THREADS: exit 2 before any work, with --profile too
      const client = new InProcessGridClient({ onLog: (level, msg) => { if (!o.json) process.stderr.write(`${level}: ${msg}\n`); } });
      const ac = new AbortController();
      const onSigint = () => {
        if (!o.json && !ac.signal.aborted) process.stderr.write('\ncancelling…\n'); // said once: a second signal is absorbed (../cancel.ts)
        ac.abort();
      };
      const offSigint = onCancelSignal(onSigint); // Ctrl-C and SIGTERM alike (../cancel.ts)
      const bar = progressPrinter(!!o.json);
      let result: GridRunResult;
      try {
        result = await client.run(
          { workspace, groundTruthFile, settings, outDir: o.out ? path.resolve(o.out) : undefined, runsRoot: o.runsDir ? path.resolve(o.runsDir) : undefined, cacheDir: o.cacheDir ? path.resolve(o.cacheDir) : undefined, keepChunks: !!o.keepChunks || !!o.biasStudy, questionIds: o.question?.length ? o.question : undefined, requireScorable: true, shard, profile: !!o.profile, resident: false, ...(o.injectionStudy ? { injectionStudy: { canariesPerKind: perKind } } : {}), ...(sent.length ? { apiKey: process.env.SPANPROOF_API_KEY } : {}) },
          { signal: ac.signal, onProgress: (p) => bar.update(p.done, p.total, p.stage) },
        );
      } catch (e) {
        bar.end();
        const err = e as SpanproofError;
        if (err.code === 'cancelled') {
          process.stderr.write(`spanproof: run cancelled${err.runDir ? `; run directory ${err.runDir} (status cancelled)` : ''}.\n`);
          setExit(EXIT.cancelled);
          return;
        }
        throw e;
      } finally {
        offSigint();
        await client.dispose();
      }
      bar.end();
      if (sent.length && !o.json && result.runDir) process.stderr.write(modelsLedgerLine(result.runDir));
      if (o.biasStudy && result.runDir) runAndWriteBiasStudy(result.runDir, { quiet: !!o.json }); // chunk-ID bias study (src/cli/commands/bias.ts)
      // Generation and judges (SPEC §14, src/cli/judge.ts), only with --generate.
      let answersLines: string[] = [];
      let generationCancelled = false;
      if (o.generate && result.runDir) {
        const runDir = result.runDir;
        const gen = await runGenerateStep(runDir, { endpoint: judgeSettings(settings.judge, o).endpoint, workspace, groundTruthFile, freshRun: true }, { ...o, judgeCacheDir: o.judgeCacheDir ?? (o.cacheDir ? path.join(path.resolve(o.cacheDir), 'judge') : undefined) }, !!o.json);
        result = { ...result, results: { ...result.results, answers: gen.summary } as typeof result.results };
        answersLines = ['', ...generationText(gen)];
        generationCancelled = gen.status === 'cancelled';
        // Attack steps (issue #17 item 2): XPIA on the exposed items of the injection study, UPIA on every scored question.
        if (attacks.length && !generationCancelled) {
          const steps = await runAttackSteps(runDir, result.injection ? attacks : attacks.filter((k) => k !== 'xpia'), { judge: judgeSettings(settings.judge, o), workspace, groundTruthFile, o, quiet: !!o.json });
          answersLines.push(...steps.lines);
          generationCancelled = steps.cancelled; // Ctrl-C in an attack step: exit "cancelled" like a cancelled generation
        }
      }
      const acc = result.results.acceptance;
      // Warnings go to stderr with --json too (stdout stays JSON only): a thread that stopped, a
      // damaged cache that was rebuilt, a skipped file — they were dropped (fresh-user #13).
      for (const w of result.warnings) process.stderr.write(`warning: ${w}\n`);
      if (o.json) {
        process.stdout.write(`${stableStringify({ ...result.results, runDir: result.runDir, verdict: result.verdict, ...(result.injection ? { injection: { file: result.injection.file, metric: result.injection.study.metric, chunkers: result.injection.study.chunkers, configs: result.injection.study.configs } } : {}), ...(result.rankingFile.timedVerdict ? { timedVerdict: result.rankingFile.timedVerdict } : {}) }, 2)}\n`);
      } else {
        const out: string[] = [];
        out.push(`Acceptance: ${acc.resolved}/${acc.total} questions resolved${acc.total ? ` (${((100 * acc.resolved) / acc.total).toFixed(1)}%)` : ''}; stale ${acc.stale.length}, ambiguous ${acc.ambiguous.length}, rejected ${acc.rejected.length} (excluded, not scored).`);
        if (result.runDir) {
          out.push('', rankingTable(buildReportModel(readRun(result.runDir))));
          const rec = result.ranking.find((r) => r.recommended);
          if (rec) out.push('', `Recommended: ${rec.id} — ${rec.explanation}`);
          else if (!result.verdict.recommended) out.push('', result.verdict.summary);
          out.push(...answersLines);
          if (result.injection) out.push('', ...injectionSummaryMarkdown(result.injection.study), `Injection study written to ${result.injection.file} (the report shows every config).`);
          if (shard) out.push('', `This is shard ${shard.index}/${shard.count}: its numbers cover only its share of the work. Join the shards with: spanproof merge --out DIR SHARD_DIR...`);
          out.push('', `Run written to ${result.runDir}${result.location?.kind === 'user-cache' ? ` (${result.location.reason}; user cache directory)` : ''}.`);
          out.push(`Report: spanproof report ${JSON.stringify(result.runDir)} --format html --out report.html`);
        }
        process.stdout.write(out.join('\n') + '\n');
      }
      if (result.status === 'failed') {
        // Every item failed: nothing was measured, so no gate can pass or fail meaningfully.
        process.stderr.write(`spanproof: every question × config item of the run failed (run.json status failed); the errors are in results.json \`errors\`${result.runDir ? ` of ${result.runDir}` : ''}.\n`);
        setExit(3);
        return;
      }
      // Export after every run (settings mlflow.trackingUri, docs/mlflow.md); a failed export is reported, the run stands.
      if (settings.mlflow.trackingUri && result.runDir && !shard) {
        try {
          const x = await exportRunToMlflow(result.runDir, { trackingUri: settings.mlflow.trackingUri, experiment: settings.mlflow.experiment, token: process.env.MLFLOW_TRACKING_TOKEN || undefined });
          if (!o.json) process.stderr.write(`exported to MLflow: run ${x.runId} (${x.created ? 'created' : 'updated'})\n`);
        } catch (e) {
          process.stderr.write(`warning: MLflow export failed: ${(e as Error).message}\n`);
        }
      }
      const failed = applyGates(gates, result.results, result.verdict, o.gateConfig);
      setExit(generationCancelled ? EXIT.cancelled : failed ? 1 : 0);
    });
  // --generate and the judge flags (SPEC §14), defined with `spanproof generate` in src/cli/judge.ts.
  const runCmd = program.commands.find((c) => c.name() === 'run')!;
  runCmd.option('--generate', 'after the grid, generate answers for chosen configs and judge them (needs --endpoint, --generator-model, --judge-model)');
  addJudgeOptions(runCmd, true);
  addAttackOption(runCmd);
  addExternalRetrieverOptions(runCmd);
}
