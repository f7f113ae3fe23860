/**
 * Putting an import on disk (SPEC §11 `import`, §16): documents under the workspace (never
 * overwriting a different existing file), the ground truth to `.spanproof/groundtruth.json` (atomic;
 * an existing file is first copied to a `.bak` that does not overwrite an older backup), the graded
 * qrels as TREC text, and the conversion report as `.spanproof/import-report.json`.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { SpanproofError } from '../errors';
import { writeGroundTruth } from '../groundtruth';
import { writeFileAtomic as writeAtomicRaw } from '../runs';
import { DEFAULT_SETTINGS } from '../../shared/settings';
import { importChroma } from './chroma';
import { importPathwayCuad } from './pathway-cuad';
import { importRagas } from './ragas';
import { importSquad } from './squad';
import { importWeknora } from './weknora';
import type { ImportFormat, ImportOptions, ImportResult, WriteImportOutcome } from './index';

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

/** Atomic write that creates the parent folder. */
function writeFileAtomic(file: string, data: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeAtomicRaw(file, data);
}

function freeBackupName(file: string): string {
  if (!existsSync(`${file}.bak`)) return `${file}.bak`;
  for (let n = 1; ; n++) if (!existsSync(`${file}.bak.${n}`)) return `${file}.bak.${n}`;
}

/**
 * Writes `result` under `workspace`. Document paths are checked first, so nothing is written when a
 * document would overwrite a different existing file.
 * @throws SpanproofError('bad-input') when a document path escapes the workspace or a different file
 *   exists there (fix: import into an empty folder).
 */
export async function writeImport(result: ImportResult, workspace: string): Promise<WriteImportOutcome> {
  const root = path.resolve(workspace);
  const plans: Array<{ abs: string; text: string; write: boolean }> = [];
  for (const d of result.documents) {
    const abs = path.resolve(root, d.source);
    const rel = path.relative(root, abs);
    if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) throw new SpanproofError('internal', `document path escapes the workspace: ${d.source}`, { file: abs });
    let write = true;
    if (existsSync(abs)) {
      const cur = readFileSync(abs, 'utf8').replace(/^\uFEFF/, '');
      if (cur !== d.text) {
        throw new SpanproofError('bad-input', `a different file already exists where the import would write document "${d.source}"; nothing was written.`, {
          file: abs, fix: 'import into an empty folder (--workspace), or move that file away.',
        });
      }
      write = false;
    }
    plans.push({ abs, text: d.text, write });
  }
  let written = 0;
  for (const p of plans) {
    if (!p.write) continue;
    writeFileAtomic(p.abs, p.text);
    written++;
  }
  const spDir = path.join(root, path.dirname(DEFAULT_SETTINGS.groundTruthPath));
  const gtFile = path.join(root, DEFAULT_SETTINGS.groundTruthPath);
  let backup: string | null = null;
  if (existsSync(gtFile)) {
    backup = freeBackupName(gtFile);
    copyFileSync(gtFile, backup);
  }
  await writeGroundTruth(gtFile, result.groundTruth);
  let qrelsFile: string | null = null;
  if (result.qrels) {
    qrelsFile = path.join(spDir, 'qrels.txt');
    const lines: string[] = [];
    for (const [qid, docs] of result.qrels) for (const [doc, rel] of docs) lines.push(`${qid} 0 ${doc} ${rel}`);
    writeFileAtomic(qrelsFile, lines.join('\n') + (lines.length ? '\n' : ''));
  }
  const extraFiles: string[] = [];
  for (const [name, value] of Object.entries(result.extras ?? {})) {
    const f = path.join(spDir, `import-${name}.json`);
    writeFileAtomic(f, JSON.stringify(value, null, 2) + '\n');
    extraFiles.push(f);
  }
  const reportFile = path.join(spDir, 'import-report.json');
  writeFileAtomic(reportFile, JSON.stringify(result.report, null, 2) + '\n');
  return { groundTruthFile: gtFile, backup, reportFile, qrelsFile, documentsWritten: written, documentsUnchanged: plans.length - written, extraFiles };
}
