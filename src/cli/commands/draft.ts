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
import { draftIntoGroundTruth, DRAFT_DEFAULTS, redactEndpoint, type DraftSessionResult } from '../../core/draft';
import { SpanproofError } from '../../core/errors';
import { ChatClient, ReplyCache } from '../../core/judge';
import { resolveCacheDir } from '../../core/runs';
import { ledgerLine, readPrices } from '../judge';
import type { SetExit } from './index';
import { settingsFromOptions } from './run';
import { EXIT } from '../exit';

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

function wholeNumber(v: string | undefined, flag: string, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new SpanproofError('bad-input', `${flag} must be a whole number ≥ ${min}, got "${v}".`, { field: flag, fix: `e.g. ${flag} ${Math.max(min, 2)}` });
  return n;
}

export function register(program: Command, setExit: SetExit): void {
  program
    .command('draft')
    .description('Draft questions whose evidence quotes are verified verbatim in your documents (opt-in; sends passages to --endpoint only). Drafts are not scored until accepted with `spanproof review`.')
    .option('--workspace <dir>', 'corpus root', '.')
    .option('--groundtruth <file>', 'ground-truth file to append the drafts to (default <workspace>/.spanproof/groundtruth.json; created when missing)')
    .option('--config <file>', 'run settings JSON: include, exclude, maxFileBytes, minQuoteLength, maxQuoteLength, groundTruthPath and judge.* (endpoint, concurrency, timeoutMs, retries, requestsPerMinute) apply')
    .option('--endpoint <url>', 'OpenAI-compatible base URL, e.g. http://localhost:11434/v1 (Ollama); default judge.endpoint of --config; key from SPANPROOF_API_KEY')
    .option('--model <name>', 'model that drafts the questions')
    .option('--count <n>', `questions wanted (default ${DRAFT_DEFAULTS.count})`)
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
questions are never changed; the file is written atomically after a copy to <file>.bak.

Exit codes: 0 done; 2 bad input or the endpoint unreachable / refusing (nothing written);
3 internal error; ${EXIT.cancelled} cancelled with Ctrl-C (nothing written unless --keep-partial).`)
    .action(async (o: DraftOptions) => {
      const settings = settingsFromOptions({ workspace: o.workspace, config: o.config, failUnder: [] });
      const endpoint = o.endpoint ?? settings.judge.endpoint;
      if (!endpoint) throw new SpanproofError('bad-input', 'drafting needs an endpoint.', { field: '--endpoint', fix: 'pass --endpoint URL, e.g. http://localhost:11434/v1 for Ollama.' });
      if (!o.model) throw new SpanproofError('bad-input', 'drafting needs a model.', { field: '--model', fix: 'name the model that drafts, e.g. --model llama3.1:8b.' });
      const workspace = path.resolve(o.workspace);
      const client = new ChatClient({
        endpoint, apiKey: process.env.SPANPROOF_API_KEY,
        concurrency: wholeNumber(o.concurrency, '--concurrency', 1) ?? settings.judge.concurrency,
        requestsPerMinute: settings.judge.requestsPerMinute, timeoutMs: settings.judge.timeoutMs, retries: settings.judge.retries,
        prices: readPrices(o.prices),
        cache: o.cache === false ? undefined : new ReplyCache(o.cacheDir ? path.resolve(o.cacheDir) : path.join(resolveCacheDir(workspace), 'judge')),
      });
      const ac = new AbortController();
      const onSigint = () => {
        if (!o.json) process.stderr.write(`\ncancelling drafting…${o.keepPartial ? ' (the drafts verified so far will be written)' : ' (nothing will be written; --keep-partial keeps what verified)'}\n`);
        ac.abort();
      };
      process.on('SIGINT', onSigint);
      let r: DraftSessionResult;
      try {
        r = await draftIntoGroundTruth({
          workspace, groundTruthFile: path.resolve(o.groundtruth ?? path.join(workspace, settings.groundTruthPath)), settings, client, model: o.model,
          count: wholeNumber(o.count, '--count', 1) ?? DRAFT_DEFAULTS.count, sources: o.sources, perDocument: wholeNumber(o.perDocument, '--per-document', 1),
          multiEvidence: !!o.multiEvidence, seed: wholeNumber(o.seed, '--seed', 0) ?? DRAFT_DEFAULTS.seed, keepPartial: !!o.keepPartial, signal: ac.signal,
          onProgress: o.json ? undefined : (done, total) => process.stderr.write(`progress ${done}/${total} passages\n`),
        });
      } finally {
        process.off('SIGINT', onSigint);
      }
      if (o.json) process.stdout.write(`${JSON.stringify(draftJson(r), null, 2)}\n`);
      else process.stdout.write(`${draftText(r, endpoint, o.model).join('\n')}\n`);
      setExit(r.status === 'cancelled' ? EXIT.cancelled : 0);
    });
}

/** The `--json` report (issue #14 §7). */
export function draftJson(r: DraftSessionResult): Record<string, unknown> {
  return {
    requested: r.requested, kept: r.drafts.length, rejected: r.rejected, duplicates: r.duplicates.length, leakage: r.leakage, coverage: r.coverage, ledger: r.ledger,
    status: r.status, passages: r.passages, reanchored: r.reanchored, answers: r.answers, drafts: r.perDraft, duplicateList: r.duplicates,
    groundTruthFile: r.groundTruthFile, written: r.written, ...(r.backup ? { backup: r.backup } : {}),
  };
}

const excerpt = (s: string, max = 70): string => {
  const flat = s.replace(/\r\n|\r|\n/g, '⏎');
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
};
const list = (xs: string[], max = 8): string => `${xs.slice(0, max).join(', ')}${xs.length > max ? ` (+${xs.length - max} more)` : ''}`;

/** The human-readable report. */
export function draftText(r: DraftSessionResult, endpoint: string, model: string): string[] {
  const out = [`Drafted ${r.drafts.length} of ${r.requested} requested question(s) from ${r.passages} passage(s) with ${model} at ${redactEndpoint(endpoint)}${r.status === 'cancelled' ? ' (cancelled)' : ''}; ${r.reanchored} quote(s) re-anchored to the document's exact text after whitespace/quote normalisation (marked "reanchored").`];
  if (r.rejected.length) {
    out.push(`Rejected ${r.rejected.length}:`);
    for (const x of r.rejected.slice(0, 20)) out.push(`  ${x.source}: ${x.quote ? `${excerpt(x.quote)} — ` : ''}${x.reason}`);
    if (r.rejected.length > 20) out.push(`  … and ${r.rejected.length - 20} more (--json lists all)`);
  }
  if (r.duplicates.length) out.push(`Near-duplicates dropped: ${r.duplicates.length} (${r.duplicates.slice(0, 3).map((d) => `${excerpt(d.question, 50)} ≈ ${d.duplicateOf}`).join('; ')}${r.duplicates.length > 3 ? '; …' : ''}).`);
  const l = r.leakage;
  if (l.n) out.push(`Lexical leakage (share of question words found in the evidence): median ${l.median}, mean ${l.mean}, 90th percentile ${l.p90}; ${l.histogram.map((h) => `${h.from}–${h.to}: ${h.count}`).join(', ')}.`);
  if (l.warning) out.push(`warning: ${l.warning}`);
  const c = r.coverage;
  out.push(`Coverage: ${c.documents.covered}/${c.documents.total} document(s) and ${c.sections.covered}/${c.sections.total} section(s) have a question.${c.documents.uncovered.length ? ` No question in: ${list(c.documents.uncovered)}.` : ''}`);
  const uncoveredHeadings = c.sections.uncovered.filter((s) => s.heading).map((s) => `${s.source} "${s.heading}"`);
  if (uncoveredHeadings.length) out.push(`  Headings without a question: ${list(uncoveredHeadings, 6)}.`);
  if (r.answers.words.n) out.push(`Answers: ${r.answers.withAnswer} with an answer (median ${r.answers.words.median} words, ${r.answers.words.min}–${r.answers.words.max}), ${r.answers.without} without.`);
  out.push(ledgerLine(r.ledger));
  if (r.written) out.push(`Wrote ${r.drafts.length} draft(s) to ${r.groundTruthFile}${r.backup ? ` (previous version in ${r.backup})` : ''}. They are not scored until accepted: spanproof review --list, then --accept ID… or --accept-all.`);
  else if (r.status === 'cancelled' && r.drafts.length) out.push('Nothing written (cancelled; pass --keep-partial to keep what verified).');
  else out.push('Nothing written.');
  return out;
}
