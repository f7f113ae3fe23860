/**
 * The WeKnora parity table (docs/weknora-parity.md): on each case W1–W8 of SEED-SYSTEMS.md §A.8, the
 * value WeKnora reports (src/core/compat/weknora-compat.ts) beside the standard value Spanproof
 * reports (trec_eval-equal `evaluateQuery` for the six retrieval metrics; NLTK `sentence_bleu` and
 * rouge-score F for the six generation metrics, Unicode tokens) — so a migrating team sees which
 * numbers change and why.
 *
 * Standard retrieval conventions used for the comparison: precision and recall at n = the number of
 * retrieved items (WeKnora has no cut-off; the pipeline returns ≤ rerank_top_k), unmatched chunks kept
 * as non-relevant items at their rank, a document retrieved twice counted once (trec_eval refuses
 * duplicates), binary relevance.
 */
import { evaluateQuery, rankTrec } from '../metrics/trec';
import { scoreGeneration, type GenerationMetric } from '../metrics/generation';
import { weknoraMapRetrieved, weknoraMetrics, type WeknoraMetric } from './weknora-compat';

export interface WeknoraParityCase {
  id: string;
  title: string;
  /** Retrieval cases: the ranked list as retrieved (chunk texts or ids) and the relevant passage ids. */
  retrieval?: {
    /** `hook`: chunk texts mapped by WeKnora's containment rule; `direct`: ids given to the metric as is. */
    via: 'hook' | 'direct';
    ranked: string[];
    relevant: string[];
    /** For `hook`: passage id → text. */
    passages?: Record<string, string>;
  };
  generation?: { candidate: string; reference: string };
}

export interface WeknoraParityRow {
  case: string;
  metric: WeknoraMetric;
  weknora: number;
  standard: number;
  /** What the standard value is (e.g. `P@2`, `NLTK BLEU-4`). */
  standardName: string;
}

/** The cases of SEED-SYSTEMS.md §A.8 W1–W8 as inputs. */
export const WEKNORA_PARITY_CASES: readonly WeknoraParityCase[] = [
  { id: 'W1', title: 'unmatched chunk ranked first, then the relevant passage', retrieval: { via: 'hook', ranked: ['An irrelevant chunk about something else.', 'Passage three is the relevant one.'], relevant: ['3'], passages: { 3: 'Passage three is the relevant one.' } } },
  { id: 'W2', title: '1 relevant retrieved (rank 1 of 3), 5 relevant in total', retrieval: { via: 'hook', ranked: ['Passage one.', 'Noise A.', 'Noise B.'], relevant: ['1', '2', '3', '4', '5'], passages: { 1: 'Passage one.', 2: 'Passage two.', 3: 'Passage three.', 4: 'Passage four.', 5: 'Passage five.' } } },
  { id: 'W3', title: 'duplicate ids [1, 1, 1], relevant {1} (direct MetricInput)', retrieval: { via: 'direct', ranked: ['1', '1', '1'], relevant: ['1'] } },
  { id: 'W4', title: '[1, 4, 2] against {1, 2, 3} (direct MetricInput)', retrieval: { via: 'direct', ranked: ['1', '4', '2'], relevant: ['1', '2', '3'] } },
  { id: 'W5', title: '10 tokens vs 10 unrelated tokens', generation: { candidate: 'alpha beta gamma delta epsilon zeta eta theta iota kappa', reference: 'one two three four five six seven eight nine ten' } },
  { id: 'W6', title: '"the cat" vs "the cat sat on the mat"', generation: { candidate: 'the cat', reference: 'the cat sat on the mat' } },
  { id: 'W7', title: '"Hello World" vs "hello world"', generation: { candidate: 'Hello World', reference: 'hello world' } },
  { id: 'W8', title: '"café, 3.14 Привет" vs "cafe 3.14 Привет"', generation: { candidate: 'café, 3.14 Привет', reference: 'cafe 3.14 Привет' } },
];

const GEN: Array<[WeknoraMetric, GenerationMetric, string]> = [
  ['bleu1', 'bleu1', 'NLTK BLEU-1'], ['bleu2', 'bleu2', 'NLTK BLEU-2'], ['bleu4', 'bleu4', 'NLTK BLEU-4'],
  ['rouge1', 'rouge1', 'ROUGE-1 F'], ['rouge2', 'rouge2', 'ROUGE-2 F'], ['rougel', 'rougeL', 'ROUGE-L F'],
];

/** Computes every row of the parity table (retrieval cases × 6 retrieval metrics, generation cases × 6 generation metrics). */
export function weknoraParityTable(cases: readonly WeknoraParityCase[] = WEKNORA_PARITY_CASES): WeknoraParityRow[] {
  const rows: WeknoraParityRow[] = [];
  for (const c of cases) {
    if (c.retrieval) {
      const r = c.retrieval;
      const ids = r.via === 'hook' ? weknoraMapRetrieved(r.ranked, Object.entries(r.passages ?? {}).map(([pid, text]) => ({ pid, text }))).map(String) : r.ranked;
      const w = weknoraMetrics({ gts: [r.relevant], ids, generated: '', reference: '' });
      // standard: the list as retrieved; chunks mapped to a passage id when one contains the other, else an unjudged id at its rank
      const docnos: string[] = [];
      r.ranked.forEach((x, i) => {
        const pid = r.via === 'hook' ? Object.entries(r.passages ?? {}).find(([, t]) => t.includes(x) || x.includes(t))?.[0] ?? `unmatched-${i + 1}` : x;
        if (!docnos.includes(pid)) docnos.push(pid);
      });
      const n = docnos.length;
      const s = evaluateQuery(new Map(r.relevant.map((d) => [d, 1])), rankTrec(docnos.map((docno, i) => ({ docno, score: n - i }))), [`precision@${n}`, `recall@${n}`, 'ndcg@3', 'ndcg@10', 'mrr', 'ap']);
      rows.push(
        { case: c.id, metric: 'precision', weknora: w.precision, standard: s[`precision@${n}`], standardName: `P@${n}` },
        { case: c.id, metric: 'recall', weknora: w.recall, standard: s[`recall@${n}`], standardName: `recall@${n}` },
        { case: c.id, metric: 'ndcg3', weknora: w.ndcg3, standard: s['ndcg@3'], standardName: 'nDCG@3' },
        { case: c.id, metric: 'ndcg10', weknora: w.ndcg10, standard: s['ndcg@10'], standardName: 'nDCG@10' },
        { case: c.id, metric: 'mrr', weknora: w.mrr, standard: s.mrr, standardName: 'RR' },
        { case: c.id, metric: 'map', weknora: w.map, standard: s.ap, standardName: 'AP' },
      );
    }
    if (c.generation) {
      const g = c.generation;
      const w = weknoraMetrics({ gts: [], ids: [], generated: g.candidate, reference: g.reference });
      const ours = new Map(scoreGeneration(g.candidate, [g.reference], { metrics: GEN.map((x) => x[1]) }).map((x) => [x.metric, x.value]));
      for (const [wm, gm, name] of GEN) rows.push({ case: c.id, metric: wm, weknora: w[wm], standard: ours.get(gm)!, standardName: name });
    }
  }
  return rows;
}

const fmt = (x: number): string => (x !== 0 && Math.abs(x) < 1e-4 ? x.toExponential(1) : x.toFixed(4));

/** The parity table as Markdown (one row per case × metric; `≠` marks a difference > 1e-4). */
export function weknoraParityMarkdown(rows: readonly WeknoraParityRow[] = weknoraParityTable()): string {
  const titles = new Map(WEKNORA_PARITY_CASES.map((c) => [c.id, c.title]));
  const out = ['| case | metric | WeKnora | standard (Spanproof) | standard metric | differs |', '|---|---|---|---|---|---|'];
  let last = '';
  for (const r of rows) {
    const head = r.case !== last ? `${r.case}: ${titles.get(r.case) ?? ''}` : '';
    last = r.case;
    out.push(`| ${head} | ${r.metric} | ${fmt(r.weknora)} | ${fmt(r.standard)} | ${r.standardName} | ${Math.abs(r.weknora - r.standard) > 1e-4 ? '≠' : ''} |`);
  }
  return `${out.join('\n')}\n`;
}
