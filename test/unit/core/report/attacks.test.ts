/**
 * The attack success section of the reports (issue #17 item 2) on a hand-written attacks.json: the
 * XPIA and UPIA rows with their CIs exactly as formatted (3 decimals, `n/a` for an unmeasured mean
 * that JSON wrote as null, a signed difference), the same-model warning, the "not Azure's safety
 * service" note, nothing without the file; and attacks.json through src/core/runs: one attack kind's
 * entry replaced without losing the other, and an older bare XPIA report read as `{xpia}`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { attacksCsv, attacksHtml, attacksMarkdown } from '../../../../src/core/report';
import { readAttacks, UPIA_OUTDATED, writeAttackReport } from '../../../../src/core/runs';
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
const dr = (defectRate: number | null, lo: number | null, hi: number | null, measured: number, unmeasured: number, defects: number) => ({ defectRate, lo, hi, measured, unmeasured, defects });
const upia: UpiaAttackFile = {
  attack: 'upia', format: 2, templates: 'upia-v1', seed: 7, resamples: 400, threshold: 'medium', categories: ['violence', 'protected_material'], generatorModel: 'gen', judgeModel: 'judge', sameModel: false, prompts: { generate: 'generate@1#aa' },
  questions: [{ id: 'q1', control: 'Q?', attacked: 'Q?\n\nX', kind: 'intrusion', length: 'short', placement: 'after', tag: 'SPX-000001', instruction: 'X' }],
  configs: [{
    id: 'heading/bm25/none',
    any: dr(0.5, 0.25, 0.75, 4, 1, 2),
    categories: { violence: { ...dr(0.25, 0, 0.75, 4, 1, 1), threshold: 'medium' }, protected_material: { ...dr(0.4, 0, 0.8, 5, 0, 2), threshold: 'true' } },
    byKind: { manipulated_content: dr(1, 1, 1, 1, 0, 1), intrusion: dr(0.5, 0, 1, 2, 0, 1), information_gathering: dr(null, null, null, 0, 1, 0) },
    followed: dr(0.6, 0.2, 1, 5, 0, 3),
  }],
  items: [], note: NOTE, ledger,
};

test('attacks section: XPIA and UPIA rows with their CIs, the same-model warning, the note; nothing without attacks.json', () => {
  const md = attacksMarkdown({ spanproof: 1, xpia, upia }).join('\n');
  assert.match(md, /^## Attack success \(with your models\)/);
  assert.ok(md.includes(`_${NOTE}_`));
  assert.ok(md.includes('| heading/bm25/none | 0.667 [0.333, 1.000] | 3 | 0 | 0.333 [0.000, 1.000] | 0.333 [0.000, 1.000] | 0.000 [0.000, 0.000] |'), md);
  assert.ok(md.includes('| fixed/bm25/none | n/a | 0 | 3 |'), 'an all-unmeasured config is n/a, never 0');
  assert.match(md, /WARNING: the same model/);
  // UPIA: any 0.5 (4 measured, 1 unmeasured), violence 0.25, protected 0.4, by kind 1, 0.5, n/a (none measured), followed 0.6.
  assert.ok(md.includes('| config | any category | measured | unmeasured | violence | protected_material | manipulated_content | intrusion | information_gathering | instruction followed |'), md);
  assert.ok(md.includes('| heading/bm25/none | 0.500 [0.250, 0.750] | 4 | 1 | 0.250 [0.000, 0.750] | 0.400 [0.000, 0.800] | 1.000 [1.000, 1.000] | 0.500 [0.000, 1.000] | n/a | 0.600 [0.200, 1.000] |'), md);
  assert.match(md, /1 control questions and their attacked twins \(templates upia-v1, seed 7\)/);
  assert.match(md, /at or above medium in a category/);
  const html = attacksHtml({ spanproof: 1, xpia, upia });
  assert.match(html, /<h2 id="attacks">/);
  assert.ok(html.includes('<td class="l">heading/bm25/none</td><td>0.667 [0.333, 1.000]</td><td>3</td><td>0</td>'));
  assert.ok(html.includes('<td class="l">heading/bm25/none</td><td>0.500 [0.250, 0.750]</td><td>4</td><td>1</td><td>0.250 [0.000, 0.750]</td>'));
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
  assert.equal(both.upia!.configs[0].any.measured, 4);
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

test('attacks.json: a UPIA entry of format 1 (obedience, before the harm-based defect) is not read as a result but said so, kept when XPIA is rewritten; a newer format is refused', () => {
  const dir = tempDir('spanproof-attacks-v1-');
  const v1 = { attack: 'upia', templates: 'upia-v1', seed: 7, questions: [], configs: [{ id: 'heading/bm25/none', attacked: ci(0.75, 0.5, 1), control: ci(0.25, 0, 0.75) }] };
  writeFileSync(join(dir, 'attacks.json'), JSON.stringify({ spanproof: 1, upia: v1 }));
  const old = readAttacks(dir)!;
  assert.equal(old.upia, undefined);
  assert.equal(old.upiaOutdated, UPIA_OUTDATED);
  assert.match(old.upiaOutdated!, /older format \(format 1.*Run the UPIA step again/);
  const md = attacksMarkdown(old).join('\n');
  assert.ok(md.includes("### UPIA: an instruction in the user's question") && md.includes(UPIA_OUTDATED), md);
  assert.ok(!md.includes('| config |'), 'no table for it');
  assert.ok(attacksHtml(old).includes('Run the UPIA step again'));
  writeAttackReport(dir, xpia);
  const raw = JSON.parse(readFileSync(join(dir, 'attacks.json'), 'utf8'));
  assert.deepEqual(raw.upia, v1, 'the old entry is kept until a UPIA step replaces it');
  assert.equal(raw.xpia.attack, 'xpia');
  writeAttackReport(dir, upia);
  assert.equal(readAttacks(dir)!.upia!.format, 2);
  assert.equal(readAttacks(dir)!.upiaOutdated, undefined);
  writeFileSync(join(dir, 'attacks.json'), JSON.stringify({ spanproof: 1, upia: { ...upia, format: 3 } }));
  assert.throws(() => readAttacks(dir), /UPIA result was written by a newer Spanproof \(format 3\); update Spanproof/);
});

test('CSV columns from attacks.json: xpia_success and upia_defect_* per config, empty for a config not attacked, none without the file', () => {
  const c = attacksCsv({ spanproof: 1, xpia, upia });
  assert.deepEqual(c.head, [
    'xpia_success', 'xpia_success_lo', 'xpia_success_hi', 'xpia_measured', 'xpia_unmeasured', 'xpia_success_manipulated_content', 'xpia_success_intrusion', 'xpia_success_information_gathering',
    'upia_threshold', 'upia_defect_any', 'upia_defect_any_lo', 'upia_defect_any_hi', 'upia_measured', 'upia_unmeasured',
    'upia_defect_violence', 'upia_defect_violence_lo', 'upia_defect_violence_hi', 'upia_defect_protected_material', 'upia_defect_protected_material_lo', 'upia_defect_protected_material_hi',
    'upia_defect_manipulated_content', 'upia_defect_intrusion', 'upia_defect_information_gathering', 'upia_followed',
  ]);
  assert.deepEqual(c.cells('heading/bm25/none'), [2 / 3, 1 / 3, 1, 3, 0, 1 / 3, 1 / 3, 0, 'medium', 0.5, 0.25, 0.75, 4, 1, 0.25, 0, 0.75, 0.4, 0, 0.8, 1, 0.5, null, 0.6]);
  // fixed/bm25/none: XPIA all unmeasured (null), not attacked by UPIA (empty)
  assert.deepEqual(c.cells('fixed/bm25/none'), [null, null, null, 0, 3, 0, 0, 0, ...new Array(16).fill(undefined)]);
  assert.deepEqual(attacksCsv(null).head, []);
  assert.deepEqual(attacksCsv({ spanproof: 1, upia }).head.slice(0, 2), ['upia_threshold', 'upia_defect_any']);
});
