/**
 * A bound on the nesting depth of JSON input (#16 item 15). `JSON.parse` accepts any depth, but the
 * recursive steps after it — `structuredClone` (ground-truth resolution, worker messages),
 * `JSON.stringify` (every write), zod — overflow the stack near a few thousand levels ("Maximum
 * call stack size exceeded", an internal error). Every user file is checked right after parsing, so a
 * deeply nested file is bad input naming the file and the JSON path instead.
 */

/** Deepest nesting accepted in user JSON files (arrays/objects inside each other). Real files use < 10. */
export const MAX_JSON_DEPTH = 100;

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
    if (depth + 1 > limit) return `${path.slice(0, 80)}${path.length > 80 ? '…' : ''}` || '(top level)';
    if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: depth + 1, path: `${path}[${i}]` });
    else for (const k of Object.keys(v).reverse()) stack.push({ v: (v as Record<string, unknown>)[k], depth: depth + 1, path: /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}${path ? '.' : ''}${k}` : `${path}[${JSON.stringify(k)}]` });
  }
  return null;
}
