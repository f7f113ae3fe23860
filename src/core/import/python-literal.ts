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

/** A cursor over one cell's text; `fail` throws the error naming the character offset. */
class Scanner {
  i = 0;
  constructor(readonly s: string, private readonly where: string) {}

  fail(msg: string): never {
    const s = this.s;
    throw new SpanproofError('bad-input', `not a Python list of strings: ${msg} at character ${this.i + 1} of ${JSON.stringify(s.length > 80 ? `${s.slice(0, 77)}…` : s)}.`, {
      file: this.where, fix: 'write the cell as a Python list literal, e.g. [\'first excerpt\', "it\'s second"].',
    });
  }

  ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
  }

  /** Skips string prefixes (r, u, in either case, at most two); true when one is raw. */
  prefix(): boolean {
    const s = this.s;
    let raw = false;
    while (this.i < s.length && /[rRuU]/.test(s[this.i]) && (s[this.i + 1] === "'" || s[this.i + 1] === '"' || (/[rRuU]/.test(s[this.i + 1] ?? '') && (s[this.i + 2] === "'" || s[this.i + 2] === '"')))) {
      if (s[this.i] === 'r' || s[this.i] === 'R') raw = true;
      this.i++;
    }
    return raw;
  }

  /** The value of the escape sequence at the cursor (a backslash), advancing past it. */
  escape(raw: boolean): string {
    const s = this.s;
    const c = s[this.i];
    const n = s[this.i + 1];
    if (n === undefined) this.fail('backslash at the end');
    if (raw || !(n in SIMPLE || /[0-7]/.test(n) || n === 'x' || n === 'u' || n === 'U')) {
      this.i += 2;
      return c + n; // raw strings, and Python keeps unknown escapes verbatim
    }
    if (n in SIMPLE) {
      this.i += 2;
      return SIMPLE[n];
    }
    if (/[0-7]/.test(n)) {
      const m = /^[0-7]{1,3}/.exec(s.slice(this.i + 1))![0];
      this.i += 1 + m.length;
      return String.fromCodePoint(parseInt(m, 8));
    }
    const len = n === 'x' ? 2 : n === 'u' ? 4 : 8;
    const hex = s.slice(this.i + 2, this.i + 2 + len);
    if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) this.fail(`truncated \\${n} escape`);
    this.i += 2 + len;
    return String.fromCodePoint(parseInt(hex, 16));
  }

  /** One string literal at the cursor (after its prefix), or null when none starts here. */
  literal(): string | null {
    const s = this.s;
    const raw = this.prefix();
    const q = s[this.i];
    if (q !== "'" && q !== '"') return null;
    const triple = s.startsWith(q.repeat(3), this.i);
    const delim = triple ? q.repeat(3) : q;
    this.i += delim.length;
    let val = '';
    for (;;) {
      if (this.i >= s.length) this.fail('unterminated string');
      if (s.startsWith(delim, this.i)) {
        this.i += delim.length;
        return val;
      }
      const c = s[this.i];
      if (!triple && c === '\n') this.fail('newline inside a single-quoted string');
      if (c === '\\') val += this.escape(raw);
      else {
        val += c;
        this.i++;
      }
    }
  }

  /** One list item: one or more adjacent string literals, concatenated (as Python does). */
  item(): string {
    let item: string | null = null;
    for (;;) {
      this.ws();
      const lit = this.literal();
      if (lit === null) break;
      item = (item ?? '') + lit;
    }
    if (item === null) this.fail('expected a string literal');
    return item;
  }
}

/**
 * Parses `cell` as a Python list/tuple of string literals.
 * @param where names the cell in errors, e.g. `labeled.tsv: row 3, column "Parties"`.
 * @throws SpanproofError('bad-input') naming the character offset of the first syntax error.
 */
export function parsePythonList(cell: string, where = 'cell'): string[] {
  const sc = new Scanner(cell, where);
  sc.ws();
  const open = cell[sc.i];
  if (open !== '[' && open !== '(') sc.fail('expected "[" or "("');
  const close = open === '[' ? ']' : ')';
  sc.i++;
  const out: string[] = [];
  for (;;) {
    sc.ws();
    if (cell[sc.i] === close) {
      sc.i++;
      break;
    }
    out.push(sc.item());
    sc.ws();
    if (cell[sc.i] === ',') {
      sc.i++;
      continue;
    }
    if (cell[sc.i] === close) {
      sc.i++;
      break;
    }
    sc.fail(`expected "," or "${close}"`);
  }
  sc.ws();
  if (sc.i < cell.length) sc.fail('unexpected text after the list');
  return out;
}
