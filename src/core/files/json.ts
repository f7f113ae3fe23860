/**
 * Reading JSON and JSON Lines files back: one JSON Lines parser ({@link parseJsonLines}) for every
 * reader (run files, answers, kept chunks, RAGAS and Azure imports). A missing file is `null` / `[]`;
 * a damaged file or line is a SpanproofError('bad-input') naming the file, the 1-based line and the
 * given fix — or, for tolerant readers (imports), a `bad` line they report and skip.
 */
import { SpanproofError } from '../errors';
import { MAX_DATA_FILE_BYTES, readRegularTextSync } from './read';
import { MAX_JSON_DEPTH, tooDeepPath } from './jsonDepth';
import { jsonParseError, jsonSyntaxError, withoutExcerpt } from './jsonText';

/** One non-blank line of a JSON Lines text: its 1-based number and the parsed value, or why it does not parse. */
export type JsonLine = { line: number; value: unknown; error?: undefined } | { line: number; value?: undefined; error: string };

/**
 * Parses JSON Lines text: one JSON value per line (`\n` or `\r\n`); blank lines are skipped and keep
 * the numbering (line numbers are those an editor shows). Never throws: a line that is not JSON comes
 * back with `error` = `not valid JSON: <what> at column C`, a value nested deeper than
 * {@link MAX_JSON_DEPTH} with `error` = `nested more than 100 levels deep (at <path>)` (#16 item 15).
 */
export function parseJsonLines(text: string): JsonLine[] {
  const out: JsonLine[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    if (!raw.trim()) continue;
    try {
      const value: unknown = JSON.parse(raw);
      const deep = tooDeepPath(value);
      out.push(deep ? { line: i + 1, error: `nested more than ${MAX_JSON_DEPTH} levels deep (at ${deep})` } : { line: i + 1, value });
    } catch (e) {
      const bad = jsonSyntaxError(raw.replace(/\r$/, '')); // the column, as for whole files (#16 item 20)
      out.push({ line: i + 1, error: bad ? `not valid JSON: ${bad.message} at column ${bad.column}` : `not valid JSON: ${withoutExcerpt((e as Error).message)}` });
    }
  }
  return out;
}

/**
 * The text of a JSON (Lines) file without a leading BOM (an editor may save one), read with
 * ./read.ts's checks (a FIFO, device or file over {@link MAX_DATA_FILE_BYTES} is refused); null when
 * it does not exist.
 */
function jsonFileText(file: string): string | null {
  let text: string;
  try {
    text = readRegularTextSync(file, MAX_DATA_FILE_BYTES, { what: 'the file' });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null; // as existsSync said: no such file
    throw e;
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Parses a JSON file (a leading BOM ignored); null when it does not exist. Throws bad-input naming `file` and `fix`. */
export function readJsonFile<T>(file: string, fix: string): T | null {
  const text = jsonFileText(file);
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw jsonParseError(text, file, fix, e);
  }
  const deep = tooDeepPath(value);
  if (deep) throw new SpanproofError('bad-input', `nested more than ${MAX_JSON_DEPTH} levels deep; not read.`, { file, field: deep, fix });
  return value as T;
}

/**
 * Parses a JSON Lines file (blank lines ignored, a leading BOM too); [] when it does not exist. `check`,
 * when given, turns each parsed value (and its 1-based line) into the record, throwing for a wrong shape.
 * @throws SpanproofError('bad-input') at the first damaged line, naming `file`, `line N` and `fix`.
 */
export function readJsonLines<T>(file: string, fix: string, check?: (value: unknown, line: number) => T): T[] {
  const text = jsonFileText(file);
  if (text === null) return [];
  return parseJsonLines(text).map((l) => {
    if (l.error !== undefined) throw new SpanproofError('bad-input', l.error, { file, field: `line ${l.line}`, fix });
    return check ? check(l.value, l.line) : (l.value as T);
  });
}
