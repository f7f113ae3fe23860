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
import {
  meteorScore, nltkBrevityPenalty, nltkClosestRefLength, nltkCorpusBleuMulti, nltkCorpusGleu, nltkModifiedPrecision,
  nltkSentenceGleu, rougeScore, rougeScoreMulti, sacreComputeBleu, sacreCorpusBleu, sacreSentenceBleu, squadCorpusScore, squadScore,
  type NltkSmoothingMethod, type SacreBleuOptions, type SacreSmoothing, type SacreTokenizer,
} from '../src/core/metrics/generation';

export type CaseStatus = 'passed' | 'failed' | 'unsupported';

export interface CaseResult {
  file: string;
  id: string;
  kind: 'retrieval' | 'generation';
  status: CaseStatus;
  /** Failed: the mismatches; unsupported: why; passed: optional notes (e.g. METEOR without WordNet). */
  messages: string[];
}

export interface RefcheckSummary {
  passed: number;
  failed: number;
  unsupported: number;
  results: CaseResult[];
}

/** `|actual − expected| ≤ tolerance` (plus 4 ulp of slack so a tolerance of 0 accepts the same double printed differently). */
export function withinTolerance(actual: number, expected: number, tolerance: number): boolean {
  if (Number.isNaN(actual)) return false;
  return Math.abs(actual - expected) <= tolerance + 4 * Number.EPSILON * Math.max(1, Math.abs(expected));
}

class Unsupported extends Error {}

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

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

/**
 * True when the case expects the reference tool to fail (e.g. a duplicate docno, trec_eval's exit 4):
 * a truthy `expected_error` / `raises` / `error` field, `expected.error`, or a non-zero `*exit_code*` field.
 */
function expectsError(c: Json): boolean {
  if (!c || typeof c !== 'object') return false;
  for (const [k, v] of Object.entries(c as Record<string, unknown>)) {
    if (/^(expected_error|expected_exception|raises|error)$/.test(k) && v) return true;
    if (/exit_(code|status)$/.test(k) && typeof v === 'number' && v !== 0) return true;
  }
  return Boolean(c.expected && typeof c.expected === 'object' && !Array.isArray(c.expected) && 'error' in c.expected);
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
// Generation

function parseSmoothing(s: unknown): { method: NltkSmoothingMethod; epsilon?: number; alpha?: number; k?: number } {
  if (s === undefined || s === null) return { method: 0 };
  const str = String(s);
  if (/^none$/i.test(str)) return { method: 0 };
  const m = /method\s*([0-7])/.exec(str);
  if (!m) throw new Unsupported(`NLTK smoothing "${str}" not understood`);
  const num = (name: string): number | undefined => {
    const r = new RegExp(`${name}\\s*=\\s*([0-9.eE+-]+)`).exec(str);
    return r ? Number(r[1]) : undefined;
  };
  return { method: Number(m[1]) as NltkSmoothingMethod, epsilon: num('epsilon'), alpha: num('alpha'), k: num('k') };
}

function sacreOptions(p: Json, sentence: boolean): SacreBleuOptions {
  const o: SacreBleuOptions = {};
  if (p.tokenize !== undefined) o.tokenize = p.tokenize as SacreTokenizer;
  if (p.smooth_method !== undefined) o.smoothMethod = p.smooth_method as SacreSmoothing;
  if (p.smooth_value !== undefined) o.smoothValue = p.smooth_value;
  if (p.lowercase !== undefined) o.lowercase = Boolean(p.lowercase);
  if (p.max_ngram_order !== undefined) o.maxNgramOrder = Number(p.max_ngram_order);
  if (p.use_effective_order !== undefined) o.effectiveOrder = Boolean(p.use_effective_order);
  else if (sentence) o.effectiveOrder = true;
  return o;
}

/** Compares a number or a (nested) object/array of numbers; returns mismatch messages. */
function compare(actual: unknown, expected: unknown, tol: number, path = ''): string[] {
  if (typeof expected === 'number') {
    return typeof actual === 'number' && withinTolerance(actual, expected, tol) ? [] : [`${path || 'value'}: expected ${expected}, got ${JSON.stringify(actual)} (tolerance ${tol})`];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return [`${path || 'value'}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
    return expected.flatMap((e, i) => compare(actual[i], e, tol, `${path}[${i}]`));
  }
  if (expected && typeof expected === 'object') {
    return Object.entries(expected as Record<string, unknown>).flatMap(([k, e]) => compare((actual as Record<string, unknown> | undefined)?.[k], e, tol, path ? `${path}.${k}` : k));
  }
  return [];
}

function generationActual(c: Json, notes: string[]): unknown {
  const p = c.params ?? {};
  const impl = String(p.impl ?? '');
  const hyp = c.hypothesis;
  const refs = c.references;
  const scale = (v: number): number => (p.scale === '0-1' && impl.startsWith('sacrebleu') ? v / 100 : v);
  switch (c.metric) {
    case 'bleu_modified_precision': {
      const ns: number[] = Array.isArray(p.n) ? p.n : [p.n];
      const vals = ns.map((n) => nltkModifiedPrecision(refs, hyp, n).value);
      return Array.isArray(p.n) ? vals : vals[0];
    }
    case 'bleu_brevity_penalty': {
      const refLens: number[] = p.ref_lens ?? refs.map((r: string[]) => r.length);
      const hypLen: number = p.hyp_len ?? hyp.length;
      return nltkBrevityPenalty(nltkClosestRefLength(refLens.map((n) => new Array<string>(n).fill('')), hypLen), hypLen);
    }
    case 'bleu_from_stats': {
      const r = sacreComputeBleu(p.correct, p.total, p.sys_len, p.ref_len, { smoothMethod: p.smooth_method ?? 'none', smoothValue: p.smooth_value, effectiveOrder: Boolean(p.use_effective_order), maxNgramOrder: p.max_ngram_order ?? p.correct.length });
      return scale(r.score);
    }
    case 'bleu': {
      if (impl.startsWith('nltk')) {
        if (p.tokenized === false) throw new Unsupported('NLTK BLEU on untokenised strings');
        const sm = parseSmoothing(p.smoothing);
        const weights: number[][] = Array.isArray(p.weights?.[0]) ? p.weights : [p.weights ?? [0.25, 0.25, 0.25, 0.25]];
        const opts = { smoothing: sm.method, epsilon: sm.epsilon, alpha: sm.alpha, k: sm.k, autoReweigh: Boolean(p.auto_reweigh) };
        const corpus = c.level === 'corpus';
        const vals = nltkCorpusBleuMulti(corpus ? refs : [refs], corpus ? hyp : [hyp], weights, opts);
        notes.push(`NLTK BLEU, smoothing method${sm.method}, pre-tokenised`);
        return Array.isArray(p.weights?.[0]) ? vals : vals[0];
      }
      if (impl.startsWith('sacrebleu')) {
        const sentence = c.level === 'sentence';
        const methods: SacreSmoothing[] = typeof p.smooth_method === 'string' && p.smooth_method.includes('(all)')
          ? ['exp', 'none', 'floor', 'add-k'] : [p.smooth_method ?? 'exp'];
        const vals = methods.map((m) => {
          const o = { ...sacreOptions({ ...p, smooth_method: m }, sentence) };
          const r = sentence ? sacreSentenceBleu(hyp, refs, o) : sacreCorpusBleu(hyp, refs, o);
          notes.push(`sacreBLEU ${r.signature}`);
          return scale(r.score);
        });
        if (methods.length > 1) {
          const e = Number(c.expected);
          const tol = Number(c.tolerance ?? 0);
          const bad = vals.find((v) => !withinTolerance(v, e, tol));
          return bad ?? vals[0];
        }
        return vals[0];
      }
      if (/t5/i.test(impl)) {
        // T5 `t5.evaluation.metrics.bleu`: sacrebleu.corpus_bleu(tokenize="intl", smooth exp, value 0.0, no effective order), 0–100.
        const r = sacreCorpusBleu(hyp, refs, { tokenize: p.tokenize ?? 'intl', smoothMethod: 'exp', smoothValue: 0, effectiveOrder: false, lowercase: false });
        notes.push(`T5 bleu = sacreBLEU ${r.signature}`);
        return c.expected && typeof c.expected === 'object' ? { bleu: r.score } : r.score;
      }
      throw new Unsupported(`BLEU implementation "${impl}" not known`);
    }
    case 'rouge': {
      const types: string[] = p.rouge_types ?? ['rouge1', 'rouge2', 'rougeL', 'rougeLsum'];
      const useStemmer = Boolean(p.use_stemmer);
      if (c.level === 'corpus') {
        // T5 `t5.evaluation.metrics.rouge`: " . " → " .\n" before scoring, mean F1 × 100 (bootstrap mid = mean for these cases).
        const prep = (s: string): string => s.split(' . ').join(' .\n');
        const sums: Record<string, number> = Object.fromEntries(types.map((t) => [t, 0]));
        hyp.forEach((h: string, i: number) => {
          const s = rougeScore(prep(refs[i][0]), prep(h), { rougeTypes: types, useStemmer });
          for (const t of types) sums[t] += s[t].fmeasure;
        });
        notes.push('T5 corpus ROUGE: mean of per-item F1 ×100 (T5 reports the bootstrap median of the mean; equal for these inputs)');
        return Object.fromEntries(types.map((t) => [t, (100 * sums[t]) / Math.max(hyp.length, 1)]));
      }
      if (p.split_summaries) throw new Unsupported('rougeLsum with split_summaries=True needs NLTK punkt sentence splitting, which is not reproduced (sentences are split on newlines only)');
      if (refs.length !== 1) {
        notes.push('rouge_score score_multi: best F-measure over targets');
        return rougeScoreMulti(refs, hyp, { rougeTypes: types, useStemmer });
      }
      return rougeScore(refs[0], hyp, { rougeTypes: types, useStemmer });
    }
    case 'meteor': {
      const lowercase = !(typeof p.preprocess === 'string' && /\b(none|identity)\b|lambda x: x\b/i.test(p.preprocess));
      const r = meteorScore(refs, hyp, { alpha: p.alpha, beta: p.beta, gamma: p.gamma, lowercase });
      notes.push('METEOR exact + Porter-stem stages; WordNet synonym stage not run (no WordNet offline)');
      return r.score;
    }
    case 'gleu': {
      const o = { minLen: p.min_len ?? 1, maxLen: p.max_len ?? 4 };
      return c.level === 'corpus' ? nltkCorpusGleu(refs, hyp, o) : nltkSentenceGleu(refs, hyp, o);
    }
    case 'token_f1_em': {
      if (c.level === 'corpus') {
        const x100 = /x100/.test(impl) || p.scale === '0-100';
        const r = squadCorpusScore(hyp, refs, 'v1.1');
        const k = x100 ? 100 : 1;
        return { em: r.em * k, f1: r.f1 * k, per_item_f1: r.perItem.map((x) => x.f1) };
      }
      const v1 = squadScore(hyp, refs, 'v1.1');
      const v2 = squadScore(hyp, refs, 'v2.0');
      return { 'f1_squad_v1.1': v1.f1, 'f1_squad_v2.0': v2.f1, f1: v1.f1, em: v1.em };
    }
    default:
      throw new Unsupported(`metric "${c.metric}" is not implemented`);
  }
}

function runGenerationCase(c: Json, file: string): CaseResult {
  const res: CaseResult = { file, id: String(c.id), kind: 'generation', status: 'passed', messages: [] };
  const notes: string[] = [];
  if (expectsError(c) || (typeof c.expected === 'string' && /error/i.test(c.expected))) {
    try {
      generationActual(c, notes);
      return { ...res, status: 'failed', messages: ['expected an error (as the reference implementation), but scoring succeeded'] };
    } catch (e) {
      if (e instanceof Unsupported) return { ...res, status: 'unsupported', messages: [e.message] };
      return { ...res, messages: [`error as expected: ${(e as Error).message}`] };
    }
  }
  try {
    const actual = generationActual(c, notes);
    const tol = Number(c.tolerance ?? 0);
    const mism = compare(actual, c.expected ?? c.expected_full_precision, tol);
    if (mism.length) {
      res.status = 'failed';
      res.messages.push(...mism);
    } else {
      res.messages.push(...new Set(notes));
    }
  } catch (e) {
    if (e instanceof Unsupported) return { ...res, status: 'unsupported', messages: [e.message] };
    res.status = 'failed';
    res.messages.push(`threw: ${(e as Error).message}`);
  }
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
