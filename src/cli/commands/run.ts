/**
 * `spanproof run` (SPEC §11): the grid run in the worker thread. Progress bar on a TTY (stderr),
 * plain lines otherwise; `--json` prints only the results.json content plus `runDir` on stdout.
 * SIGINT cancels cleanly (run.json status `cancelled`). Exit codes: 0 ok; 1 a `--fail-under` gate
 * failed (or the run was cancelled); 2 bad input; 3 internal error.
 *
 * `--fail-under METRIC=VALUE` (repeatable) gates on the RECOMMENDED config's mean of METRIC (any key
 * of results.json `metrics`, e.g. `hit@5=0.8`), or `acceptance=0.9` on the resolved/total rate.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { SpanproofError } from '../../core/errors';
import { GridClient } from '../../core/grid/client';
import { parseRunSettings } from '../../core/grid/settings';
import { readRun, RESULT_METRICS, stableStringify } from '../../core/runs';
import { buildReportModel, rankingTable } from '../../core/report';
import { DEFAULT_SETTINGS, type RunSettings } from '../../shared/settings';
import type { GridRunResult } from '../../shared/protocol';
import type { SetExit } from './index';
import { writeBiasStudy } from './bias';
import { addJudgeOptions, generationText, runGenerateStep, validateGenerateOptions, type JudgeCliOptions } from '../judge';

interface RunOptions extends JudgeCliOptions {
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
  tau?: string;
  keepChunks?: boolean;
  biasStudy?: boolean;
  json?: boolean;
  failUnder: string[];
  question?: string[];
}

const collect = (v: string, prev: string[]) => [...prev, v];
const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);

/** Parses `METRIC=VALUE`; throws SpanproofError('bad-input') naming the flag. */
export function parseGate(spec: string): { metric: string; value: number } {
  const m = /^([^=]+)=(.+)$/.exec(spec);
  const value = m ? Number(m[2]) : NaN;
  const metric = m?.[1].trim() ?? '';
  if (!m || !Number.isFinite(value) || !(metric === 'acceptance' || (RESULT_METRICS as readonly string[]).includes(metric))) {
    throw new SpanproofError('bad-input', `--fail-under "${spec}" is not METRIC=VALUE.`, { field: '--fail-under', fix: `use one of ${['acceptance', ...RESULT_METRICS].join(', ')}, e.g. --fail-under hit@5=0.8.` });
  }
  return { metric, value };
}

/** Builds the run settings from --config and the flags (flags win). */
export function settingsFromOptions(o: RunOptions): RunSettings {
  let s: RunSettings = DEFAULT_SETTINGS;
  if (o.config) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(o.config, 'utf8'));
    } catch (e) {
      const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
      throw new SpanproofError(missing ? 'not-found' : 'bad-input', missing ? 'config file not found.' : `not valid JSON: ${(e as Error).message}`, { file: o.config, fix: missing ? 'check the --config path.' : 'fix the JSON syntax.' });
    }
    s = parseRunSettings(raw, o.config);
  }
  const over: Record<string, unknown> = {};
  if (o.chunkers) over.chunkers = list(o.chunkers);
  if (o.retrievers) over.retrievers = list(o.retrievers);
  if (o.rerank) {
    over.rerank = list(o.rerank).map((x) => {
      if (x === 'on') return true;
      if (x === 'off') return false;
      throw new SpanproofError('bad-input', `--rerank "${o.rerank}": each value must be on or off.`, { field: '--rerank', fix: 'use --rerank on,off, --rerank on or --rerank off.' });
    });
  }
  if (o.k !== undefined) over.k = Number(o.k);
  if (o.tau !== undefined) over.tau = Number(o.tau);
  // Validate the flags through the same schema, naming the flag on error.
  try {
    const merged = parseRunSettings({ ...over }, 'command line');
    return { ...s, ...Object.fromEntries(Object.keys(over).map((k) => [k, (merged as unknown as Record<string, unknown>)[k]])) } as RunSettings;
  } catch (e) {
    const err = e as SpanproofError;
    throw new SpanproofError('bad-input', `invalid option: ${err.message.replace(/^command line: /, '')}`, { field: `--${err.field ?? ''}`, fix: err.fix });
  }
}

function progressPrinter(json: boolean): { update(done: number, total: number, stage: string): void; end(): void } {
  const tty = process.stderr.isTTY && !json;
  let lastLine = 0;
  let lastStage = '';
  return {
    update(done, total, stage) {
      if (tty) {
        const w = 30;
        const f = total > 0 ? Math.min(1, done / total) : 0;
        process.stderr.write(`\r[${'#'.repeat(Math.round(f * w)).padEnd(w, '.')}] ${String(Math.round(f * 100)).padStart(3)}% ${done}/${total} ${stage.padEnd(24).slice(0, 24)}`);
      } else if (!json && (stage !== lastStage || Date.now() - lastLine > 2000)) {
        lastLine = Date.now();
        lastStage = stage;
        process.stderr.write(`progress ${done}/${total} ${stage}\n`);
      }
    },
    end() {
      if (tty) process.stderr.write('\n');
    },
  };
}

export function register(program: Command, setExit: SetExit): void {
  program
    .command('run')
    .description('Run the grid of chunker × retriever × reranker configs and write a run directory.')
    .option('--workspace <dir>', 'corpus root', '.')
    .option('--groundtruth <file>', `ground-truth file (default <workspace>/${DEFAULT_SETTINGS.groundTruthPath})`)
    .option('--config <file>', 'JSON file with run settings (same keys as the VS Code settings)')
    .option('--out <dir>', 'run directory (default <workspace>/.spanproof/runs/<UTC timestamp>-<hash>)')
    .option('--runs-dir <dir>', 'parent folder of run directories (default <workspace>/.spanproof/runs)')
    .option('--cache-dir <dir>', 'index/embedding cache folder (default <workspace>/.spanproof/cache)')
    .option('--chunkers <list>', 'comma-separated chunkers (fixed,recursive,sentence,heading,semantic)')
    .option('--retrievers <list>', 'comma-separated retrievers (bm25,dense,hybrid)')
    .option('--rerank <list>', 'on,off | on | off')
    .option('--k <n>', 'result-list size')
    .option('--tau <x>', 'coverage threshold for a hit, in (0, 1]')
    .option('--keep-chunks', 'write chunks/<chunker>.jsonl into the run directory')
    .option('--bias-study', 'also run the chunk-ID bias study (SPEC §7.5; implies --keep-chunks) and write bias.json (see spanproof bias)')
    .option('--question <id>', 'score only this question (repeatable)', collect, [])
    .option('--json', 'print only JSON (results.json content plus runDir) on stdout')
    .option('--fail-under <metric=value>', 'exit 1 when the recommended config scores below (repeatable)', collect, [])
    .action(async (o: RunOptions) => {
      const gates = o.failUnder.map(parseGate);
      const settings = settingsFromOptions(o);
      validateGenerateOptions(settings, o); // --generate (SPEC §14): fail before the grid runs
      const workspace = path.resolve(o.workspace);
      const groundTruthFile = path.resolve(o.groundtruth ?? path.join(workspace, settings.groundTruthPath));
      const client = new GridClient({ onLog: (level, msg) => { if (!o.json) process.stderr.write(`${level}: ${msg}\n`); } });
      const ac = new AbortController();
      const onSigint = () => {
        if (!o.json) process.stderr.write('\ncancelling…\n');
        ac.abort();
      };
      process.on('SIGINT', onSigint);
      const bar = progressPrinter(!!o.json);
      let result: GridRunResult;
      try {
        result = await client.run(
          { workspace, groundTruthFile, settings, outDir: o.out ? path.resolve(o.out) : undefined, runsRoot: o.runsDir ? path.resolve(o.runsDir) : undefined, cacheDir: o.cacheDir ? path.resolve(o.cacheDir) : undefined, keepChunks: !!o.keepChunks || !!o.biasStudy, questionIds: o.question?.length ? o.question : undefined },
          { signal: ac.signal, onProgress: (p) => bar.update(p.done, p.total, p.stage) },
        );
      } catch (e) {
        bar.end();
        const err = e as SpanproofError;
        if (err.code === 'cancelled') {
          process.stderr.write(`spanproof: run cancelled${err.file ? `; run directory ${err.file} (status cancelled)` : ''}.\n`);
          setExit(1);
          return;
        }
        throw e;
      } finally {
        process.off('SIGINT', onSigint);
        await client.dispose();
      }
      bar.end();
      if (o.biasStudy && result.runDir) writeBiasStudy(result.runDir, { quiet: !!o.json }); // chunk-ID bias study (src/cli/commands/bias.ts)
      // Generation and judges (SPEC §14, src/cli/judge.ts), only with --generate.
      let answersLines: string[] = [];
      let generationCancelled = false;
      if (o.generate && result.runDir) {
        const gen = await runGenerateStep(result.runDir, { ...o, judgeCacheDir: o.judgeCacheDir ?? (o.cacheDir ? path.join(path.resolve(o.cacheDir), 'judge') : undefined) }, !!o.json);
        result = { ...result, results: { ...result.results, answers: gen.summary } as typeof result.results };
        answersLines = ['', ...generationText(gen)];
        generationCancelled = gen.status === 'cancelled';
      }
      const acc = result.results.acceptance;
      if (o.json) {
        process.stdout.write(`${stableStringify({ ...result.results, runDir: result.runDir }, 2)}\n`);
      } else {
        for (const w of result.warnings) process.stderr.write(`warning: ${w}\n`);
        if (result.results.questions === 0) process.stderr.write(`warning: no question could be scored (${acc.resolved} of ${acc.total} resolved); run \`spanproof validate\` to see why and fix the ground truth.\n`);
        const out: string[] = [];
        out.push(`Acceptance: ${acc.resolved}/${acc.total} questions resolved${acc.total ? ` (${((100 * acc.resolved) / acc.total).toFixed(1)}%)` : ''}; stale ${acc.stale.length}, ambiguous ${acc.ambiguous.length}, rejected ${acc.rejected.length} (excluded, not scored).`);
        if (result.runDir) {
          out.push('', rankingTable(buildReportModel(readRun(result.runDir))));
          const rec = result.ranking.find((r) => r.recommended);
          if (rec) out.push('', `Recommended: ${rec.id} — ${rec.explanation}`);
          out.push(...answersLines);
          out.push('', `Run written to ${result.runDir}${result.location?.kind === 'user-cache' ? ` (${result.location.reason}; user cache directory)` : ''}.`);
          out.push(`Report: spanproof report ${JSON.stringify(result.runDir)} --format html --out report.html`);
        }
        process.stdout.write(out.join('\n') + '\n');
      }
      // Gates.
      const rec = result.ranking.find((r) => r.recommended);
      const recCfg = result.results.configs.find((c) => c.id === rec?.id);
      let failed = false;
      for (const g of gates) {
        const v = g.metric === 'acceptance' ? (acc.total ? acc.resolved / acc.total : 1) : recCfg?.metrics[g.metric as keyof typeof recCfg.metrics]?.mean ?? NaN;
        if (!(v >= g.value)) {
          failed = true;
          process.stderr.write(`gate failed: ${g.metric} = ${Number.isFinite(v) ? v.toFixed(4) : 'n/a'}${g.metric === 'acceptance' ? '' : ` (${rec?.id ?? 'no config'})`} < ${g.value}\n`);
        }
      }
      setExit(failed || generationCancelled ? 1 : 0);
    });
  // --generate and the judge flags (SPEC §14), defined with `spanproof generate` in src/cli/judge.ts.
  const runCmd = program.commands.find((c) => c.name() === 'run')!;
  runCmd.option('--generate', 'after the grid, generate answers for chosen configs and judge them (needs --endpoint, --generator-model, --judge-model)');
  addJudgeOptions(runCmd, true);
}
