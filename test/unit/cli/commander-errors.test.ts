/**
 * commander's own errors are user mistakes in the CLI's one format — `spanproof: … Fix: …`, exit 2, no
 * `error:` line of commander's — and `spanproof` with no command prints the help and exits 2;
 * `--help` and `--version` stay 0.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../helpers/cli';

test('unknown option, unknown command, missing argument or option value: exit 2, one line with a Fix', async () => {
  const cases: Array<[string[], RegExp]> = [
    [['run', '--bogus'], /^spanproof: unknown option '--bogus'\. Fix: see spanproof run --help for its options and arguments\.\n$/],
    [['run', '--chunker', 'heading'], /^spanproof: unknown option '--chunker' \(Did you mean --chunkers\?\) Fix: see spanproof run --help/],
    [['runn'], /^spanproof: unknown command 'runn' \(Did you mean one of run, runs\?\) Fix: see spanproof --help for the commands\.\n$/],
    [['generate'], /^spanproof: missing required argument 'runDir'\. Fix: see spanproof generate --help/],
    [['run', '--k'], /^spanproof: option '--k <n>' argument missing\. Fix: see spanproof run --help/],
  ];
  for (const [args, re] of cases) {
    const r = await runCli(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, re, args.join(' '));
    assert.doesNotMatch(r.stderr, /^error:/m);
  }
});

test('spanproof with no command prints the help on stderr and exits 2; --help, run --help and --version exit 0', async () => {
  const none = await runCli([]);
  assert.equal(none.code, 2, none.stderr);
  assert.match(none.stderr, /^Usage: spanproof \[options\] \[command\]/);
  assert.match(none.stderr, /\nspanproof: no command given\. Fix: give one of the commands listed above, e\.g\. spanproof run --workspace DIR/);
  for (const args of [['--help'], ['run', '--help'], ['--version'], ['help', 'run']]) {
    const r = await runCli(args);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.ok(r.stdout.length > 0);
  }
});

test('a path flag given as an empty string is bad input naming the flag (fresh-user #13: `--out ""` ran into the default folder)', async () => {
  const cases: Array<[string[], string]> = [
    [['run', '--workspace', 'samples/fastapi-mini', '--out', ''], '--out'],
    [['run', '--workspace', ' '], '--workspace'],
    [['run', '--cache-dir', ''], '--cache-dir'],
    [['validate', '--groundtruth', ''], '--groundtruth'],
  ];
  for (const [args, flag] of cases) {
    const r = await runCli(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stderr, `spanproof: ${flag} is empty. Fix: pass a path with ${flag}, or leave ${flag} out for its default (see spanproof ${args[0]} --help).\n`);
  }
});
