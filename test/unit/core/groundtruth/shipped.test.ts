import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadCorpus } from '../../../../src/core/corpus';
import { readGroundTruth, resolveGroundTruth } from '../../../../src/core/groundtruth';
import { tempDir } from '../../../helpers/tmp';
import { SHARED_DATA } from '../../../helpers/paths';

const DATA = SHARED_DATA;

async function resolveShipped(name: string, root = path.join(DATA, name)) {
  const corpus = await loadCorpus(root);
  const gt = await readGroundTruth(path.join(DATA, `${name}.groundtruth.json`));
  const texts = new Map(corpus.documents.map((d) => [d.source, d.text]));
  return { gt, texts, res: resolveGroundTruth(gt, (s) => texts.get(s)) };
}

test('shipped FastAPI ground truth resolves 45/45 at its offsets', async () => {
  const { res } = await resolveShipped('fastapi-docs');
  assert.deepEqual(res.acceptance, { total: 45, resolved: 45, moved: 0, stale: [], ambiguous: [], rejected: [], relocated: [] });
  assert.equal(res.changed, false);
  assert.equal(res.questions.length, 45);
});

test('shipped prose ground truth resolves 15/15 on CRLF files', async () => {
  const { res } = await resolveShipped('prose');
  assert.deepEqual(res.acceptance, { total: 15, resolved: 15, moved: 0, stale: [], ambiguous: [], rejected: [], relocated: [] });
});

test('prose ground truth still resolves (as moved) after the corpus is converted to LF', async () => {
  const dir = tempDir('spanproof-prose-lf-');
  try {
    const src = path.join(DATA, 'prose');
    const original = await loadCorpus(src);
    for (const d of original.documents) {
      const p = path.join(dir, d.source);
      mkdirSync(path.dirname(p), { recursive: true });
      writeFileSync(p, d.text.replace(/\r\n/g, '\n'));
    }
    const { gt, texts, res } = await resolveShipped('prose', dir);
    const evidenceCount = gt.questions.reduce((n, q) => n + q.evidence.length, 0);
    assert.equal(evidenceCount, 18);
    assert.equal(res.acceptance.total, 15);
    assert.equal(res.acceptance.resolved, 15);
    assert.equal(res.acceptance.moved, 15); // every quote sits after at least one CRLF → every offset shifts
    assert.equal(res.acceptance.relocated.length, 18);
    assert.deepEqual([res.acceptance.stale, res.acceptance.ambiguous, res.acceptance.rejected], [[], [], []]);
    // Each moved span holds the quote with LF endings.
    res.questions.forEach((q, i) => q.spans.forEach((s, j) => {
      assert.equal(texts.get(s.source)!.slice(s.start, s.end), gt.questions[i].evidence[j].exact.replace(/\r\n/g, '\n'));
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
