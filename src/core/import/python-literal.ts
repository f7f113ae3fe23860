/**
 * A parser for the Python-literal lists of strings found in CUAD's `labeled.tsv` cells, e.g.
 * `['8th day of May 2014', "Company's address", 'it\'s']` — what `ast.literal_eval` accepts for a
 * list (or tuple) of string literals. Pathway's own regex breaks on excerpts holding both quote kinds
 * (SEED-SYSTEMS.md P10); this reads the literal grammar instead.
 *
 * Supported (Python 3 lexical rules, docs.python.org/3/reference/lexical_analysis.html#string-and-bytes-literals):
 * `'…'`, `"…"`, `'''…'''`, `"""…"""`, prefixes r/R/u/U, adjacent-literal concatenation, the escapes
 * `\\ \' \" \a \b \f \n \r \t \v \ooo \xhh \uXXXX \UXXXXXXXX`, backslash-newline, unknown escapes
 * kept verbatim; `[]`, `()`, a trailing comma. `nan`/empty cells are the caller's business.
 */
import { SpanproofError } from '../errors';

const SIMPLE: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\n': '' };

/**
 * Parses `cell` as a Python list/tuple of string literals.
 * @param where names the cell in errors, e.g. `labeled.tsv: row 3, column "Parties"`.
 * @throws SpanproofError('bad-input') naming the character offset of the first syntax error.
 */
export function parsePythonList(cell: string, where = 'cell'): string[] {
  let i = 0;
  const s = cell;
  const fail = (msg: string): never => {
    throw new SpanproofError('bad-input', `not a Python list of strings: ${msg} at character ${i + 1} of ${JSON.stringify(s.length > 80 ? `${s.slice(0, 77)}…` : s)}.`, {
      file: where, fix: 'write the cell as a Python list literal, e.g. [\'first excerpt\', "it\'s second"].',
    });
  };
  const ws = (): void => {
    while (i < s.length && /\s/.test(s[i])) i++;
  };
  ws();
  const open = s[i];
  if (open !== '[' && open !== '(') fail('expected "[" or "("');
  const close = open === '[' ? ']' : ')';
  i++;
  const out: string[] = [];
  for (;;) {
    ws();
    if (s[i] === close) {
      i++;
      break;
    }
    // one item: one or more adjacent string literals
    let item: string | null = null;
    for (;;) {
      ws();
      let raw = false;
      while (i < s.length && /[rRuU]/.test(s[i]) && (s[i + 1] === "'" || s[i + 1] === '"' || (/[rRuU]/.test(s[i + 1] ?? '') && (s[i + 2] === "'" || s[i + 2] === '"')))) {
        if (s[i] === 'r' || s[i] === 'R') raw = true;
        i++;
      }
      const q = s[i];
      if (q !== "'" && q !== '"') break;
      const triple = s.startsWith(q.repeat(3), i);
      const delim = triple ? q.repeat(3) : q;
      i += delim.length;
      let val = '';
      for (;;) {
        if (i >= s.length) fail('unterminated string');
        if (s.startsWith(delim, i)) {
          i += delim.length;
          break;
        }
        const c = s[i];
        if (!triple && c === '\n') fail('newline inside a single-quoted string');
        if (c === '\\') {
          const n = s[i + 1];
          if (n === undefined) fail('backslash at the end');
          if (raw) {
            val += c + n;
            i += 2;
            continue;
          }
          if (n in SIMPLE) {
            val += SIMPLE[n];
            i += 2;
          } else if (/[0-7]/.test(n)) {
            const m = /^[0-7]{1,3}/.exec(s.slice(i + 1))![0];
            val += String.fromCodePoint(parseInt(m, 8));
            i += 1 + m.length;
          } else if (n === 'x' || n === 'u' || n === 'U') {
            const len = n === 'x' ? 2 : n === 'u' ? 4 : 8;
            const hex = s.slice(i + 2, i + 2 + len);
            if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) fail(`truncated \\${n} escape`);
            val += String.fromCodePoint(parseInt(hex, 16));
            i += 2 + len;
          } else {
            val += c + n; // Python keeps unknown escapes verbatim
            i += 2;
          }
          continue;
        }
        val += c;
        i++;
      }
      item = (item ?? '') + val;
    }
    if (item === null) fail('expected a string literal');
    out.push(item as string);
    ws();
    if (s[i] === ',') {
      i++;
      continue;
    }
    if (s[i] === close) {
      i++;
      break;
    }
    fail(`expected "," or "${close}"`);
  }
  ws();
  if (i < s.length) fail('unexpected text after the list');
  return out;
}
