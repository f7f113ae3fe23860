/**
 * Issue #16: a flag value that is not one of its choices is a user mistake like any other — exit 2,
 * one message naming the flag and the value, and a `Fix:` line. `query --rerank maybe` printed the
 * message with no fix; a k or pool of 0 reaching the query from settings did too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runQueries } from '../../../src/core/grid';
import { DEFAULT_SETTINGS } from '../../../src/core/settings';
import { MINI } from '../../helpers/grid';
import { runCli } from '../../helpers/cli';

test('query --rerank maybe: exit 2, the flag and value named, a Fix: with the choices, no stack', async () => {
  const r = await runCli(['query', '--workspace', MINI, '--chunker', 'heading', '--retriever', 'bm25', '--rerank', 'maybe', 'x']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--rerank "maybe" is not one of on, off/);
  assert.match(r.stderr, /Fix: pass one of them, e\.g\. --rerank on/);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  assert.equal(r.stderr.trim().split('\n').filter((l) => l.startsWith('spanproof:')).length, 1);
});

test('a k or pool below 1 reaching the query (from settings) names the option and says how to fix it', async () => {
  const base = { workspace: MINI, chunker: 'heading' as const, retriever: 'bm25', rerank: false, text: 'x' };
  await assert.rejects(runQueries({ ...base, settings: { ...DEFAULT_SETTINGS, k: 0 } }), (e: Error & { field?: string; fix?: string }) => e.field === '--k' && /--k 5/.test(e.fix ?? ''));
  await assert.rejects(runQueries({ ...base, settings: { ...DEFAULT_SETTINGS, poolSize: 0 } }), (e: Error & { field?: string; fix?: string }) => e.field === '--pool' && /--pool 20/.test(e.fix ?? ''));
});
