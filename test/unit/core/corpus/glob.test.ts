/**
 * globMatcher / globProblem (#16 fresh-user pass N2): include/exclude globs come from a repository's
 * .vscode/settings.json, and picomatch compiles them into one backtracking regex whose matching is
 * exponential (`**` + `*a*a*a` in several segments: a 5-segment path of 30-character names took
 * > 30 s). globMatcher matches segment by segment (a dynamic programme over pattern and path segments),
 * and must agree with picomatch on every ordinary pattern.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { GLOB_LIMITS, globMatcher, globProblem } from '../../../../src/core/corpus/glob';
import { DEFAULT_SETTINGS } from '../../../../src/core/settings';
import { REPO } from '../../../helpers/paths';
import { tempDir } from '../../../helpers/tmp';
import { isSpanproofError } from '../../../../src/core/errors';

const PATTERNS = [
  ...DEFAULT_SETTINGS.include, ...DEFAULT_SETTINGS.exclude,
  'docs/**/*.md', '**/test/**/*.md', '*.{md,txt}', '[ab]?.md', '**', 'a/**', '**/x', '**/x/**', 'x/**/y',
  '*', '*/*', '*.md', 'docs/*.md', 'docs/**', 'docs/', 'docs/**/', './docs/*.md', 'README.md', 'a/b/c.md',
  '**/*', '**/.git/**', '**/.*', '.*', '.github/**', '**/node_modules/**', '**/*.test.md', 'a**b', 'a**',
  '**b', 'docs/**/a**b.md', 'a\\*b.md', '[!a]*.md', '[a-c]/*.md', '?', '??.md', '**/?.md', '{docs,src}/**/*.md',
  'a\\,{b,c}', '[a]', 'x/[!y]', 'a*/**', 'x/?/**', '*/**/', 'docs/{a,b/c}.md', '**/{a,b}/**', 'x/{,y/}z.md', '{1..3}.md', 'docs/**/*.{md,txt}',
  '**/*a*a*b', '**/a/**/a/**/b', 'a/*/b', 'a/*/**', '**/**', '**/**/x', 'a/**/**/b', 'docs/*/**/*.md',
  '*/', '**/', 'x/*', 'x/?/*.md', 'É.md', '**/É/*.md', 'a b/*.md', 'a+b/(c).md', 'a.b/$x^.md',
];
const PATHS = [
  'a', 'b', 'x', 'ab.md', 'bb.md', 'aa.md', 'c.md', 'README.md', 'a.md', 'a.txt', 'a.rst', 'a.mdx', '.md', '.x',
  '.hidden.md', 'axb', 'axxb', 'ab', 'a*b.md', 'axb.md', 'b.md', '1.md', '4.md', 'a b/c.md', 'a+b/(c).md',
  'a.b/$x^.md', 'É.md', 'x/É/y.md', 'x/É/y/z.md', 'docs', 'docs/', 'docs/a.md', 'docs/b/c.md', 'docs/b/c/d.md',
  'docs/b.txt', 'docs/b/a.txt', 'docs/axb.md', 'docs/x/axxb.md', 'docs/b', 'docs/b/', 'src/a.md', 'src/x/a.md',
  'a/b', 'a/b/', 'a/b/c', 'a/b/c.md', 'a/x/b', 'a/x/y/b', 'a/c', 'a/', 'x/a', 'x/y', 'x/y/', 'x/a/y', 'x/z.md',
  'x/y/z.md', 'x/1/a.md', 'x/ab/a.md', 'q/x', 'q/x/', 'q/x/r', 'q/r/x', 'test/a.md', 'p/test/q/a.md',
  'p/test/a.md', 'test/', '.', '..', 'a/.', 'x/../y', 'node_modules/', 'node_modules/x/a.md', 'p/node_modules/a.md', '.git/', '.git/HEAD',
  'p/.git/config', '.spanproof/groundtruth.json', '.github/workflows/a.md', 'dist/', 'build/x.md', 'out/a.txt',
  'outx/a.md', 'a/b/c/d/e.md', 'aab', 'x/aab', 'a/a/b', 'a/a/a/b', 'b/a/b', 'ab/b', 'a.test.md', 'a/a.test.md',
];
const PICO = { dot: true, posix: true, noextglob: true };

test('globMatcher agrees with picomatch ({dot, posix, noextglob}) on ordinary patterns, alone and as a list', () => {
  const diffs: string[] = [];
  for (const p of PATTERNS) {
    assert.equal(globProblem(p), null, p);
    const reference = picomatch(p, PICO);
    const ours = globMatcher([p]);
    for (const s of PATHS) if (ours(s) !== reference(s)) diffs.push(`${p} vs ${s}: picomatch ${reference(s)}`);
  }
  assert.deepEqual(diffs, []);
  const lists = [DEFAULT_SETTINGS.include, DEFAULT_SETTINGS.exclude, ['docs/**/*.md', '**/*.py'], ['**/skip/**', '*.txt']];
  for (const l of lists) {
    const reference = picomatch(l, PICO);
    const ours = globMatcher(l);
    for (const s of PATHS) assert.equal(ours(s), reference(s), `${l.join(', ')} vs ${s}`);
  }
  assert.equal(globMatcher([])('a.md'), false);
});

test('globMatcher agrees with picomatch on 40,000 random (pattern, path) pairs of stars, classes, escapes, dots and braces', () => {
  let seed = 4242;
  const rnd = (n: number): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), (seed >>> 8) % n);
  const pick = <T>(a: readonly T[]): T => a[rnd(a.length)];
  // no '(': picomatch reads an unbalanced ( as a regex group (`(?/(b` matched `b`); here it is a character
  const tokens = ['a', 'b', '.', '*', '?', '[ab]', '\\*', '[*a]', 'a**', '!', '[!a]', '.md', 'ab', '[[:alpha:]]', '{a,b}', '{x/a,b}'];
  const segment = (): string => (rnd(4) === 0 ? '**' : Array.from({ length: 1 + rnd(5) }, () => pick(tokens)).join(''));
  const name = (): string => (rnd(10) === 0 ? pick(['.', '..']) : Array.from({ length: 1 + rnd(8) }, () => pick(['a', 'b', '.', '*', '!', '(', 'ab', '.md', 'Z'])).join(''));
  const diffs: string[] = [];
  for (let i = 0; i < 2000; i++) {
    const p = (rnd(10) === 0 ? './' : '') + Array.from({ length: 1 + rnd(4) }, segment).join('/') + (rnd(8) === 0 ? '/' : '');
    if (globProblem(p)) continue; // a leading ! (also after ./) is refused
    const reference = picomatch(p, PICO);
    const ours = globMatcher([p]);
    for (let j = 0; j < 20; j++) {
      const s = Array.from({ length: 1 + rnd(4) }, name).join('/') + (rnd(5) === 0 ? '/' : '');
      if (ours(s) !== reference(s)) diffs.push(`${p} vs ${s}: picomatch ${reference(s)}`);
    }
  }
  assert.deepEqual(diffs.slice(0, 10), []);
});

/** Runs `code` (CommonJS, run from the repository root) in a child process: its stdout, or a timeout. */
function runChild(code: string, timeoutMs = 20_000): { stdout: string; timedOut: boolean; stderr: string; status: number | null } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', code], { cwd: REPO, encoding: 'utf8', timeout: timeoutMs });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status, timedOut: (r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT' };
}

test('adversarial globs finish (each took seconds to hours as one picomatch regex)', () => {
  const r = runChild(`
    const { globMatcher } = require('./src/core/corpus/glob.ts');
    const cases = [
      ['*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(40)],
      ['**/*a*a*b{a,b,c,d}{a,b,c,d}{a,b,c,d}{a,b,c,d}{a,b,c,d}/**', ('a'.repeat(255) + '/').repeat(15) + 'c'],
      ['**/a/**/a/**/b', 'a/'.repeat(500) + 'c'],
      ['**/a/**/a/**/b', 'a/'.repeat(500) + 'b'],
      ['**/a/**/*a*a*b', 'a/'.repeat(1900) + 'a'.repeat(250)],
      ['**/*a*a*a/*a*a*a/*a*a*b', ('a'.repeat(40) + '/').repeat(8) + 'c'],
      ['**/*a*a*a/*a*a*a/*a*a*b', ('a'.repeat(40) + '/').repeat(8) + 'aab'],
      ['**/*a*a*a/**/*a*a*a/**/*a*a*b/**', ('a'.repeat(255) + '/').repeat(15) + 'c'],
    ];
    process.stdout.write(JSON.stringify(cases.map(([p, s]) => globMatcher([p])(s))));
  `);
  assert.equal(r.timedOut, false, 'the adversarial globs did not finish in 20 s');
  assert.equal(r.status, 0, r.stderr);
  // by hand: no name has a b, but the 2nd and the 5th path end in b and aab (two a's, then b)
  assert.deepEqual(JSON.parse(r.stdout), [false, false, false, true, false, false, true, false]);
});

test('loadCorpus with an adversarial include walks and filters in time (main: the tinyglobby walk hung)', (t) => {
  const root = tempDir('spanproof-glob-', t);
  const dir = join(root, ...Array.from({ length: 5 }, () => 'a'.repeat(30)));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'c'), 'not matched');
  writeFileSync(join(dir, 'aab'), 'matched');
  const r = runChild(`
    const { loadCorpus } = require('./src/core/corpus/index.ts');
    loadCorpus(${JSON.stringify(root)}, { include: ['**/*a*a*a/*a*a*a/*a*a*b'], exclude: ['**/*a*a*a/*a*a*a/*a*a*c/**'] })
      .then((c) => process.stdout.write(JSON.stringify(c.documents.map((d) => d.source))));
  `);
  assert.equal(r.timedOut, false, 'loadCorpus did not finish in 20 s');
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), [`${'a'.repeat(30)}/`.repeat(5) + 'aab']);
});

test('globProblem: over-long patterns, braces expanding too far and a leading ! are refused; any number of stars is fine', () => {
  for (const p of [...PATTERNS, '*a*a*a*a*a*a*a*a*a*b', '{a,b}'.repeat(10), 'x'.repeat(GLOB_LIMITS.maxLength)]) assert.equal(globProblem(p), null, p);
  assert.match(globProblem('x'.repeat(GLOB_LIMITS.maxLength + 1)) ?? '', /^is 1001 characters long; at most 1000$/);
  assert.match(globProblem('{a,b}'.repeat(11)) ?? '', /^expands to more than 1024 patterns \(braces \{…\}\); at most 1024$/);
  assert.match(globProblem('{1..2000}') ?? '', /expands to more than 1024 patterns/);
  assert.match(globProblem('{a,b,c,d}'.repeat(40)) ?? '', /expands to more than 1024 patterns/);
  // 2^8 = 256 expansions of 17 segments = 4352 > 4096; of 3 segments = 768
  assert.match(globProblem(`${'{a,b}'.repeat(8)}${'/**/x'.repeat(8)}`) ?? '', /^expands to more than 4096 path segments in all/);
  assert.equal(globProblem(`${'{a,b}'.repeat(8)}/**/x`), null);
  assert.match(globProblem('!docs/**') ?? '', /negation/);
  assert.match(globProblem('./!docs/**') ?? '', /negation/);
  assert.throws(() => globMatcher(['!docs/**']), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && /negation/.test(e.message));
});

test('a `**` inside braces matches after expansion (picomatch\'s alternation regex matched nothing under docs/)', () => {
  assert.equal(picomatch('{docs/**,src}/*.md', PICO)('docs/a.md'), false);
  assert.equal(globMatcher(['{docs/**,src}/*.md'])('docs/a.md'), true);
  assert.equal(globMatcher(['{docs/**,src}/*.md'])('docs/b/c.md'), true);
  assert.equal(globMatcher(['{docs/**,src}/*.md'])('src/a.md'), true);
  assert.equal(globMatcher(['{docs/**,src}/*.md'])('lib/a.md'), false);
});
