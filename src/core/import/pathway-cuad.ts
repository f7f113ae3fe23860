/**
 * Pathway rag_evals' CUAD `labeled.tsv` (SEED-SYSTEMS.md §B.2): a tab-separated sheet with `file`
 * (the contract's PDF/DOCX name) and, per CUAD category, a clause column `<Cat>` holding the
 * Python repr of a list of verbatim excerpts and an answer column `<Cat>-Answer` (also spelled
 * `<Cat>- Answer`). Every (contract × clause category) cell is one row of the conversion report.
 *
 * Excerpts are parsed with a Python-literal parser (P10) and aligned to the contract text found in
 * `--documents DIR` (`<file>`, `<file stem>.txt`, `.md`): exact first, then whitespace/quote-insensitive,
 * then fuzzy (similarity reported; below `minSimilarity`, default 0.9, the excerpt is not evidence).
 * Excerpts shorter than 12 characters ("MA", "Company") cannot be evidence (SPEC §3.2 rule 5; P8);
 * they are listed in the `cuad` extra output. A cell whose excerpts all fail is rejected with the
 * reasons. Excerpts are alternatives (`match: "any"`), as Pathway's hit rule takes the best label.
 * The `-Answer` cell becomes the reference answer; empty/`[]`/`nan` become "no information found"
 * (Pathway's `CuadMissingData.ANSWER_LABEL`).
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'csv-parse/sync';
import { SpanproofError } from '../errors';
import { makeSelector, type EvidenceSelector, type Question } from '../groundtruth';
import { alignExcerpt } from '../align/align';
import { resolveInside } from '../corpus/confine';
import { bump, emptyReport, placeExternal, readTextFile, requirePath, slug } from './common';
import { parsePythonList } from './python-literal';
import type { ImportedDocument, ImportOptions, ImportResult } from './index';

export interface CuadTable {
  /** Clause categories (columns without `-Answer`, excluding `file`), in sheet order. */
  categories: string[];
  rows: Array<{ line: number; file: string; clauses: Record<string, string>; answers: Record<string, string> }>;
}

const ANSWER_COL = /\s*-\s*Answer$/;

/** Reads the TSV (no quoting: cells are taken verbatim between tabs). */
export function readCuadTsv(file: string): CuadTable {
  requirePath(file, false, 'pass the path of labeled.tsv.');
  const text = readTextFile(file, 'CUAD TSV'); // says itself why a file cannot be read
  let rows: string[][];
  try {
    rows = parse(text, { delimiter: '\t', quote: false, relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch (e) {
    throw new SpanproofError('bad-input', `not a readable TSV: ${(e as Error).message}`, { file, fix: 'export the sheet as tab-separated values.', cause: e });
  }
  const header = rows[0] ?? [];
  const fileCol = header.indexOf('file');
  if (fileCol < 0) throw new SpanproofError('bad-input', 'no "file" column.', { file, field: 'line 1', fix: 'the first row names the columns: file, <Category>, <Category>-Answer, …' });
  const categories: string[] = [];
  const answerCol = new Map<string, number>();
  header.forEach((h, i) => {
    if (i === fileCol) return;
    if (ANSWER_COL.test(h)) answerCol.set(h.replace(ANSWER_COL, '').trim(), i);
    else categories.push(h.trim());
  });
  return {
    categories,
    rows: rows.slice(1).map((r, k) => ({
      line: k + 2,
      file: (r[fileCol] ?? '').trim(),
      clauses: Object.fromEntries(categories.map((c) => [c, r[header.indexOf(c)] ?? ''])),
      answers: Object.fromEntries(categories.map((c) => [c, answerCol.has(c) ? (r[answerCol.get(c)!] ?? '') : ''])),
    })),
  };
}

/** The reference answer Pathway scores against: empty, `[]`, `()`, `nan` → "no information found". */
export function cuadAnswerLabel(cell: string): string {
  const t = cell.trim();
  return t === '' || t === '[]' || t === '()' || t.toLowerCase() === 'nan' ? 'no information found' : t;
}

/**
 * The contract text for a `file` cell under `dir`, confined to `dir` by the corpus loader's real-path
 * rule (#16 item 4): `{outside}` when the cell (`../…`, an absolute path) or a symbolic link leads out
 * of `dir` — then nothing is read; null when no candidate name exists.
 */
function findContract(dir: string, file: string): string | { outside: string } | null {
  const stem = file.replace(/\.(pdf|docx?|txt|md)$/i, '');
  for (const name of [file, `${stem}.txt`, `${stem}.md`, `${file}.txt`, `${file}.md`]) {
    let p: string;
    try {
      p = resolveInside(dir, name, `file ${JSON.stringify(file)}`, '--documents');
    } catch {
      return { outside: `file ${JSON.stringify(file)} is outside --documents (${dir}); not read` };
    }
    if (existsSync(p)) return p;
  }
  return null;
}

/**
 * The contract of a `file` cell: its text and workspace source (a copy placed into `documents` when
 * it lives outside the workspace), `{outside}` when the cell leads out of `--documents`, null when absent.
 */
function loadContract(dir: string, workspace: string, file: string, documents: ImportedDocument[]): { source: string; text: string } | { outside: string } | null {
  const p = file ? findContract(dir, file) : null;
  if (p === null || typeof p === 'object') return p;
  const text = readTextFile(p, 'contract');
  const placed = placeExternal(workspace, p, `cuad/${path.basename(p)}`, text);
  if (placed.copy) documents.push(placed.copy);
  return { source: placed.source, text };
}

/**
 * Imports Pathway's CUAD TSV.
 * @throws SpanproofError('bad-input') without `opts.documents` (the contract texts are needed to place excerpts).
 */
export function importPathwayCuad(tsvFile: string, opts: ImportOptions): ImportResult {
  const table = readCuadTsv(tsvFile);
  if (!opts.documents) {
    throw new SpanproofError('bad-input', 'the CUAD TSV holds excerpts, not the contracts; their text is needed to place the evidence.', {
      file: tsvFile, field: '--documents', fix: 'pass --documents DIR with the contract texts as <file stem>.txt (or .md).',
    });
  }
  requirePath(opts.documents, true, 'pass the folder holding the contract texts.');
  const minSim = opts.minSimilarity ?? 0.9;
  const report = emptyReport('pathway-cuad', tsvFile);
  const documents: ImportedDocument[] = [];
  const questions: Question[] = [];
  const dropped: Array<{ id: string; excerpt: string; reason: string }> = [];
  const answers: Array<{ id: string; file: string; category: string; answer: string; excerpts: number }> = [];
  const contracts = new Map<string, { source: string; text: string } | { outside: string } | null>();
  for (const row of table.rows) {
    let contract = contracts.get(row.file);
    if (contract === undefined) {
      contract = loadContract(opts.documents, opts.workspace, row.file, documents);
      contracts.set(row.file, contract);
    }
    for (const cat of table.categories) {
      report.rowsRead++;
      const id = `cuad-${String(row.line - 1).padStart(2, '0')}-${slug(cat, 40).toLowerCase()}`;
      const where = `line ${row.line}, column "${cat}"`;
      const reject = (reason: string): void => void report.rejected.push({ row: row.line, id, reason });
      const cell = row.clauses[cat].trim();
      const answer = cuadAnswerLabel(row.answers[cat]);
      answers.push({ id, file: row.file, category: cat, answer, excerpts: 0 });
      if (cell === '' || cell.toLowerCase() === 'nan') { bump(report, 'empty-cell'); reject('empty cell (P11: Pathway would turn it into [""])'); continue; }
      let excerpts: string[];
      try {
        excerpts = parsePythonList(cell, `${tsvFile}: ${where}`);
      } catch (e) {
        reject((e as Error).message);
        continue;
      }
      if (!excerpts.length) { bump(report, 'no-clause'); reject('[] — the contract has no such clause (not evidence)'); continue; }
      answers[answers.length - 1].excerpts = excerpts.length;
      if (contract && 'outside' in contract) { bump(report, 'contract-outside'); reject(contract.outside); continue; }
      if (!contract) { bump(report, 'contract-missing'); reject(`contract text for ${JSON.stringify(row.file)} not found in ${opts.documents}`); continue; }
      const evidence: EvidenceSelector[] = [];
      const reasons: string[] = [];
      const seen = new Set<string>();
      for (const ex of excerpts) {
        if (ex.trim().length < 12) {
          bump(report, 'short-excerpt');
          dropped.push({ id, excerpt: ex, reason: 'shorter than 12 characters' });
          reasons.push(`${JSON.stringify(ex)} is shorter than 12 characters`);
          continue;
        }
        const a = alignExcerpt(contract.text, ex);
        if (!a || 'refused' in a || a.similarity < minSim) {
          bump(report, 'excerpt-not-found');
          const r = a ? ('refused' in a ? a.detail : `best similarity ${a.similarity} < ${minSim}`) : 'not found';
          dropped.push({ id, excerpt: ex, reason: r });
          reasons.push(`${JSON.stringify(ex.length > 40 ? `${ex.slice(0, 39)}…` : ex)}: ${r}`);
          continue;
        }
        const key = `${a.start}:${a.end}`;
        if (seen.has(key)) { bump(report, 'duplicate-excerpt'); continue; }
        seen.add(key);
        if (a.method !== 'exact') report.fuzzy.push({ id, evidence: evidence.length, similarity: a.similarity, source: contract.source });
        bump(report, `aligned-${a.method}`);
        evidence.push({ ...makeSelector(contract.text, contract.source, a.start, a.end), ...(a.method !== 'exact' ? { similarity: a.similarity, quoted: ex } : {}) });
      }
      if (!evidence.length) { reject(`no excerpt could be placed: ${reasons.join('; ')}`); continue; }
      const stem = row.file.replace(/\.(pdf|docx?)$/i, '');
      questions.push({ id, question: `${cat}: what does the contract ${stem} say?`, answer, evidence, match: evidence.length > 1 ? 'any' : 'all', tags: ['cuad', cat], category: cat, file: row.file });
      report.converted++;
    }
  }
  report.documents = [...contracts.values()].filter((c) => c && !('outside' in c)).length;
  report.notes.push(`excerpts parsed as Python literals (P10) and aligned to the contract texts of ${opts.documents}: exact first, then whitespace/quote/case-insensitive, then fuzzy (minimum similarity ${minSim}, each listed).`);
  report.notes.push('excerpts of one cell are alternatives (match "any"), as Pathway\'s hit rule takes the best label; excerpts shorter than 12 characters are not evidence (listed in import-cuad.json).');
  report.notes.push('questions are templated from the category (Pathway\'s reworded questions live in its code, not in the TSV).');
  return { groundTruth: { spanproof: 1, corpus: 'cuad', questions }, documents, report, extras: { cuad: { answers, dropped } } };
}
