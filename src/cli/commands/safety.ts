/**
 * `spanproof safety <dataset | run dir> --endpoint URL --judge-model M [--threshold medium]
 * [--categories list] [--json] [--out FILE]` (issue #17 item 3, docs/safety.md): content-harm defect
 * rates — hateful and unfair, sexual, violent, self-harm (0–7 severity, defect at or above the
 * threshold level) and protected material (true/false) — graded by a judge model.
 *
 * Input: an Azure AI evaluation JSONL file (query/response/context lines and conversations
 * `{messages: [...]}`, read by src/core/score `readAzureJsonl`), or a run directory with generated
 * answers (answers.jsonl from `run --generate` / `spanproof generate`; the judge must differ from the
 * generator unless --allow-same-model; the result is also written to `<run>/safety.json`). Nothing is
 * sent unless --endpoint is given; the key comes from SPANPROOF_API_KEY. Exit: 0 done; 2 bad input,
 * also every request failed or no judge reply could be read (nothing measured); 3 internal error; 130 cancelled.
 */
import { setMaxListeners } from 'node:events';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { SpanproofError } from '../../core/errors';
import { writeFileAtomic } from '../../core/files';
import { checkOutputFile, outputPathError } from '../../core/fsErrors';
import { ChatClient, ReplyCache } from '../../core/judge';
import { resolveCacheDir } from '../../core/runs';
import { safetyMarkdown } from '../../core/report';
import { SAFETY_CATEGORIES, SAFETY_NOTE, parseThreshold, readSafetyInput, scoreSafetyInput, DEFAULT_THRESHOLD, type SafetyCategory } from '../../core/safety';
import { sendingLine, readPrices } from '../judge';
import { EXIT } from '../exit';
import type { SetExit } from './index';
import { onCancelSignal } from '../cancel';
import { wholeFlag } from '../flags';
import { MAX_CONCURRENCY } from '../../core/settings';

interface SafetyCliOptions {
  endpoint?: string;
  judgeModel?: string;
  threshold?: string;
  categories?: string;
  json?: boolean;
  out?: string;
  force?: boolean;
  workspace?: string;
  judgeConcurrency?: string;
  judgeCacheDir?: string;
  judgeCache?: boolean;
  judgePrices?: string;
  allowSameModel?: boolean;
}

function categoriesOption(v: string | undefined): SafetyCategory[] {
  if (!v) return [...SAFETY_CATEGORIES];
  const xs = v.split(',').map((x) => x.trim()).filter(Boolean);
  for (const x of xs) if (!(SAFETY_CATEGORIES as readonly string[]).includes(x)) throw new SpanproofError('bad-input', `unknown safety category "${x}".`, { field: '--categories', fix: `use some of ${SAFETY_CATEGORIES.join(', ')}.` });
  return xs as SafetyCategory[];
}

export function register(program: Command, setExit: SetExit): void {
  program
    .command('safety')
    .description('Content-harm defect rates (hateful/unfair, sexual, violent, self-harm, protected material) graded by a judge model, on an Azure AI evaluation JSONL file or a run\'s generated answers.')
    .argument('<dataset>', 'Azure AI evaluation JSONL (query/response/context or {messages: [...]}), or a run directory with answers.jsonl')
    .option('--endpoint <url>', 'OpenAI-compatible base URL of the judge; key from SPANPROOF_API_KEY')
    .option('--judge-model <name>', 'model that grades the responses')
    .option('--threshold <level>', `defect at or above this severity level: very_low, low, medium, high (default ${DEFAULT_THRESHOLD})`)
    .option('--categories <list>', `categories to grade (default all: ${SAFETY_CATEGORIES.join(',')})`)
    .option('--json', 'print the report as JSON')
    .option('--out <file>', 'also write the JSON report to this file (never over an existing file without --force)')
    .option('--force', 'with --out: replace an existing file')
    .option('--workspace <dir>', 'workspace whose .spanproof/cache/judge caches replies (default .)', '.')
    .option('--judge-concurrency <n>', 'requests in flight at most (default 4)')
    .option('--judge-prices <file>', 'JSON price table for the ledger cost')
    .option('--judge-cache-dir <dir>', 'reply cache folder (default <workspace>/.spanproof/cache/judge)')
    .option('--no-judge-cache', 'do not read or write the reply cache')
    .option('--allow-same-model', 'let the generator of a run\'s answers grade them (flagged in the report)')
    .action(async (dataset: string, o: SafetyCliOptions) => {
      if (!o.endpoint) throw new SpanproofError('bad-input', 'spanproof safety needs a judge endpoint; nothing is sent anywhere without one.', { field: '--endpoint', fix: 'pass --endpoint URL, e.g. http://localhost:11434/v1 for Ollama.' });
      if (!o.judgeModel) throw new SpanproofError('bad-input', '--endpoint needs --judge-model.', { field: '--judge-model', fix: 'name the model that grades, e.g. --judge-model llama3.1:8b.' });
      const out = o.out === undefined ? undefined : resolve(o.out);
      if (out) checkOutputFile(out, '--out', 'safety.json', o.force === true); // before anything is sent
      const threshold = o.threshold ? parseThreshold(o.threshold) : DEFAULT_THRESHOLD;
      const categories = categoriesOption(o.categories);
      const concurrency = o.judgeConcurrency === undefined ? 4 : wholeFlag('--judge-concurrency', o.judgeConcurrency, 1, MAX_CONCURRENCY, 4);
      const src = readSafetyInput(dataset, o.judgeModel, !!o.allowSameModel);
      process.stderr.write(`${sendingLine(o.endpoint, undefined, o.judgeModel).replace('questions, retrieved passages and answers', 'the queries, contexts and responses')}\n`);
      const client = new ChatClient({ endpoint: o.endpoint, apiKey: process.env.SPANPROOF_API_KEY, concurrency, prices: readPrices(o.judgePrices), cache: o.judgeCache === false ? undefined : new ReplyCache(o.judgeCacheDir ?? join(resolveCacheDir(resolve(o.workspace ?? '.')), 'judge')) });
      const ac = new AbortController();
      setMaxListeners(0, ac.signal); // one listener per request in flight or waiting for a slot (5 categories × concurrency)
      const onSigint = () => ac.abort();
      const offSigint = onCancelSignal(onSigint); // Ctrl-C and SIGTERM alike (../cancel.ts)
      let scored;
      try {
        scored = await scoreSafetyInput(src, { client, judgeModel: o.judgeModel, signal: ac.signal, categories, threshold });
      } catch (e) {
        if (e instanceof SpanproofError && e.code === 'cancelled') { process.stderr.write('spanproof: safety grading cancelled; nothing written.\n'); setExit(EXIT.cancelled); return; }
        throw e;
      } finally {
        offSigint();
      }
      const full = scored.report;
      if (scored.file) process.stderr.write(`Safety report written to ${scored.file}\n`);
      if (out) {
        try {
          writeFileAtomic(out, `${JSON.stringify(full, null, 2)}\n`);
        } catch (e) {
          throw outputPathError(e, out, '--out');
        }
      }
      process.stdout.write(o.json ? `${JSON.stringify(full, null, 2)}\n` : `${safetyMarkdown(full).join('\n')}\n`);
      if (!o.json) {
        // rejected input rows and skipped answers: the text output says so too (--json has them in `notes`)
        for (const n of full.notes) process.stderr.write(`note: ${n}\n`);
        process.stderr.write(`${SAFETY_NOTE}\n`);
      }
      setExit(EXIT.ok); // nothing measured at all is an error of scoreSafetyInput (exit 2)
    });
}
