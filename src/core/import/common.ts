/**
 * Helpers shared by the importers: reading input files with errors that name the file and the fix,
 * the empty conversion report, and placing external documents relative to the workspace.
 */
import { existsSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { SpanproofError, isSpanproofError } from '../errors';
import { MAX_DATA_FILE_BYTES, readRegularFileSync } from '../files/read';
import { decodeDocument } from '../corpus';
import type { ConversionReport, ImportedDocument, ImportFormat } from './index';

/** Reads a UTF-8 text file (leading BOM removed, nothing else changed — the corpus rule of SPEC §1) with src/core/files/read.ts's checks (no FIFO, device, or file over 256 MiB). */
export function readTextFile(file: string, what = 'input file'): string {
  let bytes: Buffer;
  try {
    bytes = readRegularFileSync(file, MAX_DATA_FILE_BYTES, { what: `the ${what}` });
  } catch (e) {
    if (isSpanproofError(e)) throw e; // a FIFO, a device, too large: said by the reader
    const code = (e as NodeJS.ErrnoException).code;
    throw new SpanproofError(code === 'ENOENT' ? 'not-found' : 'bad-input', `cannot read the ${what} (${code ?? String(e)}).`, {
      file, fix: code === 'ENOENT' ? 'check the path.' : 'check that it is a readable file.', cause: e,
    });
  }
  const d = decodeDocument(path.basename(file), bytes);
  if (!('text' in d)) throw new SpanproofError('bad-input', `the ${what} is not UTF-8 text: ${d.detail}.`, { file, fix: 'save it as UTF-8.' });
  return d.text;
}

/** Throws not-found unless `p` exists (and is a directory when `dir`). */
export function requirePath(p: string, dir: boolean, fix: string): void {
  if (!existsSync(p)) throw new SpanproofError('not-found', `${dir ? 'folder' : 'file'} not found.`, { file: p, fix });
  if (dir !== statSync(p).isDirectory()) throw new SpanproofError('bad-input', dir ? 'expected a folder, got a file.' : 'expected a file, got a folder.', { file: p, fix });
}

export function emptyReport(format: ImportFormat, input: string): ConversionReport {
  return { format, input, rowsRead: 0, converted: 0, rejected: [], documents: 0, fuzzy: [], counts: {}, notes: [] };
}

export function bump(report: ConversionReport, key: string, by = 1): void {
  report.counts[key] = (report.counts[key] ?? 0) + by;
}

const toPosix = (p: string): string => p.split(path.sep).join('/');

/**
 * The source name of an external document `absFile` for a ground truth under `workspace`: its path
 * relative to the workspace when it lies inside; otherwise `fallback` (a relative POSIX path) and the
 * document is returned for copying there (SPEC §11: sources stay relative to the workspace).
 */
export function placeExternal(workspace: string, absFile: string, fallback: string, text: string): { source: string; copy: ImportedDocument | null } {
  const rel = path.relative(path.resolve(workspace), path.resolve(absFile));
  if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return { source: toPosix(rel), copy: null };
  return { source: fallback, copy: { source: fallback, text, from: absFile } };
}

/** A file-name-safe slug (ASCII letters, digits, `-`), at most `max` characters, never empty. */
export function slug(s: string, max = 48): string {
  const out = s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, max).replace(/-+$/, '');
  return out || 'x';
}

/** The reason given most often among `rejected` (first seen wins a tie), or null when there is none. */
export function commonestReason(rejected: ReadonlyArray<{ reason: string }>): string | null {
  const counts = new Map<string, number>();
  for (const x of rejected) counts.set(x.reason, (counts.get(x.reason) ?? 0) + 1);
  let best: [string, number] | null = null;
  for (const e of counts) if (!best || e[1] > best[1]) best = e;
  return best ? best[0] : null;
}
