/**
 * #16 N4: hand-edited run files with a wrong field type made `spanproof report` crash with exit 3 and a
 * stack trace (19 of 1,200 mutated run folders in a fresh-user fuzz; e.g. evidence.json `questions[0]`
 * set to `[]` with `--format html`). A real run of samples/fastapi-mini (two configs, k = 1, so one
 * miss) is mutated field by field — deterministic seed: a value replaced by one of another type, or
 * removed — and every report format must end in a result or a bad-input error naming the file and
 * field, never an internal error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRun } from '../../../src/core/runs';
import { renderGithubReport, renderRunReport } from '../../../src/core/report';
import { isSpanproofError } from '../../../src/core/errors';
import { createRng } from '../../../src/core/stats/rng';
import { runCli } from '../../helpers/cli';
import { REPO } from '../../helpers/paths';
import { tempDir } from '../../helpers/tmp';

const MINI = join(REPO, 'samples', 'fastapi-mini');
const MINI_GT = join(REPO, 'samples', 'fastapi-mini.groundtruth.json');
const FORMATS = ['md', 'html', 'csv', 'github'] as const;
/** Values of every JSON type; `REMOVE` deletes the key (or array element). */
const REPLACEMENTS: unknown[] = [[], {}, 'x', '', 5, -1, 1.5, null, true, [1], { a: 1 }];
const REMOVE = Symbol('remove');
const CASES = 250;

type Path = Array<string | number>;

/** Every JSON path in `v` below the top (objects' keys and arrays' indices). */
function pathsOf(v: unknown, p: Path = [], out: Path[] = []): Path[] {
  if (p.length) out.push(p);
  if (Array.isArray(v)) v.forEach((x, i) => pathsOf(x, [...p, i], out));
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) pathsOf(x, [...p, k], out);
  return out;
}

/** `root` with the value at `p` replaced by `to` (or removed), in place. */
function mutate(root: unknown, p: Path, to: unknown): void {
  let o = root as Record<string | number, unknown>;
  for (const k of p.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
  const last = p[p.length - 1];
  if (to !== REMOVE) o[last] = to;
  else if (Array.isArray(o)) o.splice(last as number, 1);
  else delete o[last];
}

/** What `report --format f` does on `dir` in process: 'ok', 'bad-input' (exit 2), or the crash (exit 3). */
function reportOutcome(dir: string, format: (typeof FORMATS)[number]): string {
  try {
    if (format === 'github') renderGithubReport(readRun(dir), null);
    else renderRunReport(dir, format);
    return 'ok';
  } catch (e) {
    if (isSpanproofError(e) && !['internal', 'invariant', 'worker-crashed'].includes(e.code)) return e.code;
    return `crash: ${e instanceof Error ? (e.stack ?? e.message).split('\n').slice(0, 2).join(' ') : String(e)}`;
  }
}

test('report on mutated run files (wrong field types, removed fields) never crashes: exit 2 naming the file and field, or a report', { timeout: 240000 }, async (t) => {
  if (!existsSync(MINI_GT)) return t.skip('samples/fastapi-mini is absent');
  const root = tempDir('spanproof-run-fuzz-', t);
  const good = join(root, 'good');
  const r = await runCli(['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--out', good, '--cache-dir', join(root, 'cache'), '--chunkers', 'heading,fixed', '--retrievers', 'bm25', '--rerank', 'off', '--k', '1']);
  assert.equal(r.code, 0, r.stderr);
  for (const f of FORMATS) assert.equal(reportOutcome(good, f), 'ok', `the unmutated run renders as ${f}`);

  const dir = join(root, 'mutated');
  cpSync(good, dir, { recursive: true });
  const files = readdirSync(good).filter((f) => f.endsWith('.json') || f.endsWith('.jsonl')).sort();
  assert.ok(files.includes('evidence.json') && files.includes('questions.jsonl') && files.includes('timings.json'), files.join(', '));
  const rng = createRng(16);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)];
  const crashes: string[] = [];
  let refused = 0;
  for (let i = 0; i < CASES; i++) {
    const name = pick(files);
    const text = readFileSync(join(good, name), 'utf8');
    const to = pick([...REPLACEMENTS, REMOVE]);
    let where: string;
    if (name.endsWith('.jsonl')) {
      const lines = text.split('\n').filter((l) => l.trim());
      const n = Math.floor(rng() * lines.length);
      const value: unknown = JSON.parse(lines[n]);
      const p = pick(pathsOf(value));
      mutate(value, p, to);
      lines[n] = JSON.stringify(value);
      writeFileSync(join(dir, name), `${lines.join('\n')}\n`);
      where = `${name} line ${n + 1} ${p.join('.')}`;
    } else {
      const value: unknown = JSON.parse(text);
      const p = pick(pathsOf(value));
      mutate(value, p, to);
      writeFileSync(join(dir, name), JSON.stringify(value));
      where = `${name} ${p.join('.')}`;
    }
    for (const f of FORMATS) {
      const outcome = reportOutcome(dir, f);
      if (outcome.startsWith('crash')) crashes.push(`${where} = ${to === REMOVE ? '(removed)' : JSON.stringify(to)}, --format ${f}: ${outcome}`);
      else if (outcome !== 'ok') refused++;
    }
    copyFileSync(join(good, name), join(dir, name));
  }
  assert.deepEqual(crashes, [], `${crashes.length} of ${CASES * FORMATS.length} reports crashed`);
  assert.ok(refused > 0, 'some mutations are refused as bad input');
});

test('report --format html of a run whose evidence.json questions[0] is [] exits 2 naming the file and field, no stack trace', { timeout: 120000 }, async (t) => {
  if (!existsSync(MINI_GT)) return t.skip('samples/fastapi-mini is absent');
  const root = tempDir('spanproof-run-fuzz-', t);
  const dir = join(root, 'run');
  const r = await runCli(['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--out', dir, '--cache-dir', join(root, 'cache'), '--chunkers', 'heading', '--retrievers', 'bm25', '--rerank', 'off']);
  assert.equal(r.code, 0, r.stderr);
  const file = join(dir, 'evidence.json');
  const evidence = JSON.parse(readFileSync(file, 'utf8'));
  evidence.questions[0] = [];
  writeFileSync(file, JSON.stringify(evidence));
  const rep = await runCli(['report', dir, '--format', 'html']);
  assert.equal(rep.code, 2, rep.stderr);
  assert.equal(rep.stderr.trim(), `spanproof: ${file}: questions[0] must be an object, not an array; the run file is damaged. Fix: re-run \`spanproof run\`, or restore the file from an intact copy of the run folder.`);
  assert.equal(rep.stdout, '');
});
