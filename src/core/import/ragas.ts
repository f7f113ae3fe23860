/**
 * RAGAS `EvaluationDataset` JSONL (docs.ragas.io, SingleTurnSample): one object per line with
 * `user_input`, `reference` (answer), `reference_contexts` (strings), and optionally `response`,
 * `retrieved_contexts`. RAGAS contexts are texts, not positions, so:
 * - with `--documents DIR`, each reference context is aligned to the documents of DIR (exact, else
 *   fuzzy with its similarity reported; below `minSimilarity` → the row is rejected), and the sources
 *   are those documents;
 * - without, every distinct reference context becomes one document
 *   `ragas/<file stem>/ctx-NNN.txt` and its whole text is the evidence (like WeKnora passages).
 * `response` and `retrieved_contexts` are kept on the question (`response`, `retrievedContexts`) for
 * `spanproof score ragas`.
 */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { SpanproofError } from '../errors';
import { isInside } from '../corpus/confine';
import { parseJsonLines } from '../files';
import { makeSelector, type EvidenceSelector, type Question } from '../groundtruth';
import { alignExcerpt, type Alignment, type AlignmentRefused } from '../align/align';
import { emptyReport, placeExternal, readTextFile, requirePath, slug } from './common';
import type { ImportedDocument, ImportOptions, ImportResult } from './index';

export interface RagasRow {
  line: number;
  user_input: string;
  reference?: string;
  reference_contexts: string[];
  response?: string;
  retrieved_contexts?: string[];
}

/**
 * Parses RAGAS JSONL text. Lines that are not valid rows come back in `bad` with the reason; blank
 * lines are skipped (they are not rows).
 */
export function parseRagasJsonl(text: string): { rows: RagasRow[]; bad: Array<{ line: number; reason: string }>; read: number } {
  const rows: RagasRow[] = [];
  const bad: Array<{ line: number; reason: string }> = [];
  let read = 0;
  parseJsonLines(text).forEach((l) => {
    read++;
    const line = l.line;
    if (l.error !== undefined) return void bad.push({ line, reason: l.error });
    const o = l.value as Record<string, unknown>;
    if (typeof o !== 'object' || o === null || Array.isArray(o)) return void bad.push({ line, reason: 'not a JSON object' });
    if (typeof o.user_input !== 'string' || !o.user_input.trim()) return void bad.push({ line, reason: 'missing "user_input" (the question)' });
    const strs = (k: string): string[] | undefined | null => {
      const v = o[k];
      if (v === undefined || v === null) return undefined;
      return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null;
    };
    const rc = strs('reference_contexts');
    const rt = strs('retrieved_contexts');
    if (rc === null) return void bad.push({ line, reason: '"reference_contexts" is not a list of strings' });
    if (rt === null) return void bad.push({ line, reason: '"retrieved_contexts" is not a list of strings' });
    for (const k of ['reference', 'response']) if (o[k] !== undefined && o[k] !== null && typeof o[k] !== 'string') return void bad.push({ line, reason: `"${k}" is not a string` });
    rows.push({ line, user_input: o.user_input, reference: (o.reference as string) ?? undefined, reference_contexts: rc ?? [], response: (o.response as string) ?? undefined, retrieved_contexts: rt });
  });
  return { rows, bad, read };
}

/**
 * The text documents under `dir` (sorted walk, hidden names skipped), confined like the corpus loader
 * (#16 items 4, 15): an entry whose real path leaves `dir` (a symbolic link out) is not read but
 * listed in `outside`; a folder already walked (a link loop) is not walked again; a broken link is
 * skipped.
 */
function listDocuments(dir: string): { files: string[]; outside: string[] } {
  const realRoot = realpathSync(dir);
  const seen = new Set<string>();
  const files: string[] = [];
  const outside: string[] = [];
  const walk = (d: string, real: string): void => {
    if (seen.has(real)) return;
    seen.add(real);
    for (const name of readdirSync(d).sort()) {
      if (name.startsWith('.')) continue;
      const p = path.join(d, name);
      let rp: string;
      let isDir: boolean;
      try {
        rp = realpathSync(p);
        isDir = statSync(rp).isDirectory();
      } catch {
        continue; // a broken link or a loop of links
      }
      if (!isInside(realRoot, rp)) outside.push(path.relative(dir, p));
      else if (isDir) walk(p, rp);
      else if (/\.(md|mdx|markdown|txt|rst|adoc)$/i.test(name)) files.push(p);
    }
  };
  walk(dir, realRoot);
  return { files, outside };
}

/**
 * Imports a RAGAS JSONL file.
 * @throws SpanproofError('not-found') for a missing file or --documents folder.
 */
export function importRagas(file: string, opts: ImportOptions): ImportResult {
  requirePath(file, false, 'pass the path of a RAGAS JSONL file.');
  if (opts.documents) requirePath(opts.documents, true, 'pass the folder holding the source documents with --documents.');
  const report = emptyReport('ragas', file);
  const { rows, bad, read } = parseRagasJsonl(readTextFile(file, 'RAGAS JSONL'));
  report.rowsRead = read;
  for (const b of bad) report.rejected.push({ row: b.line, reason: b.reason });
  const stem = slug(path.basename(file).replace(/\.jsonl?$/i, ''), 60);
  const documents: ImportedDocument[] = [];
  const ctxDoc = new Map<string, string>();
  const listed = opts.documents ? listDocuments(opts.documents) : { files: [], outside: [] };
  const docs = listed.files.map((p) => {
    const text = readTextFile(p, 'document');
    const placed = placeExternal(opts.workspace, p, `documents/${path.relative(opts.documents!, p).split(path.sep).join('/')}`, text);
    return { text, source: placed.source, copy: placed.copy };
  });
  const used = new Set<string>();
  const questions: Question[] = [];
  const minSim = opts.minSimilarity ?? 0.9;
  for (const r of rows) {
    const id = `${stem}-${String(r.line).padStart(3, '0')}`;
    if (r.reference_contexts.length === 0) {
      report.rejected.push({ row: r.line, id, reason: 'no "reference_contexts": nothing to use as evidence' });
      continue;
    }
    const evidence: EvidenceSelector[] = [];
    let reason: string | null = null;
    for (const [k, ctx] of r.reference_contexts.entries()) {
      if (!ctx.trim()) { reason = `reference_contexts[${k}] is empty`; break; }
      if (opts.documents) {
        let best: { doc: (typeof docs)[number]; a: Alignment } | null = null;
        let refused: AlignmentRefused | null = null;
        for (const d of docs) {
          const a = alignExcerpt(d.text, ctx);
          if (a && 'refused' in a) { refused = a; continue; }
          if (a && (!best || a.similarity > best.a.similarity)) best = { doc: d, a };
          if (a?.method === 'exact') break;
        }
        if (!best || best.a.similarity < minSim) { reason = `reference_contexts[${k}] not found in the documents${best ? ` (best similarity ${best.a.similarity} < ${minSim} in ${best.doc.source})` : refused ? ` (${refused.detail})` : ''}`; break; }
        if (best.a.method !== 'exact') report.fuzzy.push({ id, evidence: evidence.length, similarity: best.a.similarity, source: best.doc.source });
        used.add(best.doc.source);
        evidence.push(makeSelector(best.doc.text, best.doc.source, best.a.start, best.a.end));
      } else {
        const body = ctx.trim();
        let source = ctxDoc.get(body);
        if (!source) {
          source = `ragas/${stem}/ctx-${String(ctxDoc.size + 1).padStart(3, '0')}.txt`;
          ctxDoc.set(body, source);
          documents.push({ source, text: `${body}\n` });
        }
        evidence.push({ source, exact: body, start: 0, end: body.length });
      }
    }
    if (reason) { report.rejected.push({ row: r.line, id, reason }); continue; }
    questions.push({
      id, question: r.user_input.trim(), ...(r.reference ? { answer: r.reference } : {}), evidence, match: 'all', tags: ['ragas'],
      ...(r.response !== undefined ? { response: r.response } : {}), ...(r.retrieved_contexts ? { retrievedContexts: r.retrieved_contexts } : {}),
    });
    report.converted++;
  }
  if (opts.documents) {
    for (const d of docs) if (d.copy && used.has(d.source)) documents.push(d.copy);
    report.documents = used.size;
    report.notes.push(`reference contexts aligned to the documents of ${opts.documents} (exact first; fuzzy alignments listed with their similarity, minimum ${minSim}).`);
    if (listed.outside.length) report.notes.push(`${listed.outside.length} link(s) under --documents lead outside it and were not read: ${listed.outside.slice(0, 5).join(', ')}${listed.outside.length > 5 ? ', …' : ''}.`);
  } else {
    report.documents = documents.length;
    report.notes.push(`no --documents: each of the ${documents.length} distinct reference contexts became a document under ragas/${stem}/ and is whole-passage evidence (retrieval over these passages only, without distractors — pass --documents to align to the real sources).`);
  }
  if (bad.length) report.notes.push(`${bad.length} line(s) could not be read as RAGAS rows (listed in rejected).`);
  if (!rows.length && !bad.length) throw new SpanproofError('bad-input', 'the file has no rows.', { file, fix: 'one JSON object per line with user_input, reference, reference_contexts.' });
  return { groundTruth: { spanproof: 1, corpus: `ragas:${stem}`, questions }, documents, report };
}
