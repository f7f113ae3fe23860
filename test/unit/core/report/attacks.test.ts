/**
 * The attack success section of the reports (issue #17 item 2) on a hand-written attacks.json: the
 * XPIA and UPIA rows with their CIs exactly as formatted (3 decimals, `n/a` for an unmeasured mean
 * that JSON wrote as null, a signed difference), the same-model warning, the "not Azure's safety
 * service" note, nothing without the file; and attacks.json through src/core/runs: one attack kind's
 * entry replaced without losing the other, and an older bare XPIA report read as `{xpia}`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { attacksHtml, attacksMarkdown } from '../../../../src/core/report';
import { readAttacks, writeAttackReport } from '../../../../src/core/runs';
import type { AttacksFile, UpiaAttackFile, XpiaAttackFile } from '../../../../src/core/safety';
import { tempDir } from '../../../helpers/tmp';

const ci = (mean: number, lo: number, hi: number) => ({ mean, lo, hi });
const ledger = { endpoint: 'http://127.0.0.1:1', byModel: {}, status: 'succeeded', items: { done: 2, total: 2 }, sameModel: false, requests: 3, cachedResponses: 0, promptTokens: 0, completionTokens: 0, latencyMs: 0, failures: 0, retries: 0, waitedMs: 0 } as unknown as XpiaAttackFile['ledger'];
const NOTE = "Attack success is judged by the models you configured; a local judge is not Azure's safety service.";

const xpia: XpiaAttackFile = {
  attack: 'xpia', generatorModel: 'gen', judgeModel: 'gen', sameModel: true, prompts: { generate: 'generate@1#aa', 'safety-xpia-followed': 'safety-xpia-followed@1#bb' },
  configs: [
    { id: 'heading/bm25/none', attackSuccess: { ...ci(2 / 3, 1 / 3, 1), measured: 3, unmeasured: 0 }, byKind: { manipulated_content: ci(1 / 3, 0, 1), intrusion: ci(1 / 3, 0, 1), information_gathering: ci(0, 0, 0) } },
    // all unmeasured: JSON wrote NaN as null
    { id: 'fixed/bm25/none', attackSuccess: { mean: null, lo: null, hi: null, measured: 0, unmeasured: 3 } as never, byKind: { manipulated_content: ci(0, 0, 0), intrusion: ci(0, 0, 0), information_gathering: ci(0, 0, 0) } },
  ],
  items: [], note: NOTE, ledger,
};
const kinds = (a: number, c: number) => ({ attacked: ci(a, a, a), control: ci(c, c, c), difference: { ...ci(a - c, a - c, a - c), significant: false } });
const upia: UpiaAttackFile = {
  attack: 'upia', templates: 'upia-v1', seed: 7, resamples: 400, generatorModel: 'gen', judgeModel: 'judge', sameModel: false, prompts: { generate: 'generate@1#aa' },
  questions: [{ id: 'q1', control: 'Q?', attacked: 'Q?\n\nX', kind: 'intrusion', length: 'short', placement: 'after', tag: 'SPX-000001', instruction: 'X' }],
  configs: [{ id: 'heading/bm25/none', attacked: { ...ci(0.75, 0.5, 1), measured: 4, unmeasured: 0 }, control: { ...ci(0.25, 0, 0.75), measured: 3, unmeasured: 1 }, difference: { ...ci(0.5, 0, 1), significant: false, pairs: 3 }, byKind: { manipulated_content: kinds(1, 0), intrusion: kinds(0.5, 0.5), information_gathering: kinds(0, 0) } }],
  items: [], note: NOTE, ledger,
};

test('attacks section: XPIA and UPIA rows with their CIs, the same-model warning, the note; nothing without attacks.json', () => {
  const md = attacksMarkdown({ spanproof: 1, xpia, upia }).join('\n');
  assert.match(md, /^## Attack success \(with your models\)/);
  assert.ok(md.includes(`_${NOTE}_`));
  assert.ok(md.includes('| heading/bm25/none | 0.667 [0.333, 1.000] | 3 | 0 | 0.333 [0.000, 1.000] | 0.333 [0.000, 1.000] | 0.000 [0.000, 0.000] |'), md);
  assert.ok(md.includes('| fixed/bm25/none | n/a | 0 | 3 |'), 'an all-unmeasured config is n/a, never 0');
  assert.match(md, /WARNING: the same model/);
  // UPIA: attacked 0.75, control 0.25, difference +0.5 over 3 pairs, 0 / 1 unmeasured, attacked by kind 1, 0.5, 0.
  assert.ok(md.includes('| heading/bm25/none | 0.750 [0.500, 1.000] | 0.250 [0.000, 0.750] | +0.500 [0.000, 1.000] | 3 | 0 / 1 | 1.000 [1.000, 1.000] | 0.500 [0.500, 0.500] | 0.000 [0.000, 0.000] |'), md);
  assert.match(md, /1 control questions and their attacked twins \(templates upia-v1, seed 7\)/);
  const html = attacksHtml({ spanproof: 1, xpia, upia });
  assert.match(html, /<h2 id="attacks">/);
  assert.ok(html.includes('<td class="l">heading/bm25/none</td><td>0.667 [0.333, 1.000]</td><td>3</td><td>0</td>'));
  assert.ok(html.includes('<td>+0.500 [0.000, 1.000]</td><td>3</td><td>0 / 1</td>'));
  assert.ok(html.includes("a local judge is not Azure&#39;s safety service") || html.includes("a local judge is not Azure's safety service"));
  assert.ok(html.includes('<code>gen</code>'));
  const onlyUpia = attacksMarkdown({ spanproof: 1, upia }).join('\n');
  assert.ok(!onlyUpia.includes('XPIA') && onlyUpia.includes('UPIA'));
  assert.deepEqual(attacksMarkdown(null), []);
  assert.equal(attacksHtml({ spanproof: 1 }), '');
});

test('attacks.json: writing one attack kind keeps the other; an older bare XPIA report is read as {xpia}', () => {
  const dir = tempDir('spanproof-attacks-');
  writeAttackReport(dir, xpia);
  writeAttackReport(dir, upia);
  const both = readAttacks(dir) as AttacksFile;
  assert.equal(both.spanproof, 1);
  assert.equal(both.xpia!.configs[0].attackSuccess.mean, 2 / 3);
  assert.equal(both.upia!.configs[0].difference.pairs, 3);
  writeAttackReport(dir, { ...xpia, judgeModel: 'judge2' });
  assert.equal(readAttacks(dir)!.xpia!.judgeModel, 'judge2');
  assert.equal(readAttacks(dir)!.upia!.seed, 7, 'the UPIA entry is kept');
  const legacy = tempDir('spanproof-attacks-old-');
  const { attack: _, ...bare } = xpia;
  writeFileSync(join(legacy, 'attacks.json'), JSON.stringify(bare));
  const old = readAttacks(legacy)!;
  assert.equal(old.xpia!.attack, 'xpia');
  assert.equal(old.upia, undefined);
  assert.equal(readAttacks(tempDir('spanproof-attacks-none-')), null);
  writeFileSync(join(legacy, 'attacks.json'), '{"something": 1}');
  assert.throws(() => readAttacks(legacy), /neither an attacks file/);
});
