/**
 * Putting an import on disk (SPEC §11 `import`, §16): documents under the workspace (never
 * overwriting a different existing file), the ground truth to the workspace's ground-truth file
 * (`spanproof.groundTruthPath`, default `.spanproof/groundtruth.json`; atomic; an existing file is first copied to a `.bak` that does not overwrite an older backup), the graded
 * qrels as TREC text, and the conversion report as `.spanproof/import-report.json` — every one of
 * them confined to the workspace by its real path.
 */
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { SpanproofError } from '../errors';
import { errnoCode, outputPathError } from '../fsErrors';
import { MAX_DATA_FILE_BYTES, readRegularTextSync } from '../files/read';
import { appendToQuestions, orderedQuestion, parseGroundTruth, replaceGroundTruthText, serializeGroundTruth, type GroundTruthFile } from '../groundtruth';
import { existingGroundTruthError, mergeGroundTruth, type ExistingGroundTruth, type MergeOutcome } from './merge';
import { writeFileAtomic as writeAtomicRaw } from '../files';
import { DEFAULT_SETTINGS } from '../settings';
import { importChroma } from './chroma';
import { importPathwayCuad } from './pathway-cuad';
import { importRagas } from './ragas';
import { importSquad } from './squad';
import { importWeknora } from './weknora';
import { commonestReason } from './common';
import { suggestCommand } from './detect';
import type { ImportFormat, ImportOptions, ImportResult, WriteImportOutcome } from './index';
import { makeDirs } from '../files/dirs';
import { resolveWritableInside } from '../corpus/confine';

/**
 * Runs the importer for `format` on `input` (a file, or the Parquet folder for WeKnora).
 * @throws SpanproofError('bad-input') for an unknown format; importer errors otherwise.
 */
export async function runImport(format: ImportFormat, input: string, opts: ImportOptions): Promise<ImportResult> {
  switch (format) {
    case 'chroma': return importChroma(input, opts);
    case 'squad': return importSquad(input, opts);
    case 'ragas': return importRagas(input, opts);
    case 'weknora': return importWeknora(input, opts);
    case 'pathway-cuad': return importPathwayCuad(input, opts);
    default:
      throw new SpanproofError('bad-input', `unknown import format "${String(format)}".`, { field: '<format>', fix: 'use one of weknora, pathway-cuad, ragas, chroma, squad.' });
  }
}

/** Atomic write that creates the parent folder; false (nothing written) when the file already holds `data`. */
function writeFileAtomic(file: string, data: string): boolean {
  if (textOnDisk(file, 'this file') === data) return false;
  makeDirs(path.dirname(file));
  writeAtomicRaw(file, data);
  return true;
}

/**
 * The text of `file`, or null when there is none — read with src/core/files/read.ts's checks, so a
 * named pipe or a link to a device where the import writes is refused (exit 2), not waited on forever.
 */
function textOnDisk(file: string, what: string): string | null {
  try {
    return readRegularTextSync(file, MAX_DATA_FILE_BYTES, { what });
  } catch (e) {
    const code = errnoCode(e);
    if (code === 'ENOENT' || code === 'ENOTDIR') return null; // no file there (a part of the path is a file: said when writing)
    throw e;
  }
}

const gtText = (file: string): string | null => textOnDisk(file, 'the ground-truth file');

/**
 * The error for an import that converted no row (SPEC §11: nothing is written then): names the input,
 * the count and the commonest rejection reason; the fix names the command the file looks like it is
 * for (src/core/import/detect.ts) when that is another one.
 */
export function nothingConvertedError(result: ImportResult): SpanproofError {
  const r = result.report;
  const top = commonestReason(r.rejected);
  const why = r.rowsRead === 0 ? 'the input has no data rows' : `${r.rejected.length} of ${r.rowsRead} rows rejected${top ? ` (most often: ${top})` : ''}`;
  return new SpanproofError('bad-input', `import ${r.format}: no question converted — ${why}; nothing was written.`, {
    file: r.input,
    fix: suggestCommand(r.input, `spanproof import ${r.format}`, `check that this is a ${r.format} dataset and read the rejection reasons above${r.format === 'pathway-cuad' || r.format === 'ragas' ? ' (is --documents the folder with the source texts?)' : ''}.`),
  });
}

/**
 * Writes `result` under `workspace`. Document paths are checked first, so nothing is written when a
 * document would overwrite a different existing file.
 * An identical re-import leaves the ground truth (and its backups) alone. An existing ground truth
 * with a question the import would lose or change is refused (`opts.existing` 'refuse', the default: nothing written),
 * replaced after a backup ('replace') or merged by id ('merge', {@link mergeGroundTruth}) — #16 item 8.
 * `opts.groundTruthFile` is the workspace's ground-truth file (absolute, or relative to `workspace`;
 * default `.spanproof/groundtruth.json`) — the CLI passes the configured `spanproof.groundTruthPath`,
 * so the import is guarded by, and lands in, the file validate and run read (fresh-user item 10).
 * @throws SpanproofError('bad-input') when the workspace's ground truth would be replaced under
 *   'refuse' ({@link existingGroundTruthError}; nothing written), when no row converted ({@link nothingConvertedError}; nothing
 *   written), when a different file exists where a document goes (fix: import into an empty folder),
 *   when a path it writes leads out of the workspace ({@link resolveWritableInside}; nothing written),
 *   or when the workspace cannot be written (EACCES, EROFS, ENOTDIR…: names the path).
 */
export async function writeImport(result: ImportResult, workspace: string, opts: { existing?: ExistingGroundTruth; groundTruthFile?: string } = {}): Promise<WriteImportOutcome> {
  if (result.report.converted === 0 || result.groundTruth.questions.length === 0) throw nothingConvertedError(result);
  const root = path.resolve(workspace);
  const targets = importTargets(result, root, opts.groundTruthFile ?? DEFAULT_SETTINGS.groundTruthPath); // refuses a path that leaves the workspace before anything is read or written
  const current = gtText(targets.groundTruth);
  const plan = groundTruthPlan(targets.groundTruth, current, result, opts.existing ?? 'refuse'); // refuses before anything is written
  try {
    return await writeImportFiles(result, targets, current, plan);
  } catch (e) {
    const where = (e as { path?: string }).path ?? (e as { file?: string }).file ?? root;
    throw outputPathError(e, where, 'the import into the workspace', 'import into a folder you can write to (--workspace DIR).');
  }
}

/** Every file an import writes, as absolute paths inside the workspace. */
interface ImportTargets { root: string; stateDir: string; groundTruth: string; documents: string[]; qrels: string; extras: Array<[name: string, file: string]>; report: string }

/**
 * The paths {@link writeImport} writes, each confined to the workspace by its real path — the rule the
 * readers use (fresh-user pass item 8: `ws/squad -> ../outside` put the documents outside,
 * `.spanproof -> ../outside` the ground truth and report, a linked groundtruth.json with --replace
 * replaced the outside file).
 * @throws SpanproofError('bad-input') naming the path and the link ({@link resolveWritableInside}).
 */
function importTargets(result: ImportResult, root: string, groundTruthFile: string): ImportTargets {
  const inside = (rel: string, what: string): string => resolveWritableInside(root, rel, what, 'the workspace', ', or import into another --workspace; nothing was written.');
  const stateRel = path.dirname(DEFAULT_SETTINGS.groundTruthPath);
  const documents = result.documents.map((d) => {
    const abs = path.resolve(root, d.source);
    const rel = path.relative(root, abs);
    if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) throw new SpanproofError('internal', `document path escapes the workspace: ${d.source}`, { file: abs });
    return inside(d.source, `document ${d.source}`);
  });
  return {
    root,
    stateDir: inside(stateRel, `the import's files (${stateRel}/)`),
    groundTruth: inside(groundTruthFile, 'the ground truth'),
    documents,
    qrels: inside(path.join(stateRel, 'qrels.txt'), 'qrels.txt'),
    extras: Object.keys(result.extras ?? {}).map((name) => [name, inside(path.join(stateRel, `import-${name}.json`), `import-${name}.json`)]),
    report: inside(path.join(stateRel, 'import-report.json'), 'import-report.json'),
  };
}

/** True when replacing `mine` by `imported` loses or changes a question of `mine` (layout alone does not count). */
function wouldLose(mine: GroundTruthFile, imported: GroundTruthFile): boolean {
  const theirs = new Map(imported.questions.map((q) => [q.id, q]));
  return mine.questions.some((q) => !isDeepStrictEqual(q, theirs.get(q.id)));
}

/**
 * How many questions of the workspace's ground truth a plain import of `result` would lose or change
 * (0: no file, identical, or layout only) — the editor asks Replace / Merge when it is not 0.
 * `groundTruthFile` as for {@link writeImport}.
 * @throws SpanproofError('bad-input') when the existing file is not a valid ground truth.
 */
export function questionsAtRisk(result: ImportResult, workspace: string, groundTruthFile: string = DEFAULT_SETTINGS.groundTruthPath): number {
  const gtFile = path.resolve(workspace, groundTruthFile);
  const current = gtText(gtFile);
  if (current === null) return 0;
  const mine = parseGroundTruth(current, gtFile);
  const theirs = new Map(result.groundTruth.questions.map((q) => [q.id, q]));
  return mine.questions.filter((q) => !isDeepStrictEqual(q, theirs.get(q.id))).length;
}

/**
 * What goes into the ground-truth file, as text: the imported ground truth serialised (no file, an
 * empty one, `replace`, or identical), or — `merge` — the file's own text with the new questions
 * appended as one text insertion each ({@link appendToQuestions}, as drafts are), so every existing
 * byte stays as written: `__proto__` keys, integers beyond 2^53, `1.10`, indentation and key order
 * (#16 items 7/8; `validate --fix` keeps them the same way). Throws the refusal for a different
 * existing file under `refuse`.
 */
function groundTruthPlan(gtFile: string, current: string | null, result: ImportResult, existing: ExistingGroundTruth): { text: string; merge?: MergeOutcome } {
  const imported = serializeGroundTruth(result.groundTruth, { like: current });
  if (current === null || imported === current) return { text: imported };
  const mine = parseGroundTruth(current, gtFile); // a damaged file is bad input naming it, whatever the mode
  if (existing === 'merge') {
    const { merged, merge } = mergeGroundTruth(mine, result.groundTruth);
    let text = current;
    for (const q of merged.questions.slice(mine.questions.length)) text = appendToQuestions(text, orderedQuestion(q), gtFile);
    parseGroundTruth(text, gtFile);
    return { text, merge };
  }
  if (existing === 'refuse' && wouldLose(mine, result.groundTruth)) throw existingGroundTruthError(gtFile, mine.questions.length);
  return { text: imported };
}

async function writeImportFiles(result: ImportResult, targets: ImportTargets, current: string | null, plan: { text: string; merge?: MergeOutcome }): Promise<WriteImportOutcome> {
  const plans: Array<{ abs: string; text: string; write: boolean }> = [];
  for (const [i, d] of result.documents.entries()) {
    const abs = targets.documents[i];
    let write = true;
    const onDisk = textOnDisk(abs, `the file where document "${d.source}" goes`);
    if (onDisk !== null) {
      const cur = onDisk.replace(/^\uFEFF/, '');
      if (cur !== d.text) {
        throw new SpanproofError('bad-input', `a different file already exists where the import would write document "${d.source}"; nothing was written.`, {
          file: abs, fix: 'import into an empty folder (--workspace), or move that file away.',
        });
      }
      write = false;
    }
    plans.push({ abs, text: d.text, write });
  }
  // the .spanproof folder first: an unwritable workspace fails before any document is written
  makeDirs(targets.stateDir);
  let written = 0;
  for (const p of plans) {
    if (!p.write) continue;
    writeFileAtomic(p.abs, p.text);
    written++;
  }
  const gtFile = targets.groundTruth;
  let backup: string | null = null;
  // an identical re-import (or a merge that adds nothing) writes nothing and makes no backup
  const groundTruthUnchanged = current !== null && plan.text === current;
  if (!groundTruthUnchanged) backup = (await replaceGroundTruthText(gtFile, () => plan.text, { expectedContent: current })).backup ?? null;
  let qrelsFile: string | null = null;
  if (result.qrels) {
    qrelsFile = targets.qrels;
    const lines: string[] = [];
    for (const [qid, docs] of result.qrels) for (const [doc, rel] of docs) lines.push(`${qid} 0 ${doc} ${rel}`);
    writeFileAtomic(qrelsFile, lines.join('\n') + (lines.length ? '\n' : ''));
  }
  const extraFiles: string[] = [];
  for (const [name, f] of targets.extras) {
    writeFileAtomic(f, JSON.stringify(result.extras![name], null, 2) + '\n');
    extraFiles.push(f);
  }
  const reportFile = targets.report;
  writeFileAtomic(reportFile, JSON.stringify(result.report, null, 2) + '\n');
  return { groundTruthFile: gtFile, backup, groundTruthUnchanged, ...(plan.merge ? { merge: plan.merge } : {}), reportFile, qrelsFile, documentsWritten: written, documentsUnchanged: plans.length - written, extraFiles };
}
