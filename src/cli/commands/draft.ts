/**
 * `spanproof draft` (issue #14): drafts questions with verbatim-verified evidence from the user's
 * documents through an OpenAI-compatible endpoint (opt-in; the same client as the judges — key from
 * SPANPROOF_API_KEY, concurrency, retries, reply cache, ledger, cost) and appends them to the ground
 * truth as `"status": "draft"` — never scored until `spanproof review --accept`.
 * Exit codes: 0 done (also when nothing verified: see the report); 2 bad input, or the endpoint cannot
 * be reached / refuses the key or the model (nothing written); 3 internal error; 130 cancelled with
 * Ctrl-C (written only with --keep-partial).
 */
import * as path from 'node:path';
import type { Command } from 'commander';
import { draftIntoGroundTruth, draftJson, draftText, DRAFT_DEFAULTS, type DraftSessionResult } from '../../core/draft';
import { SpanproofError } from '../../core/errors';
import { ChatClient, ReplyCache } from '../../core/judge';
import { resolveCacheDir } from '../../core/runs';
import { DEFAULT_SETTINGS, MAX_CONCURRENCY, MAX_DRAFT_COUNT } from '../../core/settings';
import { wholeFlag } from '../flags';
import { readPrices } from '../judge';
import type { SetExit } from './index';
import { groundTruthFileOf, resolveCliSettings } from './run';
import { EXIT } from '../exit';
import { onCancelSignal } from '../cancel';

interface DraftOptions {
  workspace: string;
  groundtruth?: string;
  config?: string;
  endpoint?: string;
  model?: string;
  count?: string;
  sources: string[];
  perDocument?: string;
  multiEvidence?: boolean;
  seed?: string;
  concurrency?: string;
  prices?: string;
  cacheDir?: string;
  cache?: boolean;
  json?: boolean;
  keepPartial?: boolean;
}

const collect = (v: string, prev: string[]) => [...prev, v];


export function register(program: Command, setExit: SetExit): void {
  program
    .command('draft')
    .description('Draft questions whose evidence quotes are verified verbatim in your documents (opt-in; sends passages to --endpoint only). Drafts are not scored until accepted with `spanproof review`.')
    .option('--workspace <dir>', 'corpus root', '.')
    .option('--groundtruth <file>', 'ground-truth file to append the drafts to (default <workspace>/.spanproof/groundtruth.json; created when missing)')
    .option('--config <file>', 'run settings JSON: include, exclude, maxFileBytes, minQuoteLength, maxQuoteLength, groundTruthPath and judge.* (endpoint, concurrency, timeoutMs, retries, requestsPerMinute) apply')
    .option('--endpoint <url>', 'OpenAI-compatible base URL, e.g. http://localhost:11434/v1 (Ollama); default judge.endpoint of --config; key from SPANPROOF_API_KEY')
    .option('--model <name>', 'model that drafts the questions (default draft.model, else judge.generatorModel, of --config)')
    .option('--count <n>', `questions wanted (default draft.count, ${DEFAULT_SETTINGS.draft.count})`)
    .option('--sources <glob>', 'draft only on documents matching this glob, relative to the workspace (repeatable)', collect, [])
    .option('--per-document <n>', 'at most n questions from one document (default: spread evenly, round-robin)')
    .option('--multi-evidence', 'ask for questions whose answer needs two or more separate quotes')
    .option('--seed <n>', `seed of the passage sampling (default ${DRAFT_DEFAULTS.seed})`)
    .option('--concurrency <n>', 'requests in flight at most (default judge.concurrency, 4)')
    .option('--prices <file>', 'JSON price table {"model": {"input": per1M, "output": per1M}} for the ledger cost')
    .option('--cache-dir <dir>', 'reply cache folder (default <workspace>/.spanproof/cache/judge)')
    .option('--no-cache', 'do not read or write the reply cache')
    .option('--json', 'print only the report as JSON on stdout')
    .option('--keep-partial', 'on Ctrl-C, write the drafts verified so far (default: write nothing)')
    .addHelpText('after', `
Every quote is checked against the document with the ground-truth resolver: kept only when it occurs
exactly (whitespace or typographic-quote variants are re-anchored to the document's text and marked
"reanchored"), at least minQuoteLength (12) and at most maxQuoteLength characters; the rest are
rejected with the reason and the nearest match. Near-duplicate questions are dropped. Hand-written
questions are never changed; the file is written atomically after a backup (<file>.bak, or .bak.1, … — never overwritten).

Exit codes: 0 done; 2 bad input or the endpoint unreachable / refusing (nothing written);
3 internal error; ${EXIT.cancelled} cancelled with Ctrl-C (nothing written unless --keep-partial).`)
    .action(async (o: DraftOptions) => {
      const cli = resolveCliSettings({ workspace: o.workspace, config: o.config, failUnder: [] });
      const settings = cli.settings;
      const groundTruthFile = groundTruthFileOf(o.workspace, o.groundtruth, cli); // before any request
      const endpoint = o.endpoint ?? settings.judge.endpoint;
      if (!endpoint) throw new SpanproofError('bad-input', 'drafting needs an endpoint.', { field: '--endpoint', fix: 'pass --endpoint URL, e.g. http://localhost:11434/v1 for Ollama.' });
      const model = o.model ?? (settings.draft.model || settings.judge.generatorModel);
      if (!model) throw new SpanproofError('bad-input', 'drafting needs a model.', { field: '--model', fix: 'name the model that drafts, e.g. --model llama3.1:8b (or draft.model in --config).' });
      const workspace = path.resolve(o.workspace);
      const client = new ChatClient({
        endpoint, apiKey: process.env.SPANPROOF_API_KEY,
        concurrency: (o.concurrency === undefined ? undefined : wholeFlag('--concurrency', o.concurrency, 1, MAX_CONCURRENCY, 4)) ?? settings.judge.concurrency,
        requestsPerMinute: settings.judge.requestsPerMinute, timeoutMs: settings.judge.timeoutMs, retries: settings.judge.retries,
        prices: readPrices(o.prices),
        cache: o.cache === false ? undefined : new ReplyCache(o.cacheDir ? path.resolve(o.cacheDir) : path.join(resolveCacheDir(workspace), 'judge')),
      });
      const ac = new AbortController();
      const onSigint = () => {
        if (ac.signal.aborted) return; // a second signal while cancelling: said once (../cancel.ts absorbs it)
        if (!o.json) process.stderr.write(`\ncancelling drafting…${o.keepPartial ? ' (the drafts verified so far will be written)' : ' (nothing will be written; --keep-partial keeps what verified)'}\n`);
        ac.abort();
      };
      const offSigint = onCancelSignal(onSigint); // Ctrl-C and SIGTERM alike (../cancel.ts)
      let r: DraftSessionResult;
      try {
        r = await draftIntoGroundTruth({
          workspace, groundTruthFile, settings, client, model,
          count: (o.count === undefined ? undefined : wholeFlag('--count', o.count, 1, MAX_DRAFT_COUNT, 20)) ?? settings.draft.count, sources: o.sources, perDocument: (o.perDocument === undefined ? undefined : wholeFlag('--per-document', o.perDocument, 1, MAX_DRAFT_COUNT, 2)),
          multiEvidence: !!o.multiEvidence, seed: (o.seed === undefined ? undefined : wholeFlag('--seed', o.seed, 0, Number.MAX_SAFE_INTEGER, 7)) ?? DRAFT_DEFAULTS.seed, keepPartial: !!o.keepPartial, signal: ac.signal,
          onProgress: o.json ? undefined : (done, total) => process.stderr.write(`progress ${done}/${total} passages\n`),
        });
      } finally {
        offSigint();
      }
      if (o.json) process.stdout.write(`${JSON.stringify(draftJson(r), null, 2)}\n`);
      else process.stdout.write(`${draftText(r, endpoint, model).join('\n')}\n`);
      setExit(r.status === 'cancelled' ? EXIT.cancelled : 0);
    });
}
