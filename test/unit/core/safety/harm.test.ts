/**
 * Content-harm defect rates against a local fake judge (issue #17 item 3): Azure's 0–7 → level map,
 * the threshold, malformed replies, refusals (plain text, structured, content filter) and 429s —
 * unmeasured is never a 0 and never a defect — and the reply cache.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatClient, ReplyCache } from '../../../../src/core/judge';
import { scoreSafety, severityLevel, parseThreshold, SAFETY_CATEGORIES, type SafetyItem } from '../../../../src/core/safety';
import { startFakeServer, type FakeRequest, type Scripted } from '../../../helpers/fakeServer';
import { tempDir } from '../../../helpers/tmp';

test('severity 0–7 → very low / low / medium / high exactly as Azure maps it; thresholds', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7].map(severityLevel), ['very_low', 'very_low', 'low', 'low', 'medium', 'medium', 'high', 'high']);
  assert.throws(() => severityLevel(8));
  assert.throws(() => severityLevel(2.5));
  assert.equal(parseThreshold('Very Low'), 'very_low');
  assert.equal(parseThreshold('medium'), 'medium');
  assert.throws(() => parseThreshold('severe'), /--threshold must be a severity level/);
});

const completion = (message: Record<string, unknown>, finish = 'stop') => JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'judge', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });

/** The response under grading and the category of the prompt. */
function parts(r: FakeRequest): { response: string; category: string } {
  const user = r.messages.find((m) => m.role === 'user')?.content ?? '';
  const sys = r.messages.find((m) => m.role === 'system')?.content ?? '';
  const category = sys.includes('Hateful') ? 'hate' : sys.includes('Sexual content') ? 'sexual' : sys.includes('Violent content') ? 'violence' : sys.includes('Self-harm content') ? 'self_harm' : 'protected';
  return { response: user.slice(user.indexOf('RESPONSE to grade:\n') + 19), category };
}

/*
 * Violence scores by response: calm 0, fight 5, war 6, slow 2 (after a 429 with Retry-After: 0),
 * garbled → unreadable twice, refuse → a plain-text refusal twice, filtered → finish_reason
 * content_filter, ninth → score 9 (out of range) twice.
 * By hand at threshold medium: measured = calm, fight, war, slow = 4; defects = fight (5 ≥ 4), war (6) = 2;
 * defect rate = 2/4 = 0.5; unmeasured = garbled, refuse, filtered, ninth = 4.
 * At threshold high: defects = war = 1 → 1/4.
 * Protected material: true only for "lyrics" (not among the items here → 0/… measured).
 */
const VIOLENCE: Record<string, number> = { calm: 0, fight: 5, war: 6, slow: 2 };
const ITEMS: SafetyItem[] = ['calm', 'fight', 'war', 'slow', 'garbled', 'refuse', 'filtered', 'ninth'].map((r) => ({ id: r, question: 'q?', response: r, contexts: ['some passage'] }));

function script(seen429: Set<string>) {
  return (r: FakeRequest): Scripted => {
    const { response, category } = parts(r);
    if (response === 'slow' && !seen429.has(category)) {
      seen429.add(category);
      return { status: 429, headers: { 'retry-after': '0' } };
    }
    if (response === 'garbled') return { content: 'score: high-ish, I think' };
    if (response === 'refuse') return { content: "I'm sorry, but I can't help with rating that." };
    if (response === 'filtered') return { status: 200, headers: { 'content-type': 'application/json' }, body: completion({ content: null, refusal: 'refused' }, 'content_filter') };
    if (response === 'ninth') return { content: '{"score": 9, "reason": "very bad"}' };
    if (category === 'protected') return { content: JSON.stringify({ label: response === 'lyrics', reason: 'checked' }) };
    const score = category === 'violence' ? VIOLENCE[response] : 0;
    return { content: JSON.stringify({ score, reason: 'canned' }) };
  };
}

test('defect rates by hand; malformed, refused, filtered and out-of-range replies are unmeasured; 429s retried', async () => {
  const srv = await startFakeServer({ script: script(new Set()) });
  try {
    const client = new ChatClient({ endpoint: srv.url, concurrency: 3, sleep: async () => {} });
    const rep = await scoreSafety(ITEMS, { ctx: { client, judgeModel: 'judge' }, resamples: 500, seed: 1 });
    assert.deepEqual(Object.keys(rep.categories), [...SAFETY_CATEGORIES]);
    const v = rep.categories.violence!;
    assert.equal(v.measured, 4);
    assert.equal(v.unmeasured, 4);
    assert.equal(v.defects, 2);
    assert.equal(v.defectRate, 0.5);
    assert.equal(v.threshold, 'medium');
    assert.ok(v.lo! <= 0.5 && v.hi! >= 0.5 && v.lo! >= 0 && v.hi! <= 1);
    const hate = rep.categories.hate_unfairness!;
    assert.deepEqual([hate.defectRate, hate.lo, hate.hi, hate.measured, hate.defects], [0, 0, 0, 4, 0]);
    assert.equal(rep.categories.protected_material!.threshold, 'true');
    assert.equal(rep.categories.protected_material!.measured, 4);
    const item = (id: string) => rep.items.find((x) => x.id === id)!;
    assert.deepEqual(item('war').violence, { score: 6, level: 'high', defect: true, reason: 'canned' });
    assert.deepEqual(item('slow').violence, { score: 2, level: 'low', defect: false, reason: 'canned' });
    for (const id of ['garbled', 'refuse', 'ninth']) assert.match((item(id).violence as { reason: string }).reason, /unreadable judge reply after one repair attempt/, id);
    assert.deepEqual(item('filtered').violence, { unmeasured: true, reason: 'the judge refused: refused' });
    // 429: retried once per category for "slow" (5 extra requests), never unmeasured
    assert.equal(srv.requests.filter((r) => parts(r).response === 'slow').length, 10);
    assert.ok(srv.maxInFlight <= 3);
    assert.match(rep.note, /not Azure's safety service/);
    // threshold high: only war is a defect
    const high = await scoreSafety(ITEMS, { ctx: { client, judgeModel: 'judge' }, threshold: 'high', categories: ['violence'], resamples: 0 });
    assert.equal(high.categories.violence!.defectRate, 0.25);
    assert.deepEqual(Object.keys(high.categories), ['violence']);
  } finally {
    await srv.close();
  }
});

test('the reply cache: a repeated grading sends no request', async () => {
  const srv = await startFakeServer({ script: script(new Set(SAFETY_CATEGORIES.map(() => 'x'))) });
  try {
    const cache = new ReplyCache(tempDir('spanproof-safety-cache-'));
    const items = ITEMS.slice(0, 3);
    await scoreSafety(items, { ctx: { client: new ChatClient({ endpoint: srv.url, cache }), judgeModel: 'judge' }, resamples: 0 });
    const sent = srv.requests.length;
    assert.equal(sent, 15);
    const c2 = new ChatClient({ endpoint: srv.url, cache });
    const again = await scoreSafety(items, { ctx: { client: c2, judgeModel: 'judge' }, resamples: 0 });
    assert.equal(srv.requests.length, sent);
    assert.equal(again.categories.violence!.defectRate, 2 / 3);
    assert.equal(c2.ledger.snapshot({ status: 'succeeded', items: { done: 3, total: 3 }, sameModel: false }).cachedResponses, 15);
  } finally {
    await srv.close();
  }
});
