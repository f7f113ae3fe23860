/**
 * The pure parts of Score Content Safety… and Run Attack Step… (src/extension/safetyChoices.ts): the
 * attack steps a run offers (XPIA only with an injection study), the scripted arguments (unknown steps
 * and thresholds dropped), and the summaries shown after a step, with figures formatted by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attackChoices, attackSummary, parseSafetyArgs, safetySummary } from '../../../src/extension/safetyChoices';
import type { SafetyFile, UpiaAttackFile, XpiaAttackFile } from '../../../src/core/safety';

test('attack steps: UPIA always, XPIA only with an injection study (then picked by default)', () => {
  assert.deepEqual(attackChoices({ hasInjectionStudy: false }).map((c) => [c.step, c.picked]), [['upia', true]]);
  assert.deepEqual(attackChoices({ hasInjectionStudy: true }).map((c) => [c.step, c.picked]), [['xpia', true], ['upia', false]]);
});

test('scripted arguments: a string is the input; unknown steps and thresholds are dropped', () => {
  assert.deepEqual(parseSafetyArgs('/runs/r1'), { input: '/runs/r1' });
  assert.deepEqual(parseSafetyArgs({ input: 'a.jsonl', steps: ['upia', 'jailbreak'], threshold: 'high' }), { input: 'a.jsonl', steps: ['upia'], threshold: 'high' });
  assert.deepEqual(parseSafetyArgs({ steps: ['nope'], threshold: 'extreme' }), {});
  assert.deepEqual(parseSafetyArgs(undefined), {});
  assert.deepEqual(parseSafetyArgs(42), {});
});

test('summaries: defect rate per category with its CI, an unmeasured category said so; attack success per config', () => {
  const s = { threshold: 'medium', categories: { violence: { defectRate: 0.25, lo: 0, hi: 0.75, measured: 4, unmeasured: 1, defects: 1, threshold: 'medium' }, sexual: { defectRate: null, lo: null, hi: null, measured: 0, unmeasured: 5, defects: 0, threshold: 'medium' } } } as unknown as SafetyFile;
  assert.equal(safetySummary(s), 'defect rates at ≥ medium: violence 0.250 [0.000, 0.750] · sexual — (0 of 5 measured)');
  const x = { attack: 'xpia', configs: [{ id: 'a/bm25/none', attackSuccess: { mean: 2 / 3, lo: 1 / 3, hi: 1, measured: 3, unmeasured: 0 } }] } as unknown as XpiaAttackFile;
  assert.equal(attackSummary(x), 'XPIA attack success: a/bm25/none 0.667 [0.333, 1.000]');
  const u = { attack: 'upia', threshold: 'high', configs: [{ id: 'a/bm25/none', any: { defectRate: 0.5, lo: 0.2, hi: 0.8, measured: 10, unmeasured: 2, defects: 5 } }] } as unknown as UpiaAttackFile;
  assert.equal(attackSummary(u), 'UPIA defect rate (any category, ≥ high): a/bm25/none 0.500 [0.200, 0.800] (10 measured)');
});
