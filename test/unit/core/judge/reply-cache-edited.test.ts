/**
 * The judge reply cache checks each reply against its checksum (a fresh user's finding: a hand-edited
 * cached reply was used as the judge's answer): an edited or damaged file is not used — the request
 * is sent again and the file rewritten — with one `warning:` line per file; a format-1 file (written
 * before the checksum) is still used; a newer format is neither used nor overwritten.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChatClient, ReplyCache } from '../../../../src/core/judge';
import { onReplyCacheWarning } from '../../../../src/core/judge/cache';
import { startFakeServer } from '../../../helpers/fakeServer';
import { tempDir } from '../../../helpers/tmp';

const MSG = [{ role: 'user' as const, content: 'hello' }];

/** The one cache file under `dir`. */
function onlyFile(dir: string): string {
  const sub = readdirSync(dir).filter((n) => n.length === 2);
  assert.equal(sub.length, 1);
  const files = readdirSync(join(dir, sub[0]));
  assert.equal(files.length, 1);
  return join(dir, sub[0], files[0]);
}

test('an edited, a damaged and a newer-format reply file are not used (one warning each); a format-1 file is', async (t) => {
  const srv = await startFakeServer({ script: () => ({ content: 'the real reply' }) });
  t.after(() => srv.close());
  const warnings: string[] = [];
  onReplyCacheWarning((l) => warnings.push(l));
  t.after(() => onReplyCacheWarning(null));
  const dir = tempDir('sp-reply-cache-', t);
  const ask = async () => new ChatClient({ endpoint: srv.url, cache: new ReplyCache(dir) }).chat({ model: 'm', messages: MSG, promptVersion: 'p@1' });

  assert.equal((await ask()).content, 'the real reply');
  const file = onlyFile(dir);
  const written = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(written.format, 2);
  assert.match(written.sha, /^[0-9a-f]{64}$/);
  const cached = await ask();
  assert.deepEqual([cached.cached, cached.content, srv.requests.length, warnings], [true, 'the real reply', 1, []]);

  // edited: the judge's reply changed by hand
  writeFileSync(file, JSON.stringify({ ...written, content: 'an edited reply' }, null, 2));
  const edited = await ask();
  assert.deepEqual([edited.cached, edited.content, srv.requests.length], [false, 'the real reply', 2]);
  assert.deepEqual(warnings, [`the judge reply cache ${file} was edited (its reply does not match its checksum — changed after Spanproof wrote it); the request is sent again.`]);
  assert.equal((await ask()).cached, true, 'rewritten: used again, without a warning');
  assert.equal(warnings.length, 1);

  // damaged: cut short
  writeFileSync(file, readFileSync(file, 'utf8').slice(0, 20));
  assert.equal((await ask()).cached, false);
  assert.equal(warnings[1], `the judge reply cache ${file} was damaged (not valid JSON — truncated or garbled); the request is sent again.`);

  // format 1 (no checksum, written before it existed): a paid reply is still used, silently
  const { format: _f, sha: _s, ...v1 } = JSON.parse(readFileSync(file, 'utf8'));
  writeFileSync(file, JSON.stringify({ ...v1, content: 'an older reply' }));
  const old = await ask();
  assert.deepEqual([old.cached, old.content, warnings.length], [true, 'an older reply', 2]);

  // a newer format: not used, left as it is
  const newer = JSON.stringify({ ...written, format: 3 });
  writeFileSync(file, newer);
  assert.equal((await ask()).cached, false);
  assert.equal(readFileSync(file, 'utf8'), newer);
  assert.match(warnings[2], /was written by a newer Spanproof \(format 3\); not used and left as it is/);
});
