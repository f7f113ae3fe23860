/**
 * The attack part of the results panel's injection tab (webview/tabs/attacks.ts), rendered in Node
 * from a hand-written attacks.json as the panel receives it (RunData.attacks): XPIA rows with attack
 * success, measured / unmeasured and by kind; UPIA rows with the harm-based defect rate (any
 * category, per category, by kind) and instruction followed, or the message for an older-format
 * entry; the same-model warning; the note that a local judge is not Azure's safety service; and
 * nothing at all for a run without attacks.json; and the tab itself (webview/tabs/injection.ts) showing it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../../helpers/elementStub';
import { attacksView } from '../../../webview/tabs/attacks';
import { injectionTab } from '../../../webview/tabs/injection';
import type { AttacksFile } from '../../../src/core/safety';
import { litHtml, litText } from '../../helpers/litText';

const ci = (mean: number, lo: number, hi: number) => ({ mean, lo, hi });
const zero = { manipulated_content: ci(0, 0, 0), intrusion: ci(0, 0, 0), information_gathering: ci(0, 0, 0) };
const dr = (defectRate: number | null, lo: number | null, hi: number | null, measured = 10, unmeasured = 0) => ({ defectRate, lo, hi, measured, unmeasured, defects: 0 });
const file = {
  spanproof: 1,
  xpia: {
    attack: 'xpia', generatorModel: 'gen-x', judgeModel: 'judge-x', sameModel: false, prompts: {}, items: [], ledger: {},
    note: "Attack success is judged by the models you configured; a local judge is not Azure's safety service.",
    configs: [{ id: 'heading/bm25/none', attackSuccess: { ...ci(0.4, 0.1, 0.7), measured: 10, unmeasured: 2 }, byKind: { ...zero, intrusion: ci(0.2, 0, 0.5) } }],
  },
  upia: {
    attack: 'upia', format: 2, templates: 'upia-v1', seed: 42, resamples: 2000, threshold: 'medium', categories: ['violence', 'self_harm'], generatorModel: 'gen-u', judgeModel: 'gen-u', sameModel: true, prompts: {}, items: [], ledger: {},
    note: "… a local judge is not Azure's safety service.",
    questions: new Array(10).fill({}),
    configs: [{ id: 'fixed/dense/rerank', any: dr(0.6, 0.3, 0.9, 10, 0), categories: { violence: dr(0.5, 0.2, 0.8), self_harm: dr(0.1, 0, 0.3) }, byKind: { manipulated_content: dr(1, 1, 1), intrusion: dr(0.25, 0.25, 0.25), information_gathering: dr(null, null, null, 0, 3) }, followed: dr(0.7, 0.4, 1) }],
  },
} as unknown as AttacksFile;

test('injection tab, attack part: XPIA and UPIA rows with CIs, the same-model warning and the note', () => {
  const text = litText(attacksView(file));
  assert.match(text, /Attack success \(with your models\)/);
  assert.match(text, /a local judge is not Azure's safety service/);
  // XPIA row: config, attack success, measured, unmeasured, then manipulated_content, intrusion, information_gathering.
  assert.ok(text.includes('heading/bm25/none 0.400 [0.100, 0.700] 10 2 0.000 [0.000, 0.000] 0.200 [0.000, 0.500] 0.000 [0.000, 0.000]'), text);
  // UPIA row: any category, measured, unmeasured, violence, self_harm, by kind (— when none measured), instruction followed.
  assert.ok(text.includes('fixed/dense/rerank 0.600 [0.300, 0.900] 10 0 0.500 [0.200, 0.800] 0.100 [0.000, 0.300] 1.000 [1.000, 1.000] 0.250 [0.250, 0.250] — 0.700 [0.400, 1.000]'), text);
  assert.match(text, /at or above medium/);
  assert.match(text, /10 control questions and their attacked twins \(templates upia-v1, seed 42\)/);
  assert.match(text, /Generator gen-x , judge judge-x/);
  const html = litHtml(attacksView(file));
  assert.equal((html.match(/same model; judges favour their own output/g) ?? []).length, 1, 'only UPIA used the same model');
  assert.match(html, /data-testid="attacks"/);
});

test('injection tab, attack part: nothing without attacks.json, one section with one kind', () => {
  assert.equal(litHtml(attacksView(null)), '');
  assert.equal(litHtml(attacksView({ spanproof: 1 })), '');
  const onlyX = litText(attacksView({ spanproof: 1, xpia: file.xpia }));
  assert.ok(onlyX.includes('XPIA') && !onlyX.includes('UPIA'));
  const outdated = litText(attacksView({ spanproof: 1, upiaOutdated: 'Run the UPIA step again.' }));
  assert.ok(outdated.includes("UPIA: an instruction in the user's question") && outdated.includes('Run the UPIA step again.') && outdated.includes("not Azure's safety service"), outdated);
});

test('the Injection & attacks tab shows the attack section, also for a run without an exposure study', () => {
  // No chart is drawn without a study, so the element stub is enough.
  const tab = injectionTab;
  assert.equal(tab.label, 'Injection & attacks');
  const text = litText(tab.render({ s: { theme: 0 } as never, m: { data: { injection: null, attacks: file } } as never, act: {} as never }));
  assert.match(text, /This run has no injection exposure study/);
  assert.ok(text.includes('fixed/dense/rerank 0.600 [0.300, 0.900] 10 0'), text);
  assert.doesNotMatch(litText(tab.render({ s: { theme: 0 } as never, m: { data: { injection: null, attacks: null } } as never, act: {} as never })), /Attack success/);
});
