/**
 * `spanproof run` and `spanproof report` as a user runs them (from sources through tsx, the worker
 * from src/worker/main.ts): exit codes 0/1/2, --fail-under gates, --json output, --config errors that
 * name the file and key, and the report formats.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MINI, MINI_GT, REPO, WORKER_TS, tmp } from '../../helpers/grid';
import { settingsFromOptions } from '../../../src/cli/commands/run';
import { isSpanproofError } from '../../../src/core/errors';

function cli(args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(REPO, 'src', 'cli', 'main.ts'), ...args], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, SPANPROOF_WORKER: WORKER_TS },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const base = (root: string) => ['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--runs-dir', join(root, 'runs'), '--cache-dir', join(root, 'cache'), '--chunkers', 'heading', '--retrievers', 'bm25', '--rerank', 'off'];

test('run --json prints results.json plus runDir; --fail-under passes (0) and fails (1); report renders md/html/csv', () => {
  const root = tmp('cli');
  const ok = cli([...base(root), '--json', '--fail-under', 'hit@5=0', '--fail-under', 'acceptance=1', '--keep-chunks']);
  assert.equal(ok.code, 0, ok.stderr);
  const out = JSON.parse(ok.stdout);
  assert.equal(out.spanproof, 1);
  assert.equal(out.configs.length, 1);
  assert.equal(out.configs[0].id, 'heading/bm25/none');
  const { runDir, verdict, ...rest } = out;
  assert.deepEqual(JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8')), rest);
  // run --json adds the verdict of ranking.json v2 (SPEC §11)
  const ranking = JSON.parse(readFileSync(join(runDir, 'ranking.json'), 'utf8'));
  assert.equal(ranking.spanproof, 2);
  assert.deepEqual(verdict, ranking.verdict);
  assert.equal(verdict.recommended, 'heading/bm25/none');
  assert.equal(verdict.status, 'no-signal'); // one config: nothing to compare
  assert.ok(existsSync(join(out.runDir, 'chunks', 'heading.jsonl')));
  const chunkLine = JSON.parse(readFileSync(join(out.runDir, 'chunks', 'heading.jsonl'), 'utf8').split('\n')[0]);
  assert.deepEqual(Object.keys(chunkLine), ['chunker', 'id', 'source', 'start', 'end', 'text']);

  // precision@5 < 1: five chunks are more text than the evidence (a threshold above 1 is refused, gate.test.ts)
  const gate = cli([...base(root), '--fail-under', 'precision@5=1']);
  assert.equal(gate.code, 1);
  assert.match(gate.stderr, /gate failed: precision@5 = 0\.[0-9]+ \(heading\/bm25\/none, recommended\) < 1/);
  assert.match(gate.stdout, /Acceptance: 10\/10 questions resolved/);
  assert.match(gate.stdout, /heading\/bm25\/none ★/);
  assert.match(gate.stdout, /Verdict: NO SIGNAL — use heading\/bm25\/none/);

  for (const [fmt, check] of [
    ['md', (s: string) => assert.match(s, /^# Spanproof run /)],
    ['csv', (s: string) => assert.equal(s.trim().split('\r\n').length, 2)],
    ['html', (s: string) => { assert.match(s, /<div class="ci"/); assert.doesNotMatch(s, /(src|href)="https?:/); }],
  ] as const) {
    const file = join(root, `report.${fmt}`);
    const r = cli(['report', out.runDir, '--format', fmt, '--out', file]);
    assert.equal(r.code, 0, r.stderr);
    check(readFileSync(file, 'utf8'));
  }
});

test('bad input exits 2 with a message naming the file, the key and the fix', () => {
  const root = tmp('cli-bad');
  const cfg = join(root, 'cfg.json');
  writeFileSync(cfg, JSON.stringify({ chunkerz: ['fixed'] }));
  const r1 = cli([...base(root), '--config', cfg]);
  assert.equal(r1.code, 2);
  assert.match(r1.stderr, new RegExp(`${cfg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: chunkerz: unknown key; did you mean "chunkers"\\? Fix: rename it to "chunkers", or remove it \\(the settings: include, .*, chunkers, `));
  writeFileSync(cfg, JSON.stringify({ k: 0 }));
  const r1b = cli([...base(root), '--config', cfg]);
  assert.equal(r1b.code, 2);
  assert.match(r1b.stderr, /cfg\.json: k: /);
  const r2 = cli([...base(root), '--fail-under', 'hits=0.5']);
  assert.equal(r2.code, 2);
  assert.match(r2.stderr, /--fail-under/);
  const r3 = cli(['run', '--workspace', MINI, '--groundtruth', join(root, 'missing.json'), '--runs-dir', join(root, 'runs')]);
  assert.equal(r3.code, 2);
  assert.match(r3.stderr, /missing\.json/);
  const r4 = cli([...base(root), '--chunkers', 'bogus']);
  assert.equal(r4.code, 2);
  assert.equal(r4.stderr, 'spanproof: --chunkers: unknown chunker "bogus" (known: fixed, recursive, sentence, heading, semantic). Fix: pass a comma-separated list of those, e.g. --chunkers fixed,recursive.\n');
  // Each flag's message quotes the bad value once and gives the fix once (in-process: the same code the command runs).
  for (const [over, msg] of [
    [{ chunkers: ',' }, /^--chunkers: no chunker given in "," \(known: fixed, recursive, sentence, heading, semantic\)\. Fix: [^\n]*\n$/],
    [{ retrievers: 'bm25,bm26' }, /^--retrievers: unknown retriever "bm26" \(known: bm25, dense, hybrid\)\. Fix: [^\n]*\n$/],
    [{ rerank: 'maybe' }, /^--rerank: unknown rerank value "maybe" \(known: on, off\)\. Fix: [^\n]*\n$/],
    [{ k: '0' }, /^--k "0" is not a whole number from 1 to 10000\. Fix: pass a whole number in digits, e\.g\. --k 5\.\n$/],
    [{ tau: '1.5' }, /^--tau: "1\.5" is not a number in \(0, 1\]\. Fix: [^\n]*\n$/],
    // the fix names the flag of a key that is not set by one (#16 follow-up: `--k 100` named poolSize, which had no flag)
    [{ k: '30' }, /^--k: k \(30\) is larger than the candidate pool poolSize \(20\)[^\n]*Fix: lower --k to at most 20, or raise --pool \(setting poolSize\) to at least 30\.\n$/],
    [{ pool: '3' }, /^--pool: k \(5\) is larger than the candidate pool poolSize \(3\)[^\n]*Fix: lower --k \(setting k\) to at most 3, or raise --pool to at least 5\.\n$/],
    [{ pool: '0' }, /^--pool "0" is not a whole number from 1 to 10000\. Fix: pass a whole number in digits, e\.g\. --pool 20\.\n$/],
  ] as const) {
    assert.throws(() => settingsFromOptions({ workspace: '.', failUnder: [], ...over } as Parameters<typeof settingsFromOptions>[0]), (e: unknown) => {
      assert.ok(isSpanproofError(e) && e.code === 'bad-input');
      assert.match(`${e.message}\n`, msg);
      assert.equal(e.message.split('Fix:').length, 2, e.message);
      return true;
    });
  }
  writeFileSync(cfg, JSON.stringify({ chunkerParams: { fixed: { size: 100, overlap: 200 } } }));
  const r5 = cli([...base(root), '--config', cfg, '--chunkers', 'fixed']);
  assert.equal(r5.code, 2);
  assert.match(r5.stderr, /cfg\.json: chunkerParams\.fixed\.overlap: .*200.*Fix: /);
  assert.doesNotMatch(r5.stderr, /progress/, 'refused before the worker starts');
  const r6 = cli(['run', '--workspace', join(root, 'no-such-corpus')]);
  assert.equal(r6.code, 2);
  assert.equal(r6.stderr, `spanproof: ${join(root, 'no-such-corpus')}: the corpus folder does not exist or is not a folder. Fix: pass an existing folder with --workspace DIR.\n`);
  assert.ok(!existsSync(join(root, 'runs')) || readdirSync(join(root, 'runs')).length === 0, 'no run directory for rejected input');
});

// The CLI runs the grid in its own thread (issue #13: no second isolate, ≈ 40 MB less): it needs no
// worker script — with SPANPROOF_WORKER naming a missing file it used to exit 3 ("the worker script is missing").
test('run starts no worker thread: it succeeds with SPANPROOF_WORKER naming a missing file', () => {
  const root = tmp('cli-inproc');
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(REPO, 'src', 'cli', 'main.ts'), ...base(root), '--json'], {
    cwd: REPO, encoding: 'utf8', env: { ...process.env, SPANPROOF_WORKER: join(root, 'no-such-worker.js') },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).configs[0].id, 'heading/bm25/none');
});

// SIGTERM (kill, docker stop, a CI timeout) cancels as Ctrl-C does: it used to kill the process (143)
// with run.json left `running`, read back as `interrupted`. The signal that cancelled the run sets the
// status: SIGTERM then an impatient Ctrl-C is still 143 (fresh-user #13: it was 130, or the second
// signal killed the process once the command had removed its listeners).
for (const [signals, exit] of [[['SIGINT'], 130], [['SIGTERM'], 143], [['SIGTERM', 'SIGINT'], 143]] as const) {
  const signal = signals.join(' then ');
  test(`${signal} cancels the run cleanly: exit ${exit} (128 + ${signals[0]}), run.json status cancelled`, async () => {
    const { spawn } = await import('node:child_process');
    const root = tmp(`cli-${signals.join('-').toLowerCase()}`);
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'src', 'cli', 'main.ts'), 'run', '--workspace', MINI, '--groundtruth', MINI_GT, '--runs-dir', join(root, 'runs'), '--cache-dir', join(root, 'cache')], {
      cwd: REPO, env: { ...process.env, SPANPROOF_WORKER: WORKER_TS }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let sent = false;
    let second = false;
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (!sent && /progress +\d+% (Chunking|Embedding chunks|Retrieving|Scoring)/.test(stderr)) {
        sent = true;
        child.kill(signals[0]);
      }
      // The second signal once the first was handled: absorbed, whether the run is still unwinding or done.
      if (signals[1] && !second && /\ncancelling…\n/.test(stderr)) {
        second = true;
        child.kill(signals[1]);
      }
    });
    const [code, sig]: [number | null, NodeJS.Signals | null] = await new Promise((res) => child.on('close', (c, s) => res([c, s])));
    assert.ok(sent, stderr);
    assert.deepEqual([code, sig], [exit, null], stderr); // exited by itself, not killed by the signal
    assert.equal((stderr.match(/\ncancelling…\n/g) ?? []).length, 1, `said once, not per signal: ${stderr}`);
    assert.match(stderr, /spanproof: run cancelled; run directory .* \(status cancelled\)/);
    const dirs = readdirSync(join(root, 'runs'));
    assert.equal(dirs.length, 1);
    assert.equal(JSON.parse(readFileSync(join(root, 'runs', dirs[0], 'run.json'), 'utf8')).status, 'cancelled');
    assert.ok(!existsSync(join(root, 'runs', dirs[0], 'results.json')));
  });
}

test('run --out never reuses an earlier run or a file; nothing to score exits 2 with the acceptance summary; --help lists exit codes', () => {
  const root = tmp('cli-out');
  const out = join(root, 'run1');
  const first = cli([...base(root), '--out', out, '--keep-chunks', '--question', 'mini-01', '--json']);
  assert.equal(first.code, 0, first.stderr);
  const before = readdirSync(out).sort().map((f) => [f, f === 'chunks' ? readdirSync(join(out, f)).join() : readFileSync(join(out, f), 'utf8')]);
  const again = cli([...base(root), '--out', out]);
  assert.equal(again.code, 2);
  assert.equal(again.stderr, `spanproof: ${out}: the output folder holds an earlier run; a run is never overwritten. Fix: choose a new folder with --out, or delete ${out} first if that run is no longer needed.\n`);
  assert.deepEqual(readdirSync(out).sort().map((f) => [f, f === 'chunks' ? readdirSync(join(out, f)).join() : readFileSync(join(out, f), 'utf8')]), before, 'the earlier run is untouched');
  const file = join(root, 'afile');
  writeFileSync(file, 'x');
  for (const flag of ['--out', '--runs-dir', '--cache-dir']) {
    const r = cli([...base(root), flag, file]);
    assert.equal(r.code, 2, `${flag}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`^spanproof: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: the (output path|runs folder|cache folder) is a file, not a folder\\. Fix: pass .*${flag}`));
  }
  assert.equal(readFileSync(file, 'utf8'), 'x');
  const none = cli([...base(root), '--question', 'nonexistent']);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /no question can be scored: none of the selected ids \(nonexistent\) is a resolved question; 10 of 10 questions resolved \(stale 0, ambiguous 0, rejected 0\)\. Fix: /);
  assert.deepEqual(readdirSync(join(root, 'runs')), [], 'no run directory for a run with nothing to score');
  const help = cli(['run', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Exit codes:[\s\S]*\b130 +cancelled with Ctrl-C[\s\S]*\b143 +cancelled with SIGTERM/);
});

test('an empty corpus, or include globs that match nothing, exits 2 saying 0 documents were indexed (not "0 of N resolved, stale")', () => {
  const root = tmp('cli-empty-corpus');
  const empty = join(root, 'docs');
  mkdirSync(empty);
  const at = (ws: string, extra: string[] = []) => ['run', '--workspace', ws, '--groundtruth', MINI_GT, '--runs-dir', join(root, 'runs'), '--cache-dir', join(root, 'cache'), '--chunkers', 'heading', '--retrievers', 'bm25', '--rerank', 'off', ...extra];
  const fix = 'Fix: pass the folder of your documents with --workspace DIR, or set `include` (a --config file\'s "include", or spanproof.include in .vscode/settings.json) to globs that match them.';
  const exclude = 'exclude **/{node_modules,.git,out,dist,build,.spanproof}/**';
  const r1 = cli(at(empty));
  assert.equal(r1.code, 2, r1.stderr);
  assert.equal(r1.stderr.split('\n').filter((l) => l.startsWith('spanproof:')).join('\n'), `spanproof: ${empty}: 0 documents were indexed: no file under this folder matches the patterns (include **/*.{md,mdx,markdown,txt,rst,adoc}, ${exclude}), so no question can be scored. ${fix}`);
  const cfg = join(root, 'cfg.json');
  writeFileSync(cfg, JSON.stringify({ include: ['**/*.html'] }));
  const r2 = cli(at(MINI, ['--config', cfg]));
  assert.equal(r2.code, 2, r2.stderr);
  assert.match(r2.stderr, new RegExp(`spanproof: ${MINI.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: 0 documents were indexed: no file under this folder matches the patterns \\(include \\*\\*/\\*\\.html, `));
  writeFileSync(join(empty, 'a.md'), Buffer.from([0x23, 0x20, 0x00, 0x01, 0x02]));
  const r3 = cli(at(empty));
  assert.equal(r3.code, 2, r3.stderr);
  assert.match(r3.stderr, /0 documents were indexed: the 1 file\(s\) under this folder that match the patterns \(include .*\) were all skipped \(binary 1\), so no question can be scored\. Fix: /);
  // every file too large: the Fix names maxFileBytes (fresh-user #13: it said --workspace / include)
  const small = join(root, 'small.json');
  writeFileSync(small, JSON.stringify({ maxFileBytes: 10 }));
  const r4 = cli(at(MINI, ['--config', small]));
  assert.equal(r4.code, 2, r4.stderr);
  assert.match(r4.stderr, /were all skipped \(too-large 4\), so no question can be scored\. Fix: raise maxFileBytes \(now 10 bytes; a --config file's "maxFileBytes", or spanproof\.maxFileBytes in \.vscode\/settings\.json\) above the size of your documents/);
  for (const r of [r1, r2, r3, r4]) assert.doesNotMatch(r.stderr, /stale|internal error|\n\s+at /);
  assert.ok(!existsSync(join(root, 'runs')) || readdirSync(join(root, 'runs')).length === 0, 'no run directory for an empty corpus');
});
