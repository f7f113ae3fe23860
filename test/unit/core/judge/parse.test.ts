import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractJson, parseReply, stripReasoning } from '../../../../src/core/judge/parse';
import { scaleReply, verdictsReply, booleanReply } from '../../../../src/core/judge/parse';
import { fBeta, retryAfterMs, promptVersion, SCALE_PROMPTS, ALL_PROMPTS } from '../../../../src/core/judge';
import { fill } from '../../../../src/core/judge/prompts';

test('extractJson: bare JSON, code fences, JSON inside prose, <think> blocks, trailing commas', () => {
  assert.deepEqual(extractJson('{"score": 4, "reason": "ok"}'), { score: 4, reason: 'ok' });
  assert.deepEqual(extractJson('Here is my grade:\n```json\n{"score": 3, "reason": "partly"}\n```\nThanks'), { score: 3, reason: 'partly' });
  assert.deepEqual(extractJson('Sure! The result is {"score": 5, "reason": "uses {braces} and \\"quotes\\""} as requested.'), { score: 5, reason: 'uses {braces} and "quotes"' });
  assert.deepEqual(extractJson('<think>maybe {"score": 1}? no</think>\n{"score": 2, "reason": "r"}'), { score: 2, reason: 'r' });
  assert.deepEqual(extractJson('{"claims": ["a", "b",],}'), { claims: ['a', 'b'] });
  assert.equal(extractJson('no json here'), undefined);
  assert.equal(extractJson('[1, 2]'), undefined, 'an array is not a reply object');
  assert.equal(stripReasoning('<think>unfinished reasoning'), '');
});

test('parseReply validates the schema and names the bad field', () => {
  assert.deepEqual(parseReply('{"score": "4", "reason": "x"}', scaleReply), { ok: true, value: { score: 4, reason: 'x' } });
  const bad = parseReply('{"score": 7, "reason": "x"}', scaleReply);
  assert.equal(bad.ok, false);
  assert.match((bad as { error: string }).error, /field "score"/);
  assert.equal(parseReply('{"score": 3.5, "reason": "x"}', scaleReply).ok, false, 'the 1–5 scale is integer');
  assert.deepEqual(parseReply('{"correct": "yes"}', booleanReply), { ok: true, value: { correct: true, reason: '' } });
  assert.deepEqual(parseReply('{"verdicts":[{"index":"1","supported":"no","reason":"r"}]}', verdictsReply), { ok: true, value: { verdicts: [{ index: 1, supported: false, reason: 'r' }] } });
  assert.deepEqual(parseReply('prose only', scaleReply), { ok: false, error: 'no JSON object found in the reply' });
});

test('fBeta: claim-level F-beta as RAGAS defines it (hand calculation)', () => {
  // P = 2/3, R = 2/3 → F_β = P for any β.
  const a = fBeta(2, 1, 1, 1.5);
  assert.ok(Math.abs(a.f - 2 / 3) < 1e-12);
  // TP 1, FP 0, FN 3: P = 1, R = 0.25, F_1.5 = 3.25·0.25 / (2.25 + 0.25) = 0.325.
  assert.ok(Math.abs(fBeta(1, 0, 3, 1.5).f - 0.325) < 1e-12);
  // TP 1, FP 1, FN 0: P = 0.5, R = 1, F_1.5 = 3.25·0.5 / (1.125 + 1) = 0.76470588…
  assert.ok(Math.abs(fBeta(1, 1, 0, 1.5).f - 1.625 / 2.125) < 1e-12);
  // β = 1 is F1: P = 0.5, R = 1 → 2/3.
  assert.ok(Math.abs(fBeta(1, 1, 0, 1).f - 2 / 3) < 1e-12);
  assert.equal(fBeta(0, 2, 3, 1.5).f, 0);
});

test('retryAfterMs: retry-after-ms, Retry-After seconds and HTTP date', () => {
  assert.equal(retryAfterMs(new Headers({ 'retry-after': '2' })), 2000);
  assert.equal(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' })), 250);
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now), 3000);
  assert.equal(retryAfterMs(new Headers({})), null);
});

test('prompts: versioned ids with a content hash; fill is one pass', () => {
  assert.match(promptVersion(SCALE_PROMPTS.groundedness), /^groundedness@1#[0-9a-f]{12}$/);
  const ids = ALL_PROMPTS.map((p) => p.id);
  assert.equal(new Set(ids).size, ids.length);
  const changed = { ...SCALE_PROMPTS.fluency, system: SCALE_PROMPTS.fluency.system + ' ' };
  assert.notEqual(promptVersion(changed), promptVersion(SCALE_PROMPTS.fluency), 'an edited prompt gets a new cache identity');
  assert.equal(fill('{{a}} {{b}}', { a: '{{b}}', b: 'x' }), '{{b}} x');
});
