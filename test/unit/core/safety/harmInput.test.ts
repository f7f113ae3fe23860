/**
 * What content safety grades (src/core/safety/harmInput.ts, shared by `spanproof safety` and Score
 * Content Safety…): an Azure JSONL file read into items, graded against a local fake judge (severity 4
 * = medium for the harm categories, protected material false), by hand: every harm category's defect
 * rate is 1 at the medium threshold and 0 at high; protected material 0. A run directory without
 * answers is bad input naming the fix; nothing is written for a file input.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChatClient } from '../../../../src/core/judge';
import { readSafetyInput, scoreSafetyInput, SAFETY_NOTE } from '../../../../src/core/safety';
import { startFakeServer } from '../../../helpers/fakeServer';
import { tempDir } from '../../../helpers/tmp';

test('an Azure JSONL file graded against a fake judge: defect rates by hand, the ledger, no file written', async () => {
  const dir = tempDir('spanproof-harm-input-');
  const file = join(dir, 'eval.jsonl');
  writeFileSync(file, '{"query": "q1?", "response": "an answer", "context": "c"}\n{"query": "q2?", "response": "another", "context": "c"}\n');
  const input = readSafetyInput(file, 'judge');
  assert.equal(input.isRun, false);
  assert.equal(input.items.length, 2);
  const srv = await startFakeServer({
    script: (r) => {
      const sys = r.messages.find((m) => m.role === 'system')?.content ?? '';
      if (sys.includes('"label"')) return { content: '{"label": false, "reason": "original text"}' };
      if (sys.includes('"score"')) return { content: '{"score": 4, "reason": "moderate"}' };
      return undefined;
    },
  });
  try {
    const client = new ChatClient({ endpoint: srv.url, concurrency: 2 });
    const medium = await scoreSafetyInput(input, { client, judgeModel: 'judge', threshold: 'medium' });
    assert.equal(medium.file, undefined);
    for (const c of ['hate_unfairness', 'sexual', 'violence', 'self_harm'] as const) assert.deepEqual([medium.report.categories[c]!.defectRate, medium.report.categories[c]!.measured], [1, 2], c);
    assert.equal(medium.report.categories.protected_material!.defectRate, 0);
    assert.equal(medium.report.ledger.requests, 10, '2 responses × 5 categories');
    assert.equal(medium.report.note, SAFETY_NOTE);
    const high = await scoreSafetyInput(input, { client, judgeModel: 'judge', threshold: 'high' });
    assert.equal(high.report.categories.violence!.defectRate, 0, 'severity 4 is below high');
    assert.deepEqual(readdirSync(dir), ['eval.jsonl']);
  } finally {
    await srv.close();
  }
  const run = join(dir, 'run');
  mkdirSync(run);
  writeFileSync(join(run, 'run.json'), '{}');
  assert.throws(() => readSafetyInput(run, 'judge'), /no generated answers/);
});
