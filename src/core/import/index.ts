/**
 * Importers (SPEC §13, §11 `import`): readers for the datasets other evaluators use, each turning its
 * rows into Spanproof ground truth (§3) plus a conversion report. One file per format; this file is
 * the public face. Scorers of answer-level datasets live in ../score, the seed systems' own metric
 * conventions (WeKnora, Pathway CUAD) in ../compat, fuzzy text alignment in ../align.
 *
 * Units: every offset written into a ground-truth file is a UTF-16 code unit index (JavaScript string
 * index). Python datasets (Chroma, SQuAD) count code points; they are converted with
 * {@link codePointToUtf16}. Latencies are milliseconds.
 *
 * Nothing is dropped silently: every input row is either converted or listed in
 * `report.rejected` with its row number (1-based, as the user's editor shows it) and a reason.
 * An import that converts no row writes nothing ({@link writeImport} throws bad-input).
 */
import type { GroundTruthFile } from '../groundtruth';
import type { MergeOutcome } from './merge';

/** The importers of `spanproof import`. */
export const IMPORT_FORMATS = ['weknora', 'pathway-cuad', 'ragas', 'chroma', 'squad'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];


/** One rejected input row: where it is, which item, and why. */
export interface RejectedRow {
  /** 1-based row/line number in the input file (CSV/TSV data rows count from 2: row 1 is the header), or a path such as `data[3].paragraphs[2].qas[0]`. */
  row: number | string;
  /** The dataset's own id of the item, when it has one. */
  id?: string;
  /** File the row came from (relative to the input path when it is a folder). */
  file?: string;
  reason: string;
}

/** The conversion report every importer returns, printed by the CLI and written as `.spanproof/import-report.json`. */
export interface ConversionReport {
  format: ImportFormat;
  /** The input path as given. */
  input: string;
  /** Data rows (questions/items) read from the input. */
  rowsRead: number;
  /** Questions written to the ground truth. `converted + rejected.length === rowsRead` always. */
  converted: number;
  rejected: RejectedRow[];
  /** Documents the import writes or references (sources relative to the workspace). */
  documents: number;
  /** Evidence items aligned fuzzily (importers only, SPEC §3.2): similarity per item. */
  fuzzy: Array<{ id: string; evidence: number; similarity: number; source: string }>;
  /** Counts by kind, e.g. `{"unanswerable": 333, "duplicate-reference": 4}`. */
  counts: Record<string, number>;
  /** Plain-language notes on conversions made (e.g. "offsets converted from code points"). */
  notes: string[];
}

/** A document the dataset carries (or an external one copied into the workspace). */
export interface ImportedDocument {
  /** POSIX path relative to the workspace. */
  source: string;
  text: string;
  /** Where the text came from, when it is a copy of an external file. */
  from?: string;
}

/** What an importer produces; {@link writeImport} puts it on disk. */
export interface ImportResult {
  groundTruth: GroundTruthFile;
  documents: ImportedDocument[];
  report: ConversionReport;
  /** Graded qrels (WeKnora): qid → document source → relevance grade; written as TREC qrels `.spanproof/qrels.txt`. */
  qrels?: Map<string, Map<string, number>>;
  /** Format-specific extra outputs written as JSON under `.spanproof/` (e.g. the CUAD answer table). */
  extras?: Record<string, unknown>;
}

export interface ImportOptions {
  /** The corpus root the ground truth will belong to (default: current directory). */
  workspace: string;
  /** Pathway CUAD: the folder holding the contract texts (`<file stem>.txt` / `.md` or the exact `file` name). */
  documents?: string;
  /** Pathway CUAD: minimum similarity of a fuzzy alignment (0–1, default 0.9); below → rejected. */
  minSimilarity?: number;
}

/** What {@link writeImport} did on disk. */
export interface WriteImportOutcome {
  groundTruthFile: string;
  /** Path of the backup of a previous ground-truth file, when one existed and differed. */
  backup: string | null;
  /** True when the ground truth already on disk was identical: nothing written, no backup. */
  groundTruthUnchanged: boolean;
  /** With `existing: 'merge'` over a different file: the imported ids added, unchanged, in conflict. */
  merge?: MergeOutcome;
  reportFile: string;
  qrelsFile: string | null;
  documentsWritten: number;
  documentsUnchanged: number;
  extraFiles: string[];
}

export { codePointToUtf16, utf16ToCodePoint } from './offsets';
export { parsePythonList } from './python-literal';
export { importChroma } from './chroma';
export { importSquad } from './squad';
export { importRagas, parseRagasJsonl, type RagasRow } from './ragas';
export { importWeknora, readWeknoraFolder, weknoraId, weknoraPassageSource, type WeknoraDataset } from './weknora';
export { importPathwayCuad, readCuadTsv, cuadAnswerLabel, type CuadTable } from './pathway-cuad';
export { runImport, writeImport, nothingConvertedError, questionsAtRisk } from './write';
export { mergeGroundTruth, existingGroundTruthError, type ExistingGroundTruth, type MergeOutcome } from './merge';
export { guessDatasetFormat, suggestCommand, type DatasetGuess } from './detect';
