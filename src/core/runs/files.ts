/**
 * Reading the JSON and JSON Lines files of a run directory back. One implementation for the run
 * reader and the answers reader: a missing file is `null` / `[]`; a damaged file or line is a
 * SpanproofError('bad-input') naming the file, the line (JSONL) and the given fix.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SpanproofError } from '../errors';

/** Parses a JSON file; null when it does not exist. Throws bad-input naming `file` and `fix`. */
export function readJsonFile<T>(file: string, fix: string): T | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (e) {
    throw new SpanproofError('bad-input', `not valid JSON: ${(e as Error).message}`, { file, fix });
  }
}

/** Parses a JSON Lines file (blank lines ignored); [] when it does not exist. Errors name the 1-based line. */
export function readJsonLines<T>(file: string, fix: string): T[] {
  if (!existsSync(file)) return [];
  const out: T[] = [];
  readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      out.push(JSON.parse(line) as T);
    } catch (e) {
      throw new SpanproofError('bad-input', `not valid JSON: ${(e as Error).message}`, { file, field: `line ${i + 1}`, fix });
    }
  });
  return out;
}
