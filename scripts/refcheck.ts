/**
 * Reference-case checker (issue 6, SPEC §7.2/§7.3): runs files in the formats of
 * `../shared/reference/metrics/retrieval_cases.json` and `generation_cases.json` through
 * Spanproof's metric API and compares with each case's `expected` within its tolerance.
 *
 *   npm run -s refcheck -- FILE...        (no FILE: the copies in test/fixtures/metrics/)
 *   npm run -s refcheck -- --verbose FILE (also lists passing cases)
 *
 * Prints failures and unsupported cases (with the reason), then ONE line
 * `reference cases: N passed, N failed, N unsupported`; exits 1 if any supported case failed,
 * 2 if a file cannot be read.
 * `qrels_file` / `run_file` paths are resolved relative to the case file.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  evaluateRun, normalizeMeasure, parseTrecQrels, parseTrecRun, qrelsFromObject, runFromObject,
  type EvaluateRunResult, type TrecQrels, type TrecRun,
} from '../src/core/metrics/trec';
import { expectsError, Unsupported, withinTolerance, type CaseResult, type CaseStatus, type Json } from './refcheck-common';
import { runGenerationCase } from './refcheck-generation';

export { withinTolerance, type CaseResult, type CaseStatus } from './refcheck-common';
export { caseScale, sentenceAggregation } from './refcheck-generation';

export interface RefcheckSummary {
  passed: number;
  failed: number;
  unsupported: number;
  results: CaseResult[];
}

// ---------------------------------------------------------------------------------------------
// Retrieval

const TREC_4DP: Record<string, string> = {}; // trec_eval name → canonical, filled lazily via normalizeMeasure

function canonical(key: string): string {
  if (TREC_4DP[key]) return TREC_4DP[key];
  const names = normalizeMeasure(key);
  if (names.length !== 1) throw new Unsupported(`measure "${key}" names several measures`);
  return (TREC_4DP[key] = names[0]);
}

function argValue(args: readonly string[] | undefined, flag: string): string | undefined {
  if (!args) return undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === flag) return args[i + 1];
    if (args[i].startsWith(flag) && args[i].length > flag.length) return args[i].slice(flag.length);
  }
  return undefined;
}

function runRetrievalCase(c: Json, file: string): CaseResult {
  const res: CaseResult = { file, id: String(c.id), kind: 'retrieval', status: 'passed', messages: [] };
  const base = dirname(file);
  const args: string[] | undefined = Array.isArray(c.trec_eval_args) ? c.trec_eval_args : undefined;
  const relevanceLevel = Number(c.relevance_level ?? argValue(args, '-l') ?? 1);
  const completeQueries = Boolean(c.average_over_all_qrels_queries ?? args?.includes('-c') ?? false);
  const tolerance = typeof c.tolerance === 'number' ? c.tolerance : 1e-12;
  let qrels: TrecQrels;
  let run: TrecRun;
  const load = (): void => {
    qrels = c.qrels_file ? parseTrecQrels(readFileSync(resolve(base, c.qrels_file), 'utf8'), c.qrels_file) : qrelsFromObject(c.qrels);
    run = c.run_file ? parseTrecRun(readFileSync(resolve(base, c.run_file), 'utf8'), c.run_file) : runFromObject(c.run);
  };
  if (expectsError(c)) {
    try {
      load();
      evaluateRun(qrels!, run!, { relevanceLevel, completeQueries, missingRunQueries: 'error', measures: ['num_ret'] });
      res.status = 'failed';
      res.messages.push('expected an error (as trec_eval), but evaluation succeeded');
    } catch (e) {
      res.messages.push(`error as expected: ${(e as Error).message}`);
    }
    return res;
  }
  load();
  const expected: Record<string, Record<string, number>> = c.expected ?? {};
  const measureSet = new Set<string>();
  const check = (label: string, result: EvaluateRunResult, exp: Record<string, Record<string, number>>, tol: number): void => {
    for (const [qid, row] of Object.entries(exp)) {
      if (qid === 'note') continue;
      const isMean = qid === 'mean' || qid === 'all';
      const got = isMean ? result.mean : result.perQuery.get(qid);
      if (!got) {
        res.messages.push(`${label}${qid}: query not evaluated by Spanproof (expected values for it)`);
        continue;
      }
      for (const [key, value] of Object.entries(row)) {
        if (key === 'runid') continue;
        const m = canonical(key);
        const a = got[m];
        if (a === undefined || !withinTolerance(a, Number(value), tol)) res.messages.push(`${label}${qid} ${key}: expected ${value}, got ${a} (tolerance ${tol})`);
      }
    }
  };
  const collect = (exp: Record<string, Record<string, number>> | undefined): void => {
    for (const [qid, row] of Object.entries(exp ?? {})) {
      if (qid === 'note' || typeof row !== 'object') continue;
      for (const key of Object.keys(row)) if (key !== 'runid') measureSet.add(canonical(key));
    }
  };
  try {
    collect(expected);
    const off = c.trec_eval_official_4dp_output;
    const offExp = off ? { ...(off.per_query ?? {}), ...(off.all ? { mean: off.all } : {}) } : undefined;
    collect(offExp);
    const measures = [...measureSet];
    const result = evaluateRun(qrels!, run!, { measures, relevanceLevel, completeQueries });
    check('', result, expected, tolerance);
    if (offExp) check('[trec_eval 4dp] ', result, offExp, 5e-5);
    const expo = c.expected_ndcg_exponential_gain;
    if (expo) {
      const expExp = { ...(expo.per_query ?? {}), ...(expo.mean ? { mean: expo.mean } : {}) };
      const ms = new Set<string>();
      for (const row of Object.values(expExp) as Record<string, number>[]) for (const k of Object.keys(row)) ms.add(canonical(k));
      const r2 = evaluateRun(qrels!, run!, { measures: [...ms], relevanceLevel, completeQueries, gain: 'exponential' });
      check('[gain 2^rel-1] ', r2, expExp, typeof expo.tolerance === 'number' ? expo.tolerance : tolerance);
    }
  } catch (e) {
    if (e instanceof Unsupported) return { ...res, status: 'unsupported', messages: [e.message] };
    if ((e as Error).name === 'SpanproofError' && /Unknown ID-based measure/.test((e as Error).message)) {
      return { ...res, status: 'unsupported', messages: [(e as Error).message.split(' Fix:')[0]] };
    }
    throw e;
  }
  if (res.messages.length) res.status = 'failed';
  return res;
}

// ---------------------------------------------------------------------------------------------

function isRetrievalCase(c: Json): boolean {
  return c && ('qrels' in c || 'qrels_file' in c || 'run' in c || 'run_file' in c);
}

/** Runs every case of the given files. Throws only when a file cannot be read or parsed. */
export function runRefcheck(files: readonly string[]): RefcheckSummary {
  const results: CaseResult[] = [];
  for (const f of files) {
    const doc: Json = JSON.parse(readFileSync(f, 'utf8'));
    const cases: Json[] = Array.isArray(doc) ? doc : Array.isArray(doc.cases) ? doc.cases : [];
    for (const c of cases) {
      try {
        results.push(isRetrievalCase(c) ? runRetrievalCase(c, f) : runGenerationCase(c, f));
      } catch (e) {
        results.push({ file: f, id: String(c?.id), kind: isRetrievalCase(c) ? 'retrieval' : 'generation', status: 'failed', messages: [`threw: ${(e as Error).message}`] });
      }
    }
  }
  const count = (s: CaseStatus): number => results.filter((r) => r.status === s).length;
  return { passed: count('passed'), failed: count('failed'), unsupported: count('unsupported'), results };
}

/** The one summary line required by issue 6. */
export function summaryLine(s: RefcheckSummary): string {
  return `reference cases: ${s.passed} passed, ${s.failed} failed, ${s.unsupported} unsupported`;
}

export const DEFAULT_FIXTURES = ['retrieval_cases.json', 'generation_cases.json', 'extra_retrieval_cases.json', 'extra_generation_cases.json'].map((f) => join(__dirname, '..', 'test', 'fixtures', 'metrics', f));

function main(argv: string[]): number {
  const verbose = argv.includes('--verbose') || argv.includes('-v');
  const files = argv.filter((a) => !a.startsWith('-'));
  let summary: RefcheckSummary;
  try {
    summary = runRefcheck(files.length ? files : DEFAULT_FIXTURES);
  } catch (e) {
    process.stderr.write(`refcheck: ${(e as Error).message}\n`);
    return 2;
  }
  for (const r of summary.results) {
    if (r.status === 'failed') process.stdout.write(`FAIL ${r.kind} ${r.id} (${r.file})\n${r.messages.map((m) => `  ${m}\n`).join('')}`);
    else if (r.status === 'unsupported') process.stdout.write(`UNSUPPORTED ${r.kind} ${r.id}: ${r.messages.join('; ')}\n`);
    else if (verbose) process.stdout.write(`ok ${r.kind} ${r.id}${r.messages.length ? ` — ${r.messages.join('; ')}` : ''}\n`);
  }
  process.stdout.write(`${summaryLine(summary)}\n`);
  return summary.failed > 0 ? 1 : 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
