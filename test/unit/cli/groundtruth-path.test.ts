/**
 * #16 item 6, the CLI side: `spanproof.groundTruthPath` in a workspace's `.vscode/settings.json` is a
 * setting a folder carries (someone else may have written it), so the CLI confines it to the workspace
 * exactly as the editor does (src/core/groundtruth/location.ts): `..`, an absolute path or a symbolic
 * link out of the folder is refused with exit 2 before anything is read or written there. The ways to
 * use a file elsewhere are the ones the user types: `--groundtruth FILE` and a `--config` file (an
 * absolute path there is taken as absolute — it used to be joined under the workspace).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/tmp';

const DOC = '# Guide\n\nThe retry budget is three attempts per request.\n';
/** One question whose cached offsets are wrong (the quote starts at 9, not 0): `validate --fix` rewrites them. */
const GT = `${JSON.stringify({ spanproof: 1, questions: [{ id: 'q1', question: 'How many retries?', evidence: [{ source: 'guide.md', exact: 'The retry budget is three attempts', start: 0, end: 34 }] }] }, null, 2)}\n`;

interface Layout { root: string; ws: string; outsideGt: string }

function layout(t: { after(fn: () => void): void }, setting: (l: Omit<Layout, 'root'> & { root: string }) => string | null): Layout {
  const root = tempDir('spanproof-gtpath-', t);
  const ws = join(root, 'ws');
  const outside = join(root, 'outside');
  mkdirSync(join(ws, '.vscode'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(ws, 'guide.md'), DOC);
  const outsideGt = join(outside, 'groundtruth.json');
  writeFileSync(outsideGt, GT);
  const l = { root, ws, outsideGt };
  const value = setting(l);
  if (value !== null) writeFileSync(join(ws, '.vscode', 'settings.json'), `${JSON.stringify({ 'spanproof.groundTruthPath': value })}\n`);
  return l;
}

function assertRefused(r: { code: number | null; stderr: string }, what: string): void {
  assert.equal(r.code, 2, `${what}: ${r.stderr}`);
  assert.match(r.stderr, /spanproof\.groundTruthPath/, what);
  assert.match(r.stderr, /\.vscode[/\\]settings\.json/, what);
  assert.match(r.stderr, /outside the workspace/, what);
  assert.match(r.stderr, /Fix: .*--groundtruth/, what);
  assert.doesNotMatch(r.stderr, /\n\s+at /, `${what}: no stack trace`);
}

const cases: Array<[string, (l: Layout) => string]> = [
  ['a relative path out of the folder', () => '../outside/groundtruth.json'],
  ['an absolute path', (l) => l.outsideGt],
  ['a link inside the folder to a file outside', (l) => { symlinkSync(l.outsideGt, join(l.ws, 'gt-link.json')); return 'gt-link.json'; }],
];

for (const [name, value] of cases) {
  test(`validate --fix refuses spanproof.groundTruthPath from .vscode/settings.json that leaves the workspace: ${name}`, async (t) => {
    const l = layout(t, value);
    const r = await runCli(['validate', '--fix', '--workspace', l.ws]);
    assertRefused(r, name);
    assert.equal(readFileSync(l.outsideGt, 'utf8'), GT, 'the file outside is not rewritten');
    assert.deepEqual(readdirSync(join(l.root, 'outside')), ['groundtruth.json'], 'no backup or temp file outside');
  });
}

test('run, review and draft refuse it the same way, before the grid, the file or the endpoint is touched', async (t) => {
  const l = layout(t, () => '../outside/groundtruth.json');
  assertRefused(await runCli(['run', '--workspace', l.ws, '--chunkers', 'fixed', '--retrievers', 'bm25', '--out', join(l.root, 'run')]), 'run');
  assert.equal(existsSync(join(l.root, 'run')), false, 'no run folder');
  assertRefused(await runCli(['review', '--accept-all', '--workspace', l.ws]), 'review');
  assertRefused(await runCli(['draft', '--workspace', l.ws, '--model', 'm', '--endpoint', 'http://127.0.0.1:9/v1']), 'draft');
  assert.equal(readFileSync(l.outsideGt, 'utf8'), GT);
});

test('a path inside the folder from .vscode/settings.json is used (a link to a file inside too)', async (t) => {
  const l = layout(t, (x) => {
    mkdirSync(join(x.ws, 'qa'));
    writeFileSync(join(x.ws, 'qa', 'gt.json'), GT);
    symlinkSync(join(x.ws, 'qa', 'gt.json'), join(x.ws, 'alias.json'));
    return 'alias.json';
  });
  const r = await runCli(['validate', '--fix', '--workspace', l.ws]);
  assert.equal(r.code, 0, r.stderr);
  const fixed = JSON.parse(readFileSync(join(l.ws, 'qa', 'gt.json'), 'utf8')) as { questions: Array<{ evidence: Array<{ start: number; end: number }> }> };
  assert.deepEqual([fixed.questions[0].evidence[0].start, fixed.questions[0].evidence[0].end], [9, 43], 'offsets fixed in the link target');
});

test('--groundtruth and a --config file may name a file outside the workspace; an absolute path in --config is absolute', async (t) => {
  const l = layout(t, () => '../outside/groundtruth.json'); // the workspace file is overridden by both
  const flag = await runCli(['validate', '--workspace', l.ws, '--groundtruth', l.outsideGt]);
  assert.equal(flag.code, 0, flag.stderr);
  const config = join(l.root, 'config.json');
  writeFileSync(config, JSON.stringify({ groundTruthPath: l.outsideGt }));
  const cfg = await runCli(['validate', '--workspace', l.ws, '--config', config, '--json']);
  assert.equal(cfg.code, 0, cfg.stderr);
  assert.equal((JSON.parse(cfg.stdout) as { total: number }).total, 1, 'read from the absolute path itself (it was joined under the workspace: "ground-truth file not found")');
});

test('a groundTruthPath that names a folder ("", ".", a corpus folder) says so and names the setting, exit 2', async (t) => {
  for (const value of ['', '.', 'sub']) {
    const l = layout(t, (x) => { mkdirSync(join(x.ws, 'sub'), { recursive: true }); return value; });
    const r = await runCli(['validate', '--workspace', l.ws]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /the ground-truth path is a folder, not a file\. Fix: point --groundtruth or the groundTruthPath setting \(spanproof\.groundTruthPath in \.vscode\/settings\.json\) at a JSON file/, `${JSON.stringify(value)}: ${r.stderr}`);
  }
});

test('the default .spanproof/groundtruth.json shipped as a link out of the workspace (the file or the .spanproof folder) is refused too; --groundtruth still reaches it', async (t) => {
  for (const via of ['file', 'folder'] as const) {
    const l = layout(t, () => null);
    if (via === 'file') {
      mkdirSync(join(l.ws, '.spanproof'));
      symlinkSync(l.outsideGt, join(l.ws, '.spanproof', 'groundtruth.json'));
    } else symlinkSync(join(l.root, 'outside'), join(l.ws, '.spanproof'));
    const r = await runCli(['validate', '--fix', '--workspace', l.ws]);
    assert.equal(r.code, 2, `${via}: ${r.stderr}`);
    assert.match(r.stderr, /\.spanproof(\/groundtruth\.json)? is a symbolic link to .*, outside the workspace .*refusing to write the ground truth through it/, via);
    assert.match(r.stderr, /Fix: remove the link or point it inside the workspace; nothing was written through it\. To use a file elsewhere, name it yourself with --groundtruth FILE/, via);
    assert.doesNotMatch(r.stderr, /\n\s+at /, `${via}: no stack trace`);
    assert.equal(readFileSync(l.outsideGt, 'utf8'), GT, `${via}: the file outside is not rewritten`);
    assert.deepEqual(readdirSync(join(l.root, 'outside')), ['groundtruth.json'], `${via}: no backup or temp file outside`);
    const flag = await runCli(['validate', '--workspace', l.ws, '--groundtruth', l.outsideGt]);
    assert.equal(flag.code, 0, `${via}: ${flag.stderr}`);
  }
});
