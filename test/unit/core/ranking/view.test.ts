// Reading ranking.json (format 1 and 2) into the one view; the timing-dependent verdict's arithmetic;
// the ranking of no config.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapResamples, percentileCI } from '../../../../src/core/stats';
import { isRankingFileV2, rankConfigs, rankingEntries, rankingView, type DeterministicCost, type RankedConfig, type RankingFile, type RankInput } from '../../../../src/core/ranking';
import type { RankingEntry, ResultsFile, TimingsFile } from '../../../../src/core/runs/types';

const cost = (total: number, unit: 'tokens' | 'characters' = 'characters'): DeterministicCost => ({ context: total, contextUnit: unit, queryEmbeddings: 0, rerankPasses: 0, compute: 0, total });
const entry = (id: string, rank: number, significantlyWorse: boolean, c: DeterministicCost) => ({ id, rank, significantlyWorse, cost: c }) as unknown as RankedConfig;

test('isRankingFileV2: only an object with spanproof: 2', () => {
  assert.equal(isRankingFileV2({ spanproof: 2 }), true);
  assert.equal(isRankingFileV2({ spanproof: 1 }), false);
  assert.equal(isRankingFileV2({}), false);
  assert.equal(isRankingFileV2(null), false);
  assert.equal(isRankingFileV2('2'), false);
  assert.equal(isRankingFileV2(Object.assign([], { spanproof: 2 })), false);
});

test('rankingEntries: latency from timings.json, context from results.json, else the character cost, tiedWithTop', () => {
  const file = { spanproof: 2, configs: [entry('a', 1, false, cost(300)), entry('b', 2, true, cost(70, 'tokens')), entry('c', 3, false, cost(50))] } as unknown as RankingFile;
  const timings = { perConfig: { a: { medianQueryMs: 1.5 }, b: { medianQueryMs: 4 } } } as unknown as TimingsFile;
  const results = { configs: [{ id: 'b', contextChars: 2000 }] } as unknown as ResultsFile;
  const e = rankingEntries(file, timings, results);
  assert.deepEqual(e.map((x) => [x.id, x.latencyMs, x.contextChars, x.tiedWithTop]), [['a', 1.5, 300, true], ['b', 4, 2000, false], ['c', null, 50, true]]);
  // without results.json a token cost has no character count: NaN, never the token number
  const bare = rankingEntries(file, null, null);
  assert.deepEqual(bare.map((x) => x.latencyMs), [null, null, null]);
  assert.ok(Number.isNaN(bare[1].contextChars));
  assert.equal(bare[0].contextChars, 300);
  assert.equal(bare[0].rank, 1); // the ranked config's own keys are kept
});

test('rankingView: format 2 with and without a timed verdict, format 1 sorted by rank, anything else null', () => {
  const verdict = { status: 'decisive' };
  const v2 = rankingView({ spanproof: 2, verdict, configs: [entry('a', 1, false, cost(1))] }, null, null)!;
  assert.equal(v2.format, 2);
  assert.equal(v2.verdict, verdict);
  assert.equal(v2.timedVerdict, null);
  assert.deepEqual(v2.entries.map((x) => x.id), ['a']);
  const tv = { recommended: 'a' };
  assert.equal(rankingView({ spanproof: 2, verdict, timedVerdict: tv, configs: [] }, null, null)!.timedVerdict, tv);
  const v1raw = [{ id: 'y', rank: 2 }, { id: 'x', rank: 1 }, { id: 'z', rank: 3 }] as RankingEntry[];
  const v1 = rankingView(v1raw, null, null)!;
  assert.deepEqual([v1.format, v1.verdict, v1.timedVerdict], [1, null, null]);
  assert.deepEqual(v1.entries.map((x) => x.id), ['x', 'y', 'z']);
  assert.deepEqual(v1raw.map((x) => x.id), ['y', 'x', 'z']); // the parsed array is not sorted in place
  assert.equal(rankingView({ spanproof: 3 }, null, null), null);
  assert.equal(rankingView(null, null, null), null);
});

test('no config: the no-signal verdict of nothing scored', () => {
  const r = rankConfigs([], [], { primaryMetric: 'hit@5', k: 5 });
  assert.deepEqual(r, {
    spanproof: 2, primaryMetric: 'hit@5', k: 5, configs: [],
    verdict: {
      recommended: null, best: null, status: 'no-signal', primaryMetric: 'hit@5', margin: 0.05, mde: null, questionsNeeded: null,
      reasons: ['no config could be scored'], summary: 'No signal: no config could be scored (see the failed items).',
      questions: 0, configs: 0, tied: [], unresolved: [], alpha: 0.05, power: 0.8, dependsOnTimings: false,
    },
  });
  assert.equal(rankConfigs([], [], { primaryMetric: 'mrr', k: 3, margin: 0.1 }).verdict.margin, 0.1);
});

const n = 20;
const rs = bootstrapResamples(n, 500, 4);
const col: number[] = Array.from({ length: n }, (_, i) => (i < 15 ? 1 : 0)); // Q = 0.75
function cfg(id: string, c: number, medianMs: number | null, column = col): RankInput {
  const m = column.reduce((s, x) => s + x, 0) / n;
  return { id, quality: percentileCI(column, rs), perQuestion: column, mrr: m, ndcg: m, cost: cost(c), causes: {}, latency: medianMs === null ? null : { medianMs, p25Ms: medianMs, p75Ms: medianMs, n } };
}

test('timed verdict: min–max normalised latency and cost, an untimed config counts as the slowest', () => {
  // identical columns: every CI is [0, 0], all non-inferior; quality order by cost: A (100), C (200), B (300)
  // L̂: A 30 → 1, B 10 → 0, C untimed → 1; Ĉ: A 100 → 0, B 300 → 1, C 200 → 0.5
  // timed = 1·0.75 − 1·L̂ − 0.5·Ĉ: A −0.25, B 0.25, C −0.5
  const r = rankConfigs([cfg('A', 100, 30), cfg('B', 300, 10), cfg('C', 200, null)], rs, { primaryMetric: 'hit@5', k: 5, weights: { quality: 1, latency: 1, context: 0.5 } });
  assert.deepEqual(r.configs.map((c) => c.id), ['A', 'C', 'B']);
  const by = new Map(r.configs.map((c) => [c.id, c]));
  assert.ok(Math.abs(by.get('A')!.timedScore! + 0.25) < 1e-12);
  assert.ok(Math.abs(by.get('B')!.timedScore! - 0.25) < 1e-12);
  assert.ok(Math.abs(by.get('C')!.timedScore! + 0.5) < 1e-12);
  assert.equal(by.get('A')!.latency!.medianMs, 30);
  assert.equal('latency' in by.get('C')!, false);
  assert.deepEqual(r.timedVerdict, {
    recommended: 'B', dependsOnTimings: true, weights: { quality: 1, latency: 1, context: 0.5 },
    summary: 'With weights.latency = 1 the timing-dependent verdict is B: the highest timed score (w_q·Q − w_l·latency − w_c·cost, min–max normalised) among the configs shown within the margin of the best. It depends on timings measured on this machine and can change between identical runs; --fail-under reads the deterministic verdict.',
  });
  assert.equal(r.verdict.recommended, 'A'); // the deterministic verdict: the cheapest
});

test('timed verdict: equal timings and costs normalise to 0, ties keep the quality order, only non-inferior configs', () => {
  const w = { quality: 1, latency: 2, context: 1 };
  const same = rankConfigs([cfg('A', 100, 5), cfg('B', 100, 5)], rs, { primaryMetric: 'hit@5', k: 5, weights: w });
  assert.deepEqual(same.configs.map((c) => c.timedScore), [0.75, 0.75]); // L̂ = Ĉ = 0 for both
  assert.equal(same.timedVerdict!.recommended, 'A');
  // W is fastest and cheapest but loses 10 of 20 questions: not non-inferior, never the timed pick
  const worse = col.map((x, i) => (i < 10 ? x : 0));
  const r = rankConfigs([cfg('A', 300, 50), cfg('W', 10, 1, worse), cfg('B', 200, 40)], rs, { primaryMetric: 'hit@5', k: 5, weights: w });
  assert.equal(r.configs.find((c) => c.id === 'W')!.nonInferior, false);
  assert.ok(r.configs.find((c) => c.id === 'W')!.timedScore! > r.configs.find((c) => c.id === 'B')!.timedScore!);
  assert.equal(r.timedVerdict!.recommended, 'B');
});
