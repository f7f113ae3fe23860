/**
 * A bound on the nesting depth of JSON input (#16 item 15). `JSON.parse` accepts any depth, but the
 * recursive steps after it — `structuredClone` (ground-truth resolution, worker messages),
 * `JSON.stringify` (every write), zod — overflow the stack near a few thousand levels ("Maximum
 * call stack size exceeded", an internal error). Every user file is checked right after parsing, so a
 * deeply nested file is bad input naming the file and the JSON path instead. Texts given to
 * jsonc-parser (settings.json, and syntax-error positions), which itself recurses per level, are
 * measured before they are parsed ({@link tooDeepTextPath}).
 */

/** Deepest nesting accepted in user JSON files (arrays/objects inside each other). Real files use < 10. */
export const MAX_JSON_DEPTH = 100;

/** `path` followed by the member `key`: `.key` for a plain name, `["other.ext"]` otherwise. */
const memberPath = (path: string, key: string): string => (/^[A-Za-z_$][\w$]*$/.test(key) ? `${path}${path ? '.' : ''}${key}` : `${path}[${JSON.stringify(key)}]`);

/** A path as messages show it: at most 80 characters, `(top level)` when empty. */
const shownPath = (path: string): string => `${path.slice(0, 80)}${path.length > 80 ? '…' : ''}` || '(top level)';

/**
 * The JSON path (`questions[0].x[0][0]…`, shortened) of the first value nested deeper than `limit`,
 * or null when `value` is within it. Iterative: safe on any depth. `limit` counts containers, the top
 * level being depth 1.
 */
export function tooDeepPath(value: unknown, limit = MAX_JSON_DEPTH): string | null {
  const stack: Array<{ v: unknown; depth: number; path: string }> = [{ v: value, depth: 0, path: '' }];
  while (stack.length) {
    const { v, depth, path } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > limit) return shownPath(path);
    if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: depth + 1, path: `${path}[${i}]` });
    else for (const k of Object.keys(v).reverse()) stack.push({ v: (v as Record<string, unknown>)[k], depth: depth + 1, path: memberPath(path, k) });
  }
  return null;
}

/** One open container while scanning a text: an object (its current key) or an array (its current index). */
type OpenContainer = { array: true; index: number } | { array: false; key: string; expectKey: boolean };

/**
 * {@link tooDeepPath} on a JSON or JSONC text, before it is parsed — for parsers that recurse per
 * level (jsonc-parser overflows the stack near 5000). One linear pass over the brackets: strings
 * (with their escapes) and `//` / `/* *\/` comments are skipped, so the text need not be valid JSON;
 * on a valid text the path is the one tooDeepPath gives for the parsed value.
 */
export function tooDeepTextPath(text: string, limit = MAX_JSON_DEPTH): string | null {
  const open: OpenContainer[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const top = open[open.length - 1];
      if (top && !top.array && top.expectKey) {
        top.key = unquoted(text.slice(i, j + 1));
        top.expectKey = false;
      }
      i = j;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (c === '[' || c === '{') {
      if (open.length + 1 > limit) return shownPath(open.reduce((path, o) => (o.array ? `${path}[${o.index}]` : memberPath(path, o.key)), ''));
      open.push(c === '[' ? { array: true, index: 0 } : { array: false, key: '', expectKey: true });
    } else if (c === ']' || c === '}') open.pop();
    else if (c === ',') {
      const top = open[open.length - 1];
      if (top?.array) top.index++;
      else if (top) top.expectKey = true;
    }
  }
  return null;
}

/** The key a quoted JSON string spells (its raw contents when it does not parse, e.g. unterminated). */
function unquoted(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}
