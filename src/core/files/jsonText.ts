/**
 * Parsing a whole JSON (or JSONC) text with a syntax error that always names its line and column —
 * `JSON.parse` gives no position for some errors (a trailing comma in an array: "Unexpected token ']'")
 * (#16 item 20). The syntax check is jsonc-parser's scanner (the parser VS Code uses for its own
 * settings files); the value comes from `JSON.parse` for strict JSON (so big integers, `__proto__`
 * keys and duplicate keys behave as everywhere else) and from jsonc-parser for JSONC.
 */
import { parse, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { SpanproofError } from '../errors';
import { MAX_JSON_DEPTH, tooDeepTextPath } from './jsonDepth';

/** 1-based line and column (UTF-16 code units) of `offset` in `text`; lines end at `\n`, `\r\n` or `\r`. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split(/\r\n|\r|\n/).length;
  const column = before.length - Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r'));
  return { line, column };
}

const WORDS: Record<string, string> = {
  InvalidSymbol: 'an unexpected character',
  InvalidNumberFormat: 'a malformed number',
  PropertyNameExpected: 'a property name in double quotes expected (a trailing comma?)',
  ValueExpected: 'a value expected (a trailing comma?)',
  ColonExpected: 'a colon expected',
  CommaExpected: 'a comma expected',
  CloseBraceExpected: 'a closing } expected',
  CloseBracketExpected: 'a closing ] expected',
  EndOfFileExpected: 'text after the end of the JSON value',
  InvalidCommentToken: 'a comment (JSON has no comments)',
  UnexpectedEndOfComment: 'an unterminated comment',
  UnexpectedEndOfString: 'an unterminated string',
  UnexpectedEndOfNumber: 'an unterminated number',
  InvalidUnicode: 'an invalid \\u escape',
  InvalidEscapeCharacter: 'an invalid escape character',
  InvalidCharacter: 'an invalid character in a string',
};

/**
 * The first syntax error of `text` with its position, or null when it parses — or when it is nested
 * deeper than {@link MAX_JSON_DEPTH} (jsonc-parser recurses per level and would overflow the stack;
 * such a text is refused for its depth, see {@link parseJsonText}).
 */
export function jsonSyntaxError(text: string, opts: { jsonc?: boolean } = {}): { line: number; column: number; message: string } | null {
  if (tooDeepTextPath(text) !== null) return null;
  const errors: ParseError[] = [];
  parse(text, errors, { allowTrailingComma: opts.jsonc === true, disallowComments: opts.jsonc !== true, allowEmptyContent: false });
  const e = errors[0];
  if (!e) return null;
  const code = printParseErrorCode(e.error);
  const comma = text.lastIndexOf(',', e.offset);
  const trailing = !opts.jsonc && comma >= 0 && /^,\s*[\]}]$/.test(text.slice(comma, e.offset + 1));
  if (trailing) return { ...lineColumnAt(text, comma), message: 'a trailing comma (JSON allows none before ] or })' };
  return { ...lineColumnAt(text, e.offset), message: WORDS[code] ?? code };
}

/**
 * A `JSON.parse` message without the excerpt of the text V8 puts in it (`Unexpected token '#', "# Secret
 * n"... is not valid JSON`): an error line must not echo a file's content (a document or a key
 * given where a JSON file was expected).
 */
export function withoutExcerpt(message: string): string {
  return message.replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '');
}

/**
 * The error for a JSON text `JSON.parse` rejected (`cause`): `not valid JSON: <what>.` with `field`
 * `line L, column C` from jsonc-parser's scanner, or — should the scanner accept what `JSON.parse`
 * did not — the parser's own message. Every reader of a whole JSON file uses this (SQuAD, price
 * tables, run files, catalogues, memory-eval…), so a trailing comma is named the same way everywhere.
 * `text` is the text as the user wrote it (before any rewrite a reader applies, so columns match). A leading BOM is ignored.
 */
export function jsonParseError(text: string, file: string, fix: string, cause?: unknown): SpanproofError {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (t.trim() === '') return new SpanproofError('bad-input', 'the file is empty.', { file, fix: 'write its JSON content, or give the right file.', cause });
  const bad = jsonSyntaxError(t);
  if (bad) return new SpanproofError('bad-input', `not valid JSON: ${bad.message}.`, { file, field: `line ${bad.line}, column ${bad.column}`, fix, cause });
  const msg = withoutExcerpt(cause instanceof Error ? cause.message : String(cause)).replace(/\.?$/, '.');
  return new SpanproofError('bad-input', `not valid JSON: ${msg}`, { file, fix, cause });
}

/**
 * Parses a JSON text (`jsonc`: comments and trailing commas allowed, as in VS Code's settings.json).
 * A leading BOM is ignored. A JSONC text nested deeper than {@link MAX_JSON_DEPTH} is refused before
 * jsonc-parser (recursive) sees it.
 * @throws SpanproofError('bad-input') naming `file`, `line L, column C` and `fix`; for an empty (or
 *   blank) text, saying that the file is empty; for a JSONC text nested too deep, naming the JSON path.
 */
export function parseJsonText(text: string, file: string, fix: string, opts: { jsonc?: boolean } = {}): unknown {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (t.trim() === '') throw new SpanproofError('bad-input', 'the file is empty.', { file, fix: 'write its JSON content, or give the right file.' });
  if (opts.jsonc) {
    const deep = tooDeepTextPath(t);
    if (deep) throw new SpanproofError('bad-input', `nested more than ${MAX_JSON_DEPTH} levels deep; not read.`, { file, field: deep, fix: 'remove the deeply nested value (settings nest a few levels at most).' });
    const bad = jsonSyntaxError(t, opts);
    if (bad) throw new SpanproofError('bad-input', `not valid JSONC: ${bad.message}.`, { file, field: `line ${bad.line}, column ${bad.column}`, fix });
    return jsoncValue(t);
  }
  try {
    return JSON.parse(t);
  } catch (e) {
    throw jsonParseError(t, file, fix, e);
  }
}

/**
 * The value of a JSONC text that parses (checked by the caller), built with own keys only: a
 * `"__proto__"` key stays an ordinary key, as with `JSON.parse` — jsonc-parser's `parse` assigns it,
 * which sets the object's prototype (a settings.json's `{"__proto__": {"x": 1}}` then showed up as an
 * inherited key `x`). Duplicate keys: the last wins. Recursive: the caller bounds the depth first.
 */
function jsoncValue(text: string): unknown {
  const root = parseTree(text, [], { allowTrailingComma: true });
  const value = (n: Node): unknown => {
    if (n.type === 'array') return (n.children ?? []).map(value);
    if (n.type !== 'object') return n.value;
    const o: Record<string, unknown> = {};
    for (const p of n.children ?? []) {
      const [key, v] = p.children ?? [];
      if (key && v) Object.defineProperty(o, key.value as string, { value: value(v), enumerable: true, writable: true, configurable: true });
    }
    return o;
  };
  return root ? value(root) : undefined;
}
