/**
 * Matching the include/exclude globs (settings `include`, `exclude`; `draft --sources`) in time
 * polynomial in the pattern and the path. The globs come from a repository's `.vscode/settings.json`,
 * which is not trusted: compiled whole by picomatch they are one backtracking regex, and
 * `**` + `*a*a*a` in several segments took > 30 s against a path of five 30-character names (#16
 * fresh-user pass N2).
 *
 * Syntax and meaning are picomatch's with `{dot: true, posix: true, noextglob: true}` — VS Code's glob
 * syntax: `*`, `?`, `[...]` within a segment, `**` for any number of segments, `{a,b}` and `{1..3}`
 * — computed differently: braces are expanded first (the `braces` package), each pattern is split at
 * `/`, and a path is matched by a dynamic programme over (pattern segment, path segment): a `**`
 * segment takes zero or more path segments, any other segment exactly one name, tested without
 * backtracking (see {@link segmentTest}; picomatch compiled for one segment still backtracks: 3 stars
 * vs a 255-character name ≈ 4 ms, 4 stars ≈ 400 ms). A path costs O(segments of all expansions ×
 * names of the path) segment tests, each memoised, each O(name length × segment length).
 *
 * Where picomatch is not what VS Code means, its quirks are kept all the same (so a corpus is the
 * one it was): `x/**` matches `x`, but a trailing `/**` after a segment ending in `*` needs one name
 * more (`*` + `/**` does not match `x`); a pattern ending in `*` or `[...]` also matches a folder
 * path with a trailing `/`. One picomatch bug is not kept: `**` inside braces (`{docs/**,src}/*.md`)
 * matched nothing under docs/ as a regex alternation; expanded, it matches docs/a.md.
 */
import braces from 'braces';
import picomatch from 'picomatch';
import { SpanproofError } from '../errors';

/** The limits {@link globProblem} enforces: they bound a match's work, not the wildcards' count. */
export const GLOB_LIMITS = {
  /** Characters in one pattern, before brace expansion. */
  maxLength: 1000,
  /** Patterns one pattern's braces expand to. */
  maxExpansions: 1024,
  /** Path segments of all the expansions together (the matching's work is this × the path's names). */
  maxExpandedSegments: 4096,
} as const;

// nonegate: a `!` inside a pattern is a character (picomatch negates only at the start of the whole
// pattern, which globProblem refuses), also when a segment or a piece of one is compiled alone
const PICO = { dot: true, posix: true, noextglob: true, nonegate: true } as const;
type BraceNode = braces.BraceNode;

/** The number of patterns `node` expands to, saturated at `cap` + 1. */
function expansionCount(node: BraceNode, cap: number): number {
  const product = (nodes: readonly BraceNode[]): number => nodes.reduce((n, c) => Math.min(cap + 1, n * expansionCount(c, cap)), 1);
  if (node.type === 'root') return product(node.nodes ?? []);
  if (node.type !== 'brace') return 1;
  const inner = (node.nodes ?? []).filter((c) => c.type !== 'open' && c.type !== 'close');
  if (node.commas) {
    const alternatives: BraceNode[][] = [[]];
    for (const c of inner) {
      if (c.type === 'comma') alternatives.push([]);
      else alternatives[alternatives.length - 1].push(c);
    }
    return alternatives.reduce((n, a) => Math.min(cap + 1, n + product(a)), 0);
  }
  if (node.ranges) {
    try {
      return Math.min(cap + 1, braces.expand(braces.stringify(node), { rangeLimit: cap }).length);
    } catch {
      return cap + 1; // braces refuses a range longer than rangeLimit
    }
  }
  return product(inner);
}

/** The pattern with one leading `./` removed, as picomatch does. */
const withoutDotSlash = (pattern: string): string => (pattern.startsWith('./') ? pattern.slice(2) : pattern);

/**
 * What makes `pattern` unsafe or unsupported, in words (`is 1200 characters long; at most 1000`), or
 * null when it is fine. Refused: more than {@link GLOB_LIMITS.maxLength} characters, braces expanding
 * to more than {@link GLOB_LIMITS.maxExpansions} patterns or {@link GLOB_LIMITS.maxExpandedSegments}
 * segments in all, and a leading `!` (a negation: tinyglobby read it as
 * an exclusion, picomatch as "every other file", so its meaning was never one thing).
 */
export function globProblem(pattern: string): string | null {
  const L = GLOB_LIMITS;
  if (pattern.length > L.maxLength) return `is ${pattern.length} characters long; at most ${L.maxLength}`;
  if (withoutDotSlash(pattern).startsWith('!')) return 'starts with "!", a negation, which include/exclude globs do not support';
  if (expansionCount(braces.parse(pattern), L.maxExpansions) > L.maxExpansions) return `expands to more than ${L.maxExpansions} patterns (braces {…}); at most ${L.maxExpansions}`;
  let segments = 0;
  for (const expanded of braces.expand(pattern, { keepEscaping: true })) {
    const parts = withoutDotSlash(expanded).split('/');
    segments += parts.length;
    if (segments > L.maxExpandedSegments) return `expands to more than ${L.maxExpandedSegments} path segments in all (braces {…}); at most ${L.maxExpandedSegments}`;
  }
  return null;
}

/**
 * One function testing POSIX paths relative to the root (`docs/a.md`; a trailing `/` for a folder,
 * `docs/`) against `patterns`: true when any pattern matches, as picomatch with `{dot: true, posix:
 * true, noextglob: true}` would say (see the module comment).
 * @param where the file, field and fix named when a pattern is refused (the settings are checked by
 *   their schema before, naming their key).
 * @throws SpanproofError('bad-input') for a pattern {@link globProblem} refuses.
 */
export function globMatcher(patterns: readonly string[], where: { file?: string; field?: string; fix?: string } = {}): (posixPath: string) => boolean {
  const tests = new Map<string, SegmentTest>();
  const testOf = (s: string): SegmentTest => {
    let t = tests.get(s);
    if (!t) tests.set(s, (t = { globstar: false, id: tests.size, test: segmentTest(s) }));
    return t;
  };
  const compiled: CompiledPattern[] = [];
  for (const pattern of patterns) {
    const problem = globProblem(pattern);
    if (problem) throw new SpanproofError('bad-input', `the glob ${JSON.stringify(pattern.length > 60 ? `${pattern.slice(0, 57)}…` : pattern)} ${problem}.`, { fix: 'simplify the glob.', ...where });
    for (const expanded of braces.expand(withoutDotSlash(pattern), { keepEscaping: true })) {
      const parts = expanded.split('/');
      const segments = parts.map((s): Segment => (s === '**' ? GLOBSTAR : testOf(s)));
      const last = parts[parts.length - 1];
      const beforeLast = parts[parts.length - 2];
      // picomatch: `x*/**` needs a name after `x*/` (`a/**` also matches `a`, `*/**` not `a`)
      if (last === '**' && beforeLast !== undefined && beforeLast !== '**' && endsWithStar(beforeLast)) segments.splice(segments.length - 1, 0, ANY_NAME);
      // picomatch: a pattern ending in a star or a bracket also matches the path with a trailing `/` (`*` matches `docs/`)
      const slashOptional = last !== '**' && last !== '' && /\\\/\?\)\$$/.test(picomatch.makeRe(last, PICO).source);
      compiled.push({ segments, slashOptional });
    }
  }
  return (posixPath) => {
    if (posixPath === '') return false;
    const names = posixPath.split('/');
    const memo = new Map<number, boolean>();
    const segmentMatches = (seg: SegmentTest, j: number): boolean => {
      if (seg.id < 0) return seg.test(names[j]);
      const key = seg.id * names.length + j;
      let r = memo.get(key);
      if (r === undefined) memo.set(key, (r = seg.test(names[j])));
      return r;
    };
    const folder = names.length > 1 && names[names.length - 1] === '';
    return compiled.some((p) => matchesSegments(p.segments, names, names.length, segmentMatches)
      || (folder && p.slashOptional && matchesSegments(p.segments, names, names.length - 1, segmentMatches)));
  };
}

/** Names this short are tested with picomatch's regex of the whole segment (its rules for `.`, `..` and ''). */
const SHORT_NAME = 2;

/**
 * A test of one name against one segment pattern (no `/`, not `**`). Without `*` it is picomatch's
 * regex (no quantifier: linear). With `*` the segment is split at its `*` runs into pieces that each
 * match a fixed number of characters (literals, escapes, `?`, `[...]`), and a name is matched greedily:
 * the first piece at the start, the last at the end, each middle one at its leftmost place after the
 * previous — exact for fixed-length pieces, and O(name length × pattern length) where picomatch's
 * regex backtracks (`*a*a*b` + a distinct suffix in 1024 expansions vs 15 names of 255 `a`: 52 s).
 */
function segmentTest(segment: string): (name: string) => boolean {
  if (segment === '') return (name) => name === '';
  const whole = picomatch(segment, PICO);
  const pieces = starPieces(segment);
  if (pieces.length === 1) return whole;
  const compiled = pieces.map((p) => ({ length: pieceLength(p), test: p === '' ? () => true : picomatch(p, PICO) }));
  const first = compiled[0];
  const last = compiled[compiled.length - 1];
  const middle = compiled.slice(1, -1);
  const least = compiled.reduce((n, p) => n + p.length, 0);
  return (name) => {
    if (name.length <= SHORT_NAME) return whole(name);
    if (name.length < least || !first.test(name.slice(0, first.length))) return false;
    const end = name.length - last.length;
    if (!last.test(name.slice(end))) return false;
    let pos = first.length;
    for (const p of middle) {
      while (pos + p.length <= end && !p.test(name.slice(pos, pos + p.length))) pos++;
      if (pos + p.length > end) return false;
      pos += p.length;
    }
    return true;
  };
}

/** The end (exclusive) of the bracket expression opening at `i`, or -1 when `[` is a literal (picomatch: no closing `]`). */
function bracketEnd(segment: string, i: number): number {
  let j = i + 1;
  if (segment[j] === '!' || segment[j] === '^') j++;
  if (segment[j] === ']') j++; // a `]` first is a member
  for (; j < segment.length; j++) {
    if (segment[j] === '\\') j++;
    else if (segment[j] === '[' && segment[j + 1] === ':') {
      const close = segment.indexOf(':]', j + 2);
      if (close > 0) j = close + 1;
    } else if (segment[j] === ']') return j + 1;
  }
  return -1;
}

/** The segment split at its runs of unescaped `*` outside brackets (`*a*[*]b` → '', 'a', '[*]b'). */
function starPieces(segment: string): string[] {
  const pieces = [''];
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    const close = c === '[' ? bracketEnd(segment, i) : -1;
    if (c === '\\') pieces[pieces.length - 1] += segment.slice(i, ++i + 1);
    else if (close > 0) {
      pieces[pieces.length - 1] += segment.slice(i, close);
      i = close - 1;
    } else if (c === '*') {
      while (segment[i + 1] === '*') i++;
      pieces.push('');
    } else pieces[pieces.length - 1] += c;
  }
  return pieces;
}

/** The UTF-16 code units a star-free piece matches: one per literal unit, escape, `?` or bracket. */
function pieceLength(piece: string): number {
  let n = 0;
  for (let i = 0; i < piece.length; i++, n++) {
    const close = piece[i] === '[' ? bracketEnd(piece, i) : -1;
    if (piece[i] === '\\') i++;
    else if (close > 0) i = close - 1;
  }
  return n;
}

/** Exclude globs given to a file walker that compiles them with picomatch, at most this many. */
const MAX_WALK_EXCLUDES = 64;

/**
 * The brace expansions of `exclude` a walker (tinyglobby) may compile with picomatch to prune
 * folders: those with at most 2 wildcards (`*` runs, `**` included), whose regex backtracks at most
 * quadratically in the path; the first {@link MAX_WALK_EXCLUDES}. Pruning is an optimisation only:
 * the walked files are filtered by {@link globMatcher} afterwards.
 */
export function walkExcludes(exclude: readonly string[]): string[] {
  const out = new Set<string>();
  for (const pattern of exclude) {
    if (globProblem(pattern)) continue;
    for (const expanded of braces.expand(pattern, { keepEscaping: true })) {
      if (out.size < MAX_WALK_EXCLUDES && expanded.split('/').reduce((n, s) => n + (s === '**' ? 1 : starPieces(s).length - 1), 0) <= 2) out.add(expanded);
    }
  }
  return [...out];
}

/** A segment that tests one name. */
interface SegmentTest { globstar: false; id: number; test: (name: string) => boolean }
/** A segment pattern: a globstar, or a test of one name. */
type Segment = { globstar: true } | SegmentTest;
interface CompiledPattern { segments: Segment[]; slashOptional: boolean }

const GLOBSTAR: Segment = { globstar: true };
/** Any one name but `.` and `..` (picomatch's first name of a trailing `/**`). */
const ANY_NAME: SegmentTest = { globstar: false, id: -1, test: (name) => name !== '.' && name !== '..' };
/** The segment ends in an unescaped `*`. */
const endsWithStar = (segment: string): boolean => /(^|[^\\])\*$/.test(segment);

/**
 * The dynamic programme: `reach[j]` = the segments so far can match the first j of the first `n` names. A globstar
 * extends a reached j over any names but `.` and `..` (picomatch's `**` with dot: true); any other
 * segment moves a reached j to j + 1 when it matches name j. O(segments × names).
 */
function matchesSegments(segments: readonly Segment[], names: readonly string[], n: number, matches: (seg: SegmentTest, j: number) => boolean): boolean {
  let reach = new Uint8Array(n + 1);
  reach[0] = 1;
  for (const seg of segments) {
    const next = new Uint8Array(n + 1);
    let any = false;
    if (seg.globstar) {
      for (let j = 0; j <= n; j++) {
        if (reach[j] || (j > 0 && next[j - 1] && names[j - 1] !== '.' && names[j - 1] !== '..')) next[j] = 1;
        any ||= next[j] === 1;
      }
    } else {
      for (let j = 0; j < n; j++) {
        if (reach[j] && matches(seg, j)) {
          next[j + 1] = 1;
          any = true;
        }
      }
    }
    if (!any) return false;
    reach = next;
  }
  return reach[n] === 1;
}
