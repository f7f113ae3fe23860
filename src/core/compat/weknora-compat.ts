/**
 * WeKnora's 12 evaluation metrics, reproduced faithfully — quirks included — for the `--compat
 * weknora` view and the parity table (docs/weknora-parity.md). Source: Tencent/WeKnora @ 412dcc41c662,
 * `internal/application/service/metric/*.go` and `metric_hook.go`, as transcribed in
 * SEED-SYSTEMS.md §A.4–A.6. These are NOT Spanproof's metrics: the standard ones are
 * `src/core/metrics/trec.ts` (trec_eval) and `src/core/metrics/generation` (NLTK / rouge-score).
 *
 * Retrieval metrics take `gts` (ground-truth sets; WeKnora passes one) and `ids` (retrieved passage
 * IDs in rank order, already passed through {@link weknoraMapRetrieved} when they come from the
 * pipeline). Quirks kept: precision over |R| averaged over sets (W1 via the mapping), recall counts
 * duplicates (W3), nDCG ideal capped at len(R) with |G| counting duplicates (W2, W3), MAP divided by
 * the hits found (W4); BLEU add-one smoothing on every order with empty orders skipped (W5, W6),
 * lower-cased, while ROUGE is case-sensitive on distinct n-grams with F = 2PR/(P+R+1e−8) (W7); the
 * tokeniser splits sentences on "." and "。", keeps `[A-Za-z0-9_.,!?]` runs (punctuation attached)
 * and drops other Latin/Cyrillic/kana/Hangul letters (W8).
 *
 * One substitution: WeKnora segments Han runs with gojieba (`Cut`, HMM on); here Han runs are
 * segmented with ICU (`Intl.Segmenter('zh')`). Chinese tokens can therefore differ from WeKnora's;
 * every W1–W8 case is unaffected.
 */
type Id = string | number;

export const WEKNORA_METRICS = ['precision', 'recall', 'ndcg3', 'ndcg10', 'mrr', 'map', 'bleu1', 'bleu2', 'bleu4', 'rouge1', 'rouge2', 'rougel'] as const;
export type WeknoraMetric = (typeof WEKNORA_METRICS)[number];

function hits(ids: readonly Id[], g: ReadonlySet<Id>): number {
  let n = 0;
  for (const id of ids) if (g.has(id)) n++; // duplicates counted
  return n;
}

/** `metric/precision.go`: mean over sets of hits(R, G)/|R|; 0 when there are no sets or R is empty. No cut-off. */
export function weknoraPrecision(gts: ReadonlyArray<readonly Id[]>, ids: readonly Id[]): number {
  if (!gts.length || !ids.length) return 0;
  return gts.reduce((s, g) => s + hits(ids, new Set(g)) / ids.length, 0) / gts.length;
}

/** `metric/recall.go`: mean over sets of hits(R, G)/|distinct G| (an empty set contributes 0); can exceed 1 with duplicate ids (W3). */
export function weknoraRecall(gts: ReadonlyArray<readonly Id[]>, ids: readonly Id[]): number {
  if (!gts.length || !ids.length) return 0;
  return gts.reduce((s, g) => {
    const set = new Set(g);
    return s + (set.size ? hits(ids, set) / set.size : 0);
  }, 0) / gts.length;
}

/** `metric/ndcg.go`: binary rel over the union of sets, DCG Σ(2^rel−1)/log2(i+2) on R cut at k; IDCG over min(Σ|G_j| (duplicates counted), len(R cut)) — capped at the retrieved count (W2); can exceed 1 (W3). */
export function weknoraNdcg(gts: ReadonlyArray<readonly Id[]>, ids: readonly Id[], k: number): number {
  const cut = ids.slice(0, k);
  const union = new Set(gts.flat());
  let dcg = 0;
  cut.forEach((id, i) => { if (union.has(id)) dcg += (2 ** 1 - 1) / Math.log2(i + 2); });
  const countGt = gts.reduce((s, g) => s + g.length, 0);
  const idealLen = Math.min(countGt, cut.length);
  let idcg = 0;
  for (let i = 0; i < idealLen; i++) idcg += 1 / Math.log2(i + 2);
  return idcg === 0 ? 0 : dcg / idcg;
}

/** `metric/mrr.go`: mean over sets of 1/(1-based rank of the first id in the set), 0 when none. */
export function weknoraMrr(gts: ReadonlyArray<readonly Id[]>, ids: readonly Id[]): number {
  if (!gts.length) return 0;
  return gts.reduce((s, g) => {
    const set = new Set(g);
    const i = ids.findIndex((id) => set.has(id));
    return s + (i < 0 ? 0 : 1 / (i + 1));
  }, 0) / gts.length;
}

/** `metric/map.go`: per set, Σ over relevant positions of hits-so-far/(rank) divided by the number of **hits found** (W4), not |G|. */
export function weknoraMap(gts: ReadonlyArray<readonly Id[]>, ids: readonly Id[]): number {
  if (!gts.length) return 0;
  return gts.reduce((s, g) => {
    const set = new Set(g);
    let h = 0;
    let sum = 0;
    ids.forEach((id, k) => { if (set.has(id)) { h++; sum += h / (k + 1); } });
    return s + (h ? sum / h : 0);
  }, 0) / gts.length;
}

/**
 * `metric_hook.recordFinish`: each non-empty retrieved chunk text maps to the first ground-truth passage
 * where either text contains the other; its pid is appended once (dedup). Chunks matching no passage
 * are dropped **with their rank** (W1, W14).
 */
export function weknoraMapRetrieved(chunks: readonly string[], passages: ReadonlyArray<{ pid: Id; text: string }>): Id[] {
  const out: Id[] = [];
  const seen = new Set<Id>();
  for (const c of chunks) {
    if (!c) continue;
    const p = passages.find((x) => x.text.includes(c) || c.includes(x.text));
    if (p && !seen.has(p.pid)) { seen.add(p.pid); out.push(p.pid); }
  }
  return out;
}

// ---- tokenisation (common.go) ----

const hanSeg = new Intl.Segmenter('zh', { granularity: 'word' });

/** `splitSentences`: split on "。" and ".", trim, drop empties ("3.14" → "3", "14"). */
export function weknoraSentences(text: string): string[] {
  return text.split(/[。.]/).map((s) => s.trim()).filter((s) => s.length > 0);
}

/** `splitIntoWords` on one sentence: Han runs (segmented), `[A-Za-z0-9_.,!?]` runs, single punctuation; all else dropped (W8). */
export function weknoraWords(sentence: string): string[] {
  // characters of no alternative vanish, so "café," reads as "caf," (SEED-SYSTEMS.md W8)
  const kept = sentence.replace(/[^\p{Script=Han}A-Za-z0-9_.,!?\p{P}\s]/gu, '');
  const out: string[] = [];
  for (const m of kept.matchAll(/(\p{Script=Han}+)|([A-Za-z0-9_.,!?]+)|(\p{P})/gu)) {
    if (m[1]) { for (const s of hanSeg.segment(m[1])) out.push(s.segment); } else out.push(m[0]);
  }
  return out;
}

/** All tokens of `text`, sentence by sentence, concatenated. */
export function weknoraTokens(text: string): string[] {
  return weknoraSentences(text).flatMap(weknoraWords);
}

// ---- BLEU (bleu.go, smoothing = true as registered) ----

function ngramCounts(t: readonly string[], n: number): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i + n <= t.length; i++) {
    const k = t.slice(i, i + n).join('\u0001');
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}

/** WeKnora BLEU with `weights` (BLEU-1 [1], BLEU-2 [.5,.5], BLEU-4 [.25×4]); add-one on every order; orders with p_n = 0 skipped without renormalising; BP = 1 if c > r else exp(1 − r/c). */
export function weknoraBleu(candidate: string, reference: string, weights: readonly number[]): number {
  const c = weknoraTokens(candidate).map((t) => t.toLowerCase());
  const r = weknoraTokens(reference).map((t) => t.toLowerCase());
  if (!c.length) return 0;
  let s = 0;
  let any = false;
  weights.forEach((w, idx) => {
    const n = idx + 1;
    if (c.length < n) return; // p_n = 0 → skipped
    const cc = ngramCounts(c, n);
    const rc = ngramCounts(r, n);
    let clipped = 0;
    let total = 0;
    for (const [g, k] of cc) { clipped += Math.min(k, rc.get(g) ?? 0); total += k; }
    const p = (clipped + 1) / (total + 1);
    if (p > 0) { s += w * Math.log(p); any = true; }
  });
  if (!any) return 0;
  const bp = c.length > r.length ? 1 : Math.exp(1 - r.length / c.length);
  return bp * Math.exp(s);
}

// ---- ROUGE (rouge.go / rouge_score.go, ported from sumy) ----

const F = (p: number, r: number): number => (2 * p * r) / (p + r + 1e-8);

/** WeKnora ROUGE-N F: distinct n-grams over the concatenated tokens (crossing sentences), case-sensitive. */
export function weknoraRougeN(candidate: string, reference: string, n: number): number {
  const h = new Set(ngramCounts(weknoraTokens(candidate), n).keys());
  const r = new Set(ngramCounts(weknoraTokens(reference), n).keys());
  let o = 0;
  for (const g of h) if (r.has(g)) o++;
  const p = h.size ? o / h.size : 0;
  const rc = r.size ? o / r.size : 0;
  return F(p, rc);
}

function lcsTokens(a: readonly string[], b: readonly string[]): string[] {
  const t: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) t[i][j] = a[i - 1] === b[j - 1] ? t[i - 1][j - 1] + 1 : Math.max(t[i - 1][j], t[i][j - 1]);
  const out: string[] = [];
  for (let i = a.length, j = b.length; i > 0 && j > 0;) {
    if (a[i - 1] === b[j - 1]) { out.unshift(a[i - 1]); i--; j--; } else if (t[i - 1][j] >= t[i][j - 1]) i--; else j--;
  }
  return out;
}

/** WeKnora summary-level ROUGE-L F: LCS tokens of each (reference sentence, hypothesis sentence) merged into one running set; hits = growth of that set; P = hits/|distinct hyp tokens|, R = hits/|distinct ref tokens|. */
export function weknoraRougeL(candidate: string, reference: string): number {
  const hs = weknoraSentences(candidate).map(weknoraWords);
  const rs = weknoraSentences(reference).map(weknoraWords);
  const n = new Set(hs.flat()).size;
  const m = new Set(rs.flat()).size;
  const union = new Set<string>();
  let h = 0;
  for (const r of rs) for (const x of hs) {
    const before = union.size;
    for (const tok of lcsTokens(r, x)) union.add(tok);
    h += union.size - before;
  }
  return F(n ? h / n : 0, m ? h / m : 0);
}

/** The 12 numbers WeKnora reports for one QA pair (its `metric` object): retrieval from `gts`/`ids`, generation from the texts. */
export function weknoraMetrics(input: { gts: ReadonlyArray<readonly Id[]>; ids: readonly Id[]; generated: string; reference: string }): Record<WeknoraMetric, number> {
  const { gts, ids, generated: g, reference: r } = input;
  return {
    precision: weknoraPrecision(gts, ids),
    recall: weknoraRecall(gts, ids),
    ndcg3: weknoraNdcg(gts, ids, 3),
    ndcg10: weknoraNdcg(gts, ids, 10),
    mrr: weknoraMrr(gts, ids),
    map: weknoraMap(gts, ids),
    bleu1: weknoraBleu(g, r, [1]),
    bleu2: weknoraBleu(g, r, [0.5, 0.5]),
    bleu4: weknoraBleu(g, r, [0.25, 0.25, 0.25, 0.25]),
    rouge1: weknoraRougeN(g, r, 1),
    rouge2: weknoraRougeN(g, r, 2),
    rougel: weknoraRougeL(g, r),
  };
}
