/**
 * `spanproof chunks` end to end through the real CLI entry (tsx on src/cli/main.ts) on a temp
 * workspace: JSON Lines shape of SPEC §11, offsets that slice the document text, exit codes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempDir } from '../../helpers/tmp';
import { REPO } from '../../helpers/paths';


function cli(args: string[], cwd = REPO): { status: number | null; stdout: string; stderr: string } {
  // tsx by its file URL: `--import tsx` resolves from cwd, which may be a temporary folder
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(require.resolve('tsx')).href, path.join(REPO, 'src/cli/main.ts'), ...args], { cwd, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('spanproof chunks writes one JSON line per chunk and chunker; bad chunker ids exit 2', (t) => {
  const ws = tempDir('spanproof-chunks-');
  t.after(() => rmSync(ws, { recursive: true, force: true }));
  const docs: Record<string, string> = {
    'guide.md': '---\r\ntitle: t\r\n---\r\n# Intro 😀\r\n\r\nSome text. More text.\r\n\r\n## Next\r\nBody.\r\n',
    'notes/plain.txt': '\uFEFFFirst paragraph.\n\nSecond paragraph 中文.\n',
  };
  for (const [rel, text] of Object.entries(docs)) {
    mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    writeFileSync(path.join(ws, rel), text);
  }
  const out = path.join(ws, 'chunks.jsonl');
  const ok = cli(['chunks', '--workspace', ws, '--chunkers', 'heading,fixed', '--out', out]);
  assert.equal(ok.status, 0, ok.stderr);
  const lines = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
  for (const l of lines) {
    assert.deepEqual(Object.keys(l), ['chunker', 'id', 'source', 'start', 'end', 'text']);
    const text = docs[l.source].replace(/^\uFEFF/, '');
    assert.equal(text.slice(l.start, l.end), l.text);
    assert.equal(l.id, `${l.source}#${l.start}-${l.end}`);
  }
  // heading first (order given), then fixed; documents by source; front matter is its own chunk.
  // guide.md: front matter 3+2+8+2+3 = 18; "# Intro 😀" at 20 (8 + 2 units) then CRLF CRLF, "Some text. More
  // text." 34–55; "## Next" at 59, CRLF, "Body." 68–73. plain.txt (BOM removed): 16 + 2 + 20 = 38 ≤ 1500 → one chunk.
  assert.deepEqual(lines.map((l) => `${l.chunker} ${l.id}`), [
    'heading guide.md#0-18',
    'heading guide.md#20-55',
    'heading guide.md#59-73',
    'heading notes/plain.txt#0-38',
    'fixed guide.md#0-73',
    'fixed notes/plain.txt#0-38',
  ]);

  // `--out -` is stdout (it wrote a file named "-"): the same lines, no file
  const piped = cli(['chunks', '--workspace', ws, '--chunkers', 'heading,fixed', '--out', '-'], ws);
  assert.equal(piped.status, 0, piped.stderr);
  assert.equal(piped.stdout, readFileSync(out, 'utf8'));
  assert.equal(existsSync(path.join(ws, '-')), false);
  assert.match(piped.stderr, /spanproof: fixed: 2 chunks from 2 documents/);

  const bad = cli(['chunks', '--workspace', ws, '--chunkers', 'fixed,nope', '--out', path.join(ws, 'bad.jsonl')]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--chunkers: unknown chunker "nope"/);
  assert.equal(existsSync(path.join(ws, 'bad.jsonl')), false);
});

test('spanproof chunks --out: a folder or a path under a file exits 2 naming the path; nothing is left behind', (t) => {
  const ws = tempDir('spanproof-chunks-out-');
  t.after(() => rmSync(ws, { recursive: true, force: true }));
  writeFileSync(path.join(ws, 'a.md'), '# A\n\nText.\n');
  const dir = cli(['chunks', '--workspace', ws, '--chunkers', 'fixed', '--out', ws]);
  assert.equal(dir.status, 2, dir.stderr);
  assert.equal(dir.stderr.trim(), `spanproof: ${ws}: cannot write --out (it is a folder). Fix: give a file path, e.g. ${path.join(ws, 'chunks.jsonl')}.`);
  const underFile = cli(['chunks', '--workspace', ws, '--chunkers', 'fixed', '--out', path.join(ws, 'a.md', 'x.jsonl')]);
  assert.equal(underFile.status, 2, underFile.stderr);
  assert.match(underFile.stderr, /a\.md\/x\.jsonl: cannot write --out \(a part of the path is a file, not a folder, ENOTDIR\)/);
  const missing = cli(['chunks', '--workspace', ws, '--chunkers', 'fixed', '--out', path.join(ws, 'no', 'x.jsonl')]);
  assert.equal(missing.status, 2, missing.stderr);
  assert.match(missing.stderr, /no\/x\.jsonl: cannot write --out \(its folder does not exist, ENOENT\)\. Fix: create the folder first/);
  assert.doesNotMatch(missing.stderr, /internal error|\n\s+at /);
  assert.deepEqual(readdirSync(ws), ['a.md']);
});

test('spanproof chunks reads the settings run reads: .vscode/settings.json spanproof.* (JSONC), then --config, then --chunkers', (t) => {
  const ws = tempDir('spanproof-chunks-settings-');
  t.after(() => rmSync(ws, { recursive: true, force: true }));
  mkdirSync(path.join(ws, '.vscode'));
  mkdirSync(path.join(ws, 'skip'));
  writeFileSync(path.join(ws, 'doc.txt'), 'abcdefghijklmnopqrstuvwxyz0123456789ABCD\n'); // 40 characters and a newline
  writeFileSync(path.join(ws, 'skip', 'other.txt'), 'excluded by the workspace settings\n');
  writeFileSync(path.join(ws, '.vscode', 'settings.json'), '{\n  // as VS Code writes it\n  "spanproof.chunkers": ["fixed"],\n  "spanproof.chunkerParams.fixed.size": 16,\n  "spanproof.chunkerParams.fixed.overlap": 4,\n  "spanproof.exclude": ["skip/**"],\n}\n');
  const out = path.join(ws, 'chunks.jsonl');
  const ids = () => readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => { const c = JSON.parse(l) as { chunker: string; id: string }; return `${c.chunker} ${c.id}`; });
  // size 16, overlap 4: windows start every 12 characters (0, 12, 24, 36) — with the defaults (800/100)
  // the whole file would be one chunk, and every chunker would run, over skip/other.txt too.
  const r = cli(['chunks', '--workspace', ws, '--out', out]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(ids(), ['fixed doc.txt#0-16', 'fixed doc.txt#12-28', 'fixed doc.txt#24-40', 'fixed doc.txt#36-40']);
  // --config wins key by key (overlap 0: windows every 16), --chunkers wins over the chunkers setting
  const config = path.join(ws, 'config.json');
  writeFileSync(config, JSON.stringify({ chunkerParams: { fixed: { overlap: 0 } } }));
  const r2 = cli(['chunks', '--workspace', ws, '--config', config, '--chunkers', 'fixed,heading', '--out', out, '--force']);
  assert.equal(r2.status, 0, r2.stderr);
  assert.deepEqual(ids(), ['fixed doc.txt#0-16', 'fixed doc.txt#16-32', 'fixed doc.txt#32-40', 'heading doc.txt#0-40']);
  // a bad value there is bad input naming the file and the key, as for run
  writeFileSync(path.join(ws, '.vscode', 'settings.json'), '{"spanproof.chunkerParams.fixed.size": 0}');
  const bad = cli(['chunks', '--workspace', ws, '--out', path.join(ws, 'bad.jsonl')]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /settings\.json: spanproof\.chunkerParams\.fixed\.size: 0 is not valid .* Fix: set spanproof\.chunkerParams\.fixed\.size to a whole number ≥ 2/);
  assert.equal(existsSync(path.join(ws, 'bad.jsonl')), false);
});
