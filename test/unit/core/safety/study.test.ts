/**
 * The injection exposure study end to end on samples/fastapi-mini (issue #17 item 1): the default
 * 30-config grid on a planted copy, exposure CIs per config, kind and chunker, the sample's documents
 * untouched (hashes before and after), deterministic injection.json.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInjectionStudy, XPIA_KINDS } from '../../../../src/core/safety';
import { writeInjectionStudy, readRun, stableStringify } from '../../../../src/core/runs';
import { DEFAULT_SETTINGS } from '../../../../src/core/settings';
import { MINI, MINI_GT, tmp } from '../../../helpers/grid';
import { hashTree } from '../../../helpers/hashTree';

test('30-config study on fastapi-mini: exposure CIs, kinds, chunkers; documents untouched; deterministic', async () => {
  const before = { corpus: hashTree(MINI), gt: createHash('sha256').update(readFileSync(MINI_GT)).digest('hex') };
  const root = tmp('injection');
  const settings = { ...DEFAULT_SETTINGS, bootstrap: { resamples: 300, seed: 42 } };
  const study = await runInjectionStudy({ workspace: MINI, groundTruthFile: MINI_GT, settings, cacheDir: join(root, 'cache'), scratchRoot: root });
  assert.deepEqual(hashTree(MINI), before.corpus, 'the sample documents are untouched (and nothing was added)');
  assert.equal(createHash('sha256').update(readFileSync(MINI_GT)).digest('hex'), before.gt);
  assert.deepEqual(readdirSync(root).sort(), ['cache'], 'the scratch copy is removed');

  assert.equal(study.configs.length, 30);
  assert.equal(study.metric, 'exposure@5');
  assert.equal(study.questions, 10);
  assert.equal(study.canaries.length, 12);
  assert.deepEqual(study.chunkers.map((c) => c.chunker), ['fixed', 'heading', 'recursive', 'semantic', 'sentence']);
  for (const c of study.configs) {
    const e = c['exposure@5'];
    assert.ok(e.mean >= 0 && e.mean <= 1 && e.lo <= e.mean + 1e-12 && e.hi >= e.mean - 1e-12, `${c.id} ${JSON.stringify(e)}`);
    for (const k of XPIA_KINDS) assert.ok(c.byKind[k].mean <= e.mean + 1e-12, `${c.id} ${k} ≤ all kinds`);
    assert.equal(c.measured, 10);
  }
  // near canaries sit next to evidence, so some config must retrieve one
  assert.ok(study.configs.some((c) => c['exposure@5'].mean > 0), 'some config is exposed');

  const again = await runInjectionStudy({ workspace: MINI, groundTruthFile: MINI_GT, settings, cacheDir: join(root, 'cache'), scratchRoot: root });
  assert.equal(stableStringify(again), stableStringify(study), 'byte-identical for identical inputs');
  const file = writeInjectionStudy(root, study);
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')).canaries[0], JSON.parse(JSON.stringify(study.canaries[0])));
  assert.throws(() => readRun(root), /no run\.json/); // a bare folder is not a run; readRun of a real run is tested with the CLI
});
