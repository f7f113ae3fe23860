/**
 * The generation part of the reference-case checker (scripts/refcheck.ts): BLEU (NLTK, sacreBLEU, T5),
 * ROUGE, METEOR, GLEU and SQuAD token F1/EM cases through Spanproof's metric API.
 *
 * Two conventions are read from the case, never from a list of named implementations (#16 item 21):
 * - **Scale.** Each implementation computes on its native scale (sacreBLEU and T5 BLEU 0–100, the rest
 *   0–1); the case's own scale — `params.scale` ("0-1", "0-100"), else "(x100)"/"×100" in its `impl`
 *   or `notes` — decides the factor applied to every number compared ({@link caseScale}).
 * - **Mean of sentence scores.** BLEU and GLEU cases whose level or `params.aggregate` says
 *   mean/average (e.g. `level: "mean_of_sentences"`), or whose expected object has keys such as
 *   `corpus_bleu` and `avg_sent_bleu`, are scored as the mean of the per-hypothesis sentence scores,
 *   which is not corpus BLEU/GLEU (NLTK's corpus_bleu/corpus_gleu docstrings: 0.5921 vs 0.6223, 0.5673 vs 0.6144).
 */
import {
  meteorScore, nltkBrevityPenalty, nltkClosestRefLength, nltkCorpusBleuMulti, nltkCorpusGleu, nltkModifiedPrecision,
  nltkSentenceGleu, rougeScore, rougeScoreMulti, sacreComputeBleu, sacreCorpusBleu, sacreSentenceBleu, squadCorpusScore, squadScore,
  type NltkSmoothingMethod, type SacreBleuOptions, type SacreSmoothing, type SacreTokenizer,
} from '../src/core/metrics/generation';
import { expectsError, Unsupported, withinTolerance, type CaseResult, type Json } from './refcheck-common';

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

/** The native scale (1 or 100) of the implementation a case names: sacreBLEU and T5 BLEU report 0–100, the others 0–1. */
function nativeScale(c: Json): number {
  const impl = String(c.params?.impl ?? '');
  return (c.metric === 'bleu' || c.metric === 'bleu_from_stats') && (/^sacrebleu/i.test(impl) || /t5/i.test(impl)) ? 100 : 1;
}

/**
 * The scale (1 or 100) of a case's expected values: `params.scale` ("0-1", "0-100", "x100", "percent"),
 * else "(x100)" / "×100" in `params.impl` (T5's "t5.evaluation.metrics.qa (x100)"), else the native
 * scale of the implementation it names. Throws Unsupported for a scale it cannot read.
 */
export function caseScale(c: Json): number {
  const raw = c.params?.scale;
  const s = raw === undefined || raw === null ? '' : String(raw).trim().toLowerCase();
  if (/^0\s*(-|–|\.\.)\s*100$|^[x×]\s*100$|^100$|^percent(age)?$|^%$/.test(s)) return 100;
  if (/^0\s*(-|–|\.\.)\s*1$|^[x×]\s*1$|^1$|^fraction$/.test(s)) return 1;
  if (s) throw new Unsupported(`scale "${String(raw)}" not understood (expected "0-1" or "0-100")`);
  if (/(^|[\s(,;])[x×]\s?100\b/i.test(String(c.params?.impl ?? ''))) return 100;
  return nativeScale(c);
}

/** Every number in `v` (a number, or nested arrays/objects of numbers) times `factor`. */
function rescale(v: unknown, factor: number): unknown {
  if (factor === 1) return v;
  if (typeof v === 'number') return v * factor;
  if (Array.isArray(v)) return v.map((x) => rescale(x, factor));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rescale(x, factor)]));
  return v;
}

/** How a BLEU/GLEU case aggregates: one sentence, pooled corpus statistics, or the mean of per-hypothesis sentence scores. */
export type Aggregation = 'sentence' | 'corpus' | 'mean';
const MEAN = /mean|average|avg|macro/i;
const CORPUS = /corpus|pooled|micro|system/i;

/**
 * The aggregation a BLEU/GLEU case asks for: "mean" when its level or `params.aggregate`/`aggregation`/
 * `average` says mean/average/avg/macro; per expected key when `expected` is an object whose keys all
 * name one (e.g. `{ corpus_bleu, avg_sent_bleu }`); else "corpus" for
 * `level: "corpus"` and "sentence" otherwise.
 */
export function sentenceAggregation(c: Json): Aggregation | Record<string, Aggregation> {
  const level = String(c.level ?? '');
  const p = c.params ?? {};
  const agg = String(p.aggregate ?? p.aggregation ?? p.average ?? '');
  if (MEAN.test(level) || MEAN.test(agg)) return 'mean';
  const e = c.expected;
  if (e && typeof e === 'object' && !Array.isArray(e)) {
    const keys = Object.keys(e);
    const modes = keys.map((k): Aggregation | null => (MEAN.test(k) ? 'mean' : CORPUS.test(k) ? 'corpus' : null));
    if (keys.length > 0 && modes.every((m) => m !== null)) return Object.fromEntries(keys.map((k, i) => [k, modes[i] as Aggregation]));
  }
  return level === 'corpus' ? 'corpus' : 'sentence';
}

/** `score(mode)` for one aggregation, or an object of them keyed as the case's expected object. */
function aggregated<T>(c: Json, score: (mode: Aggregation) => T): T | Record<string, T> {
  const mode = sentenceAggregation(c);
  return typeof mode === 'string' ? score(mode) : Object.fromEntries(Object.entries(mode).map(([k, m]) => [k, score(m)]));
}

/** The mean of `score(i)` over the case's hypotheses (each with its own references); element-wise for arrays. */
function meanOverHypotheses(c: Json, score: (i: number) => number | number[]): number | number[] {
  const n = Array.isArray(c.hypothesis) ? c.hypothesis.length : 0;
  if (n === 0 || !Array.isArray(c.references) || c.references.length !== n) throw new Unsupported('a mean of sentence scores needs one list of references per hypothesis');
  const all = Array.from({ length: n }, (_, i) => score(i));
  if (typeof all[0] === 'number') return (all as number[]).reduce((a, b) => a + b, 0) / n;
  return (all[0] as number[]).map((_, j) => (all as number[][]).reduce((a, v) => a + v[j], 0) / n);
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

/** The case's value(s) on the native scale of the implementation it names (`factor` converts to the case's scale). */
function generationActual(c: Json, notes: string[], factor: number): unknown {
  const p = c.params ?? {};
  const impl = String(p.impl ?? '');
  const hyp = c.hypothesis;
  const refs = c.references;
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
      return r.score;
    }
    case 'bleu': {
      if (impl.startsWith('nltk')) {
        if (p.tokenized === false) throw new Unsupported('NLTK BLEU on untokenised strings');
        const sm = parseSmoothing(p.smoothing);
        const weights: number[][] = Array.isArray(p.weights?.[0]) ? p.weights : [p.weights ?? [0.25, 0.25, 0.25, 0.25]];
        const opts = { smoothing: sm.method, epsilon: sm.epsilon, alpha: sm.alpha, k: sm.k, autoReweigh: Boolean(p.auto_reweigh) };
        const multi = Array.isArray(p.weights?.[0]);
        notes.push(`NLTK BLEU, smoothing method${sm.method}, pre-tokenised`);
        return aggregated(c, (mode) => {
          const one = (r: Json, h: Json): number[] => nltkCorpusBleuMulti([r], [h], weights, opts);
          const vals = mode === 'corpus' ? nltkCorpusBleuMulti(refs, hyp, weights, opts) : mode === 'sentence' ? one(refs, hyp) : (meanOverHypotheses(c, (i) => one(refs[i], hyp[i])) as number[]);
          return multi ? vals : vals[0];
        });
      }
      if (impl.startsWith('sacrebleu')) {
        const methods: SacreSmoothing[] = typeof p.smooth_method === 'string' && p.smooth_method.includes('(all)')
          ? ['exp', 'none', 'floor', 'add-k'] : [p.smooth_method ?? 'exp'];
        return aggregated(c, (mode) => {
          const vals = methods.map((m) => {
            const o = { ...sacreOptions({ ...p, smooth_method: m }, mode !== 'corpus') };
            if (mode === 'mean') return meanOverHypotheses(c, (i) => sacreSentenceBleu(hyp[i], refs[i], o).score) as number;
            const r = mode === 'sentence' ? sacreSentenceBleu(hyp, refs, o) : sacreCorpusBleu(hyp, refs, o);
            notes.push(`sacreBLEU ${r.signature}`);
            return r.score;
          });
          if (methods.length === 1) return vals[0];
          // "(all)": every smoothing must give the expected value; report the first that does not.
          const e = Number(c.expected);
          const tol = Number(c.tolerance ?? 0);
          return vals.find((v) => !withinTolerance(v * factor, e, tol)) ?? vals[0];
        });
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
        notes.push('T5 corpus ROUGE: mean of per-item F1 (T5 reports the bootstrap median of the mean; equal for these inputs)');
        return Object.fromEntries(types.map((t) => [t, sums[t] / Math.max(hyp.length, 1)]));
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
      return aggregated(c, (mode) => (mode === 'corpus' ? nltkCorpusGleu(refs, hyp, o) : mode === 'sentence' ? nltkSentenceGleu(refs, hyp, o) : (meanOverHypotheses(c, (i) => nltkSentenceGleu(refs[i], hyp[i], o)) as number)));
    }
    case 'token_f1_em': {
      if (c.level === 'corpus') {
        const r = squadCorpusScore(hyp, refs, 'v1.1');
        return { em: r.em, f1: r.f1, per_item_f1: r.perItem.map((x) => x.f1) };
      }
      const v1 = squadScore(hyp, refs, 'v1.1');
      const v2 = squadScore(hyp, refs, 'v2.0');
      return { 'f1_squad_v1.1': v1.f1, 'f1_squad_v2.0': v2.f1, f1: v1.f1, em: v1.em };
    }
    default:
      throw new Unsupported(`metric "${c.metric}" is not implemented`);
  }
}

/** Scores one generation case and compares with its `expected` (or `expected_full_precision`) within its tolerance. */
export function runGenerationCase(c: Json, file: string): CaseResult {
  const res: CaseResult = { file, id: String(c.id), kind: 'generation', status: 'passed', messages: [] };
  const notes: string[] = [];
  if (expectsError(c) || (typeof c.expected === 'string' && /error/i.test(c.expected))) {
    try {
      generationActual(c, notes, 1);
      return { ...res, status: 'failed', messages: ['expected an error (as the reference implementation), but scoring succeeded'] };
    } catch (e) {
      if (e instanceof Unsupported) return { ...res, status: 'unsupported', messages: [e.message] };
      return { ...res, messages: [`error as expected: ${(e as Error).message}`] };
    }
  }
  try {
    const factor = caseScale(c) / nativeScale(c);
    const actual = rescale(generationActual(c, notes, factor), factor);
    if (factor !== 1) notes.push(`scaled ×${factor} to the case's ${caseScale(c) === 100 ? '0–100' : '0–1'} scale`);
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

