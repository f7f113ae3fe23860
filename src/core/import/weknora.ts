/**
 * WeKnora evaluation dataset (Tencent/WeKnora `dataset/samples/`, SEED-SYSTEMS.md §A.3): a folder of
 * five Parquet files read with hyparquet — `queries(id, text)`, `corpus(id, text)`,
 * `answers(id, text)`, `qrels(qid, pid, score?)`, `qas(qid, aid)`. IDs may be strings or int64
 * (BigInt → decimal string), `score` is an optional graded relevance (absent → 1).
 *
 * Each passage becomes a document `weknora/passage-<pid>.txt`; the passages a query's qrels mark
 * relevant (grade ≥ 1) become whole-passage evidence with `match: "any"` (any relevant passage answers,
 * as success@k counts it); the answer becomes the reference answer. The graded qrels (every grade,
 * 0 included) are also kept, keyed by document source, for the trec_eval-equal ID metrics
 * (`.spanproof/qrels.txt`). Unlike WeKnora (W10), the whole corpus is imported, not only the passages
 * the qrels reference.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
// ZSTD (Polars' default), GZIP, Brotli, LZ4: hyparquet decodes only SNAPPY by itself (#16 item 21)
import { SpanproofError } from '../errors';
import type { EvidenceSelector, Question } from '../groundtruth';
import { bump, emptyReport, requirePath, slug } from './common';
import type { ImportedDocument, ImportOptions, ImportResult } from './index';

export interface WeknoraDataset {
  queries: Array<{ id: string; text: string }>;
  corpus: Array<{ id: string; text: string }>;
  answers: Array<{ id: string; text: string }>;
  qrels: Array<{ qid: string; pid: string; score: number }>;
  qas: Array<{ qid: string; aid: string }>;
  /** Files that were absent (answers/qas are optional). */
  missing: string[];
}

/** A WeKnora ID cell as a string: BigInt (int64) and finite numbers in decimal, strings trimmed; `null` when unusable. */
export const weknoraId = (v: unknown): string | null => {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'string' && v.trim()) return v.trim();
  return null;
};

async function readTable(dir: string, name: string, cols: string[], optional: boolean): Promise<Array<Record<string, unknown>> | null> {
  const file = path.join(dir, `${name}.parquet`);
  if (!existsSync(file)) {
    if (optional) return null;
    throw new SpanproofError('not-found', `${name}.parquet is missing.`, { file, fix: 'a WeKnora dataset folder holds queries, corpus, answers, qrels and qas .parquet files.' });
  }
  let rows: Array<Record<string, unknown>>;
  try {
    rows = (await parquetReadObjects({ file: await asyncBufferFromFile(file), compressors: (await import('hyparquet-compressors')).compressors })) as Array<Record<string, unknown>>;
  } catch (e) {
    throw new SpanproofError('bad-input', `not a readable Parquet file: ${(e as Error).message}`, { file, fix: 'export the table as Parquet.', cause: e });
  }
  const have = rows.length ? Object.keys(rows[0]) : cols;
  for (const c of cols) {
    if (!have.includes(c)) throw new SpanproofError('bad-input', `no "${c}" column (found: ${have.join(', ')}).`, { file, field: c, fix: `${name}.parquet needs the columns ${cols.join(', ')}.` });
  }
  return rows;
}

/** Reads the five tables, normalising IDs to strings. Rows with an unusable ID are kept with id `""` for the importer to reject. */
export async function readWeknoraFolder(dir: string): Promise<WeknoraDataset> {
  requirePath(dir, true, 'pass the folder holding queries.parquet, corpus.parquet, answers.parquet, qrels.parquet, qas.parquet.');
  const missing: string[] = [];
  const queries = (await readTable(dir, 'queries', ['id', 'text'], false))!;
  const corpus = (await readTable(dir, 'corpus', ['id', 'text'], false))!;
  const qrels = (await readTable(dir, 'qrels', ['qid', 'pid'], false))!;
  const answers = await readTable(dir, 'answers', ['id', 'text'], true);
  const qas = await readTable(dir, 'qas', ['qid', 'aid'], true);
  if (!answers) missing.push('answers.parquet');
  if (!qas) missing.push('qas.parquet');
  const text = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : String(v));
  return {
    queries: queries.map((r) => ({ id: weknoraId(r.id) ?? '', text: text(r.text) })),
    corpus: corpus.map((r) => ({ id: weknoraId(r.id) ?? '', text: text(r.text) })),
    answers: (answers ?? []).map((r) => ({ id: weknoraId(r.id) ?? '', text: text(r.text) })),
    qrels: qrels.map((r) => ({ qid: weknoraId(r.qid) ?? '', pid: weknoraId(r.pid) ?? '', score: r.score === undefined || r.score === null ? 1 : Number(r.score) })),
    qas: (qas ?? []).map((r) => ({ qid: weknoraId(r.qid) ?? '', aid: weknoraId(r.aid) ?? '' })),
    missing,
  };
}

/** The document source of passage `pid`. */
export function weknoraPassageSource(pid: string): string {
  return `weknora/passage-${/^[A-Za-z0-9_-]{1,64}$/.test(pid) ? pid : slug(pid, 40)}.txt`;
}

/**
 * Imports a WeKnora dataset folder.
 * @throws SpanproofError('not-found'/'bad-input') for a missing folder/table or a missing column.
 */
export async function importWeknora(dir: string, _opts: ImportOptions): Promise<ImportResult> {
  const ds = await readWeknoraFolder(dir);
  const report = emptyReport('weknora', dir);
  const documents: ImportedDocument[] = [];
  const passages = new Map<string, { source: string; text: string }>();
  const usedSources = new Set<string>();
  ds.corpus.forEach((p, i) => {
    if (!p.id) return void bump(report, 'passage-without-id');
    if (passages.has(p.id)) return void bump(report, 'duplicate-passage-id');
    let source = weknoraPassageSource(p.id);
    if (usedSources.has(source)) source = source.replace(/\.txt$/, `-${i + 1}.txt`);
    usedSources.add(source);
    passages.set(p.id, { source, text: p.text });
    if (p.text.trim()) documents.push({ source, text: p.text });
    else bump(report, 'empty-passage');
  });
  const answersById = new Map(ds.answers.map((a) => [a.id, a.text]));
  const answerOf = new Map<string, string>();
  for (const qa of ds.qas) if (answersById.has(qa.aid) && !answerOf.has(qa.qid)) answerOf.set(qa.qid, answersById.get(qa.aid)!);
  const qrelsByQ = new Map<string, Array<{ pid: string; score: number }>>();
  const queryIds = new Set(ds.queries.map((q) => q.id));
  for (const r of ds.qrels) {
    if (!queryIds.has(r.qid)) { bump(report, 'qrels-unknown-query'); continue; }
    if (!Number.isFinite(r.score)) { bump(report, 'qrels-bad-score'); continue; }
    const l = qrelsByQ.get(r.qid) ?? [];
    l.push({ pid: r.pid, score: r.score });
    qrelsByQ.set(r.qid, l);
  }
  const graded = new Map<string, Map<string, number>>();
  const questions: Question[] = [];
  const seenQ = new Set<string>();
  ds.queries.forEach((q, i) => {
    report.rowsRead++;
    const row = `queries.parquet row ${i + 1}`;
    const reject = (reason: string): void => void report.rejected.push({ row, id: q.id || undefined, reason });
    if (!q.id) return reject('query without an id');
    if (seenQ.has(q.id)) return reject(`duplicate query id ${q.id}`);
    seenQ.add(q.id);
    if (!q.text.trim()) return reject('empty query text');
    const rels = qrelsByQ.get(q.id) ?? [];
    const g = new Map<string, number>();
    const evidence: EvidenceSelector[] = [];
    const unknown: string[] = [];
    for (const r of rels) {
      const p = passages.get(r.pid);
      if (!p) { unknown.push(r.pid); bump(report, 'qrels-unknown-passage'); continue; }
      g.set(p.source, Math.max(g.get(p.source) ?? -Infinity, r.score));
      if (r.score >= 1 && p.text.trim() && !evidence.some((e) => e.source === p.source)) {
        const start = p.text.length - p.text.trimStart().length;
        const exact = p.text.trim();
        evidence.push({ source: p.source, exact, start, end: start + exact.length, pid: r.pid, grade: r.score });
      }
    }
    if (g.size) graded.set(q.id, g);
    if (!evidence.length) return reject(rels.length ? `no relevant passage (grade ≥ 1) with text in the corpus${unknown.length ? `; unknown pid(s) ${unknown.join(', ')}` : ''}` : 'no qrels for this query');
    const answer = answerOf.get(q.id);
    if (answer === undefined) bump(report, 'query-without-answer');
    questions.push({ id: q.id, question: q.text.trim(), ...(answer ? { answer } : {}), evidence, match: evidence.length > 1 ? 'any' : 'all', tags: ['weknora'] });
    report.converted++;
  });
  report.documents = documents.length;
  const grades = new Set(ds.qrels.map((r) => r.score));
  report.notes.push(`IDs read as strings (int64 → decimal); qrels.score ${grades.size > 1 ? `graded (${[...grades].sort((a, b) => a - b).join(', ')})` : `all ${[...grades][0] ?? 1}`}; graded qrels kept in .spanproof/qrels.txt for the ID metrics.`);
  report.notes.push('each passage is one document; relevant passages are whole-passage evidence, alternatives (match "any") when a query has several.');
  if (ds.missing.length) report.notes.push(`absent (optional): ${ds.missing.join(', ')} — questions have no reference answers.`);
  for (const [k, what] of [['qrels-unknown-passage', 'qrels rows name a pid not in corpus.parquet'], ['qrels-unknown-query', 'qrels rows name a qid not in queries.parquet'], ['empty-passage', 'passages have empty text (no document written)'], ['duplicate-passage-id', 'corpus rows repeat an id (first kept)'], ['query-without-answer', 'queries have no answer through qas.parquet']] as const) {
    if (report.counts[k]) report.notes.push(`${report.counts[k]} ${what}.`);
  }
  return { groundTruth: { spanproof: 1, corpus: 'weknora', questions }, documents, report, qrels: graded };
}
