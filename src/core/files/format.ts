/**
 * The format-version rule shared by every file Spanproof reads back (ground truth, run files, caches;
 * issue #16 item 15): a file whose format number is newer than this build reads was written by a newer
 * Spanproof — say so, instead of a schema error about the field.
 */
import { SpanproofError } from '../errors';

/**
 * The format number `data[key]` when it is a whole number greater than `supported` (a newer Spanproof
 * wrote the file), else null (this build's format, an older one, or no format number — the schema
 * decides those). Format numbers are whole: `1.5` is damage, not a newer version.
 */
export function newerFormat(data: unknown, supported: number, key = 'spanproof'): number | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const v = (data as Record<string, unknown>)[key];
  return typeof v === 'number' && Number.isSafeInteger(v) && v > supported ? v : null;
}

/**
 * Throws SpanproofError('bad-input') "written by a newer Spanproof (format N); update Spanproof." naming
 * `file` and the field, when `data[key]` is newer than `supported`; returns otherwise.
 */
export function assertKnownFormat(data: unknown, supported: number, file: string, key = 'spanproof'): void {
  const n = newerFormat(data, supported, key);
  if (n === null) return;
  throw new SpanproofError('bad-input', `written by a newer Spanproof (format ${n}); update Spanproof.`, {
    file, field: key, fix: `update Spanproof to read it (this version reads format ${supported} and older).`,
  });
}
