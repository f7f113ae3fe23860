/**
 * Chroma chunking-evaluation CSV (github.com/brandonstarxel/chunking_evaluation,
 * `general_evaluation_data/questions_df.csv`): columns `question, references, corpus_id`;
 * `references` is a JSON array of `{content, start_index, end_index}` with offsets in **Python code
 * points** into `corpora/<corpus_id>.md` beside the CSV. Each question becomes one ground-truth
 * question with one evidence item per reference (`match: "all"`, as their recall counts every
 * reference), offsets converted to UTF-16 and prefix/suffix taken from the document.
 *
 * Where `text[start:end] !== content` (an offset that points elsewhere, e.g. at the first occurrence
 * of a repeated sentence), the reference is aligned by its content (exact, else fuzzy — reported).
 */
import * as path from 'node:path';
import { parse } from 'csv-parse/sync';
import { SpanproofError } from '../errors';
import { makeSelector, type EvidenceSelector, type Question } from '../groundtruth';
import { alignExcerpt } from '../align/align';
import { resolveInside } from '../corpus/confine';
import { bump, emptyReport, placeExternal, readTextFile, requirePath } from './common';
import { codePointToUtf16 } from './offsets';
import type { ConversionReport, ImportedDocument, ImportOptions, ImportResult } from './index';

interface ChromaRef { content: string; start_index: number; end_index: number }

/** One corpus file: its text, its source in the workspace, the code point → UTF-16 offset map and, when it lies outside the workspace, the copy to write (only once a row citing it converts). */
interface ChromaCorpus { text: string; source: string; toU16: (cp: number) => number | undefined; copy: ImportedDocument | null }

/**
 * Reads `corpora/<corpusId>.md` under `datasetDir` — confined to that folder by the corpus loader's
 * real-path rule (fresh-user pass item 2: a dataset unpacked from a tar/zip may hold a link to
 * `~/.ssh/id_rsa`), so a link out of it is never read — or the reason it cannot be read.
 */
function readCorpus(datasetDir: string, corpusId: string, workspace: string): ChromaCorpus | { error: string } {
  const rel = `corpora/${corpusId}.md`;
  let file: string;
  try {
    file = resolveInside(datasetDir, rel, rel, 'the dataset folder');
  } catch {
    return { error: `${rel} links outside the dataset folder; not read` };
  }
  try {
    const t = readTextFile(file, 'Chroma corpus');
    const placed = placeExternal(workspace, file, rel, t);
    return { text: t, source: placed.source, toU16: codePointToUtf16(t), copy: placed.copy };
  } catch (e) {
    return { error: `corpus ${corpusId}: ${(e as Error).message}` };
  }
}

/**
 * A row's references as evidence selectors: the cited code-point offsets when they hold the content,
 * else the content aligned in the corpus (similarity ≥ `minSimilarity`, counted as realigned);
 * duplicates dropped; an edge inside a \r\n pair widened to the pair. Returns the reason when a
 * reference is malformed or not found (the row is then rejected).
 */
function referencesToEvidence(refs: readonly ChromaRef[], corpus: ChromaCorpus, ctx: { id: string; corpusId: string; report: ConversionReport; minSimilarity: number }): EvidenceSelector[] | string {
  const { id, corpusId, report } = ctx;
  const evidence: EvidenceSelector[] = [];
  const seen = new Set<string>();
  for (const [k, ref] of refs.entries()) {
    if (typeof ref?.content !== 'string' || !Number.isInteger(ref.start_index) || !Number.isInteger(ref.end_index)) return `references[${k}] lacks content/start_index/end_index`;
    const s = corpus.toU16(ref.start_index);
    const e = corpus.toU16(ref.end_index);
    let span: { start: number; end: number };
    if (s !== undefined && e !== undefined && corpus.text.slice(s, e) === ref.content) span = { start: s, end: e };
    else {
      const a = alignExcerpt(corpus.text, ref.content);
      if (a && 'refused' in a) return `references[${k}] not found in corpora/${corpusId}.md at [${ref.start_index}, ${ref.end_index}); by its content: ${a.detail}`;
      if (!a || a.similarity < ctx.minSimilarity) return `references[${k}] not found in corpora/${corpusId}.md at [${ref.start_index}, ${ref.end_index}) nor by its content${a ? ` (best similarity ${a.similarity})` : ''}`;
      span = a;
      bump(report, 'offsets-realigned');
      if (a.method !== 'exact') report.fuzzy.push({ id, evidence: evidence.length, similarity: a.similarity, source: corpus.source });
    }
    const key = `${span.start}:${span.end}`;
    if (seen.has(key)) { bump(report, 'duplicate-reference'); continue; }
    seen.add(key);
    if (corpus.text.indexOf(ref.content) !== corpus.text.lastIndexOf(ref.content)) bump(report, 'repeated-text-reference');
    const sel = makeSelector(corpus.text, corpus.source, span.start, span.end);
    if (sel.start !== span.start || sel.end !== span.end) bump(report, 'widened-to-crlf'); // a span edge inside a \r\n pair takes the whole pair
    evidence.push(sel);
  }
  return evidence;
}

/**
 * Imports a Chroma `questions_df.csv`.
 * @param csvFile the CSV; the corpora are read from `<dir of csvFile>/corpora/<corpus_id>.md`
 * @throws SpanproofError('not-found') for a missing CSV; ('bad-input') when the header lacks a column.
 *   A bad row (invalid JSON, unknown corpus, offsets outside the text) is rejected in the report.
 */
export function importChroma(csvFile: string, opts: ImportOptions): ImportResult {
  requirePath(csvFile, false, 'pass the path of questions_df.csv.');
  const report = emptyReport('chroma', csvFile);
  const text = readTextFile(csvFile, 'Chroma questions CSV');
  let rows: string[][];
  try {
    rows = parse(text, { relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch (e) {
    throw new SpanproofError('bad-input', `not valid CSV: ${(e as Error).message}`, { file: csvFile, fix: 'export the file as RFC 4180 CSV.', cause: e });
  }
  const header = rows[0] ?? [];
  const col = (name: string): number => {
    const i = header.indexOf(name);
    if (i < 0) throw new SpanproofError('bad-input', `the header has no "${name}" column (found: ${header.join(', ')}).`, { file: csvFile, field: 'line 1', fix: 'the CSV needs the columns question, references, corpus_id.' });
    return i;
  };
  const [qi, ri, ci] = [col('question'), col('references'), col('corpus_id')];
  const datasetDir = path.dirname(csvFile);
  const corpora = new Map<string, ChromaCorpus | { error: string }>();
  const used = new Set<ChromaCorpus>(); // the corpora a converted question cites: only these are copied and counted
  const questions: Question[] = [];
  let astral = false;
  for (let r = 1; r < rows.length; r++) {
    const row = rows[r];
    const line = r + 1;
    report.rowsRead++;
    const id = `chroma-${String(r).padStart(3, '0')}`;
    const reject = (reason: string): void => void report.rejected.push({ row: line, id, reason });
    const question = (row[qi] ?? '').trim();
    const corpusId = (row[ci] ?? '').trim();
    if (!question) { reject('empty "question"'); continue; }
    if (!/^[\w.-]+$/.test(corpusId)) { reject(`corpus_id ${JSON.stringify(corpusId)} is not a file name`); continue; }
    let corpus = corpora.get(corpusId);
    if (!corpus) {
      corpus = readCorpus(datasetDir, corpusId, opts.workspace);
      if ('text' in corpus && /[\ud800-\udfff]/.test(corpus.text)) astral = true;
      corpora.set(corpusId, corpus);
    }
    if ('error' in corpus) { reject(corpus.error); continue; }
    let refs: ChromaRef[];
    try {
      refs = JSON.parse(row[ri] ?? '') as ChromaRef[];
      if (!Array.isArray(refs) || refs.length === 0) throw new Error('expected a non-empty JSON array');
    } catch (e) {
      reject(`"references" is not a JSON array of {content,start_index,end_index}: ${(e as Error).message}`);
      continue;
    }
    const evidence = referencesToEvidence(refs, corpus, { id, corpusId, report, minSimilarity: opts.minSimilarity ?? 0.9 });
    if (typeof evidence === 'string') { reject(evidence); continue; }
    questions.push({ id, question, evidence, match: 'all', tags: ['chroma', corpusId] });
    used.add(corpus);
    report.converted++;
  }
  const documents = [...used].flatMap((c) => (c.copy ? [c.copy] : []));
  report.documents = used.size;
  report.notes.push(astral ? 'start_index/end_index converted from Python code points to UTF-16 code units (some corpora contain characters outside the BMP).' : 'start_index/end_index are Python code points; converted to UTF-16 code units (identical here: the corpora have no characters outside the BMP).');
  if (report.counts['widened-to-crlf']) report.notes.push(`${report.counts['widened-to-crlf']} reference(s) began or ended inside a \\r\\n pair; the evidence takes the whole pair.`);
  if (documents.length) report.notes.push(`the corpora lie outside the workspace: copied ${documents.length} file(s) under corpora/ so sources stay relative to the workspace.`);
  if (report.counts['repeated-text-reference']) report.notes.push(`${report.counts['repeated-text-reference']} reference(s) quote text that occurs more than once in its corpus; prefix/suffix from the cited offsets pin the occurrence.`);
  return { groundTruth: { spanproof: 1, corpus: 'chroma', questions }, documents, report };
}
