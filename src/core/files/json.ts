/**
 * Reading JSON and JSON Lines files back: one JSON Lines parser ({@link parseJsonLines}) for every
 * reader (run files, answers, kept chunks, RAGAS and Azure imports). A missing file is `null` / `[]`;
 * a damaged file or line is a SpanproofError('bad-input') naming the file, the 1-based line and the
 * given fix — or, for tolerant readers (imports), a `bad` line they report and skip.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SpanproofError } from '../errors';

/** One non-blank line of a JSON Lines text: its 1-based number and the parsed value, or why it does not parse. */
export type JsonLine = { line: number; value: unknown; error?: undefined } | { line: number; value?: undefined; error: string };

/**
 * Parses JSON Lines text: one JSON value per line (`\n` or `\r\n`); blank lines are skipped and keep
 * the numbering (line numbers are those an editor shows). Never throws: a line that is not JSON comes
 * back with `error` = `not valid JSON: <parser message>`.
 */
export function parseJsonLines(text: string): JsonLine[] {
  const out: JsonLine[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    if (!raw.trim()) continue;
    try {
      out.push({ line: i + 1, value: JSON.parse(raw) });
    } catch (e) {
      out.push({ line: i + 1, error: `not valid JSON: ${(e as Error).message}` });
    }
  }
  return out;
}

/** Parses a JSON file; null when it does not exist. Throws bad-input naming `file` and `fix`. */
export function readJsonFile<T>(file: string, fix: string): T | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (e) {
    throw new SpanproofError('bad-input', `not valid JSON: ${(e as Error).message}`, { file, fix });
  }
}

/**
 * Parses a JSON Lines file (blank lines ignored); [] when it does not exist.
 * @throws SpanproofError('bad-input') at the first damaged line, naming `file`, `line N` and `fix`.
 */
export function readJsonLines<T>(file: string, fix: string): T[] {
  if (!existsSync(file)) return [];
  return parseJsonLines(readFileSync(file, 'utf8')).map((l) => {
    if (l.error !== undefined) throw new SpanproofError('bad-input', l.error, { file, field: `line ${l.line}`, fix });
    return l.value as T;
  });
}
