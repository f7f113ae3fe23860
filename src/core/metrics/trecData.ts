/**
 * TREC data for ./trec.ts: judgments and runs as maps, trec_eval's ranking of a run (score
 * descending, docno descending byte-wise), and the parsers of trec_eval's input files (qrels, run;
 * trec_eval `get_qrels.c`, `get_trec_results.c`) and of the JSON shapes the reference files use.
 */
import { SpanproofError } from '../errors';

/** Judgments: qid → docno → relevance level (integer in TREC files; any finite number accepted). */
export type TrecQrels = Map<string, Map<string, number>>;

/** One retrieved document of a run. `score` is the system score (higher = better). */
export interface TrecRunEntry {
  docno: string;
  score: number;
}

/** A run: qid → retrieved documents in any order (they are re-sorted the trec_eval way). */
export type TrecRun = Map<string, TrecRunEntry[]>;

/** Byte-wise UTF-8 comparison (= C `strcmp` on UTF-8), i.e. comparison by Unicode code point. */
export function compareDocnoBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; ) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(i)!;
    if (ca !== cb) return ca < cb ? -1 : 1;
    i += ca > 0xffff ? 2 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/**
 * The trec_eval ranking of one query's retrieved documents: score descending, then docno
 * descending (byte-wise). Returns a new array; does not mutate `entries`.
 * @throws SpanproofError('bad-input') when a docno occurs twice (trec_eval: fatal error) or a score is not finite-or-±Infinity.
 */
export function rankTrec(entries: readonly TrecRunEntry[], qid = '?'): TrecRunEntry[] {
  const seen = new Set<string>();
  for (const e of entries) {
    if (seen.has(e.docno)) {
      throw new SpanproofError('bad-input', `Duplicate docno "${e.docno}" in the run for query "${qid}" (trec_eval rejects this).`, {
        field: `run[${qid}]`, fix: 'Keep one line per (query, docno) pair in the run.',
      });
    }
    if (typeof e.score !== 'number' || Number.isNaN(e.score)) {
      throw new SpanproofError('bad-input', `Score of docno "${e.docno}" in query "${qid}" is not a number.`, {
        field: `run[${qid}]`, fix: 'Give every retrieved document a numeric score.',
      });
    }
    seen.add(e.docno);
  }
  return [...entries].sort((x, y) => (x.score !== y.score ? (y.score > x.score ? 1 : -1) : compareDocnoBytes(y.docno, x.docno)));
}


function lineError(file: string, line: number, message: string, fix: string): SpanproofError {
  return new SpanproofError('bad-input', message, { file, field: `line ${line}`, fix });
}

/**
 * Parses a TREC qrels file: one judgment per line, `qid iter docno rel` separated by whitespace
 * (trec_eval `get_qrels.c`). Blank lines are skipped; text after the 4th field is ignored (as trec_eval). `rel` must be a number (integer levels in TREC).
 * @throws SpanproofError('bad-input') naming the line for a malformed line or a docno judged twice in a query.
 */
export function parseTrecQrels(text: string, file = 'qrels'): TrecQrels {
  const qrels: TrecQrels = new Map();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i].trim();
    if (t === '') continue;
    const f = t.split(/\s+/);
    if (f.length < 4) throw lineError(file, i + 1, `Expected 4 fields "qid iter docno rel", found ${f.length}.`, 'Write qrels lines as `qid 0 docno rel`.');
    const rel = Number(f[3]);
    if (!Number.isFinite(rel)) throw lineError(file, i + 1, `Relevance "${f[3]}" is not a number.`, 'Use an integer relevance level (0 = not relevant).');
    let q = qrels.get(f[0]);
    if (!q) qrels.set(f[0], (q = new Map()));
    if (q.has(f[2])) throw lineError(file, i + 1, `Docno "${f[2]}" is judged twice for query "${f[0]}".`, 'Keep one judgment per (query, docno).');
    q.set(f[2], rel);
  }
  return qrels;
}

/**
 * Parses a TREC run file: `qid Q0 docno rank score tag` per line (trec_eval `get_trec_results.c`);
 * the rank, the tag and any text after the 6th field are ignored (as trec_eval). Scores are parsed as doubles.
 * @throws SpanproofError('bad-input') naming the line for a malformed line, a non-numeric score or a duplicate docno in a query.
 */
export function parseTrecRun(text: string, file = 'run'): TrecRun {
  const run: TrecRun = new Map();
  const seen = new Map<string, Set<string>>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i].trim();
    if (t === '') continue;
    const f = t.split(/\s+/);
    if (f.length < 6) throw lineError(file, i + 1, `Expected 6 fields "qid Q0 docno rank score tag", found ${f.length}.`, 'Write run lines as `qid Q0 docno rank score tag`.');
    const score = parseCDouble(f[4]);
    if (Number.isNaN(score)) throw lineError(file, i + 1, `Score "${f[4]}" is not a number.`, 'Use a numeric score.');
    let s = seen.get(f[0]);
    if (!s) seen.set(f[0], (s = new Set()));
    if (s.has(f[2])) throw lineError(file, i + 1, `Duplicate docno "${f[2]}" for query "${f[0]}" (trec_eval rejects this).`, 'Keep one line per (query, docno) pair.');
    s.add(f[2]);
    let q = run.get(f[0]);
    if (!q) run.set(f[0], (q = []));
    q.push({ docno: f[2], score });
  }
  return run;
}

/** Parses a score like C `strtod`/`atof` on a whole field; NaN when the field is not a number. */
function parseCDouble(s: string): number {
  if (/^[+-]?inf(inity)?$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  const v = Number(s);
  return v;
}

/** Qrels from the JSON shape `{qid: {docno: rel}}`. */
export function qrelsFromObject(obj: Record<string, Record<string, number>>): TrecQrels {
  const q: TrecQrels = new Map();
  for (const [qid, docs] of Object.entries(obj)) q.set(qid, new Map(Object.entries(docs).map(([d, r]) => [d, Number(r)])));
  return q;
}

/**
 * Run from the JSON shape `{qid: [[docno, score], ...]}` or `{qid: [{docno, score}, ...]}`.
 * @throws SpanproofError('bad-input') on a duplicate docno within a query.
 */
export function runFromObject(obj: Record<string, ReadonlyArray<readonly [string, number] | TrecRunEntry>>): TrecRun {
  const r: TrecRun = new Map();
  for (const [qid, rows] of Object.entries(obj)) {
    const entries = rows.map((row) => (Array.isArray(row) ? { docno: String(row[0]), score: Number(row[1]) } : { docno: (row as TrecRunEntry).docno, score: Number((row as TrecRunEntry).score) }));
    rankTrec(entries, qid);
    r.set(qid, entries);
  }
  return r;
}
