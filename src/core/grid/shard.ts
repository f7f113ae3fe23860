/**
 * Sharded runs (issue #18, docs/ci.md): `spanproof run --shard i/n` runs a deterministic, balanced
 * share of the work and `spanproof merge` (./merge.ts) joins the shards into the run one process
 * would have written.
 *
 * The work is the list of units (group × question): the groups are the built-in chunkers in plan
 * order (a chunker's units share its chunk and index stages), then the external configs
 * (`external/<name>/none`); questions in ground-truth order, group-major. Shard i of n (1-based) takes
 * the contiguous block of units [⌊(i−1)·U/n⌋, ⌊i·U/n⌋) — sizes differ by at most one, and a chunker
 * is split across at most the shards its block boundaries fall in, so few shards repeat a chunker's
 * indexing. Everything depends only on the settings and the question ids, so the merge can recompute
 * each shard's share and check that the shards are disjoint and complete.
 */
import { SpanproofError } from '../errors';
import type { RunSettings } from '../settings';
import { planConfigs, planExternalConfigs } from './plan';

/** Shard `index` of `count`, 1-based. */
export interface ShardSpec {
  index: number;
  count: number;
}

/** Parses `i/n` (1 ≤ i ≤ n). Throws SpanproofError('bad-input') naming `field`. */
export function parseShardSpec(text: string, field = '--shard'): ShardSpec {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || !(count >= 1 && index >= 1 && index <= count)) {
    throw new SpanproofError('bad-input', `"${text}" is not a shard i/n with 1 ≤ i ≤ n.`, { field, fix: 'pass e.g. --shard 2/3 (the second of three shards).' });
  }
  return { index, count };
}

/** The groups of units, in order: built-in chunkers (plan order), then external config ids. */
export function shardGroups(settings: Pick<RunSettings, 'chunkers' | 'retrievers' | 'rerank' | 'externalRetrievers'>): string[] {
  return [...new Set(planConfigs(settings).map((c) => c.chunker as string)), ...planExternalConfigs(settings).map((c) => c.id)];
}

/** The units of one shard: question ids per group (groups without units are absent). */
export function shardSelection(settings: Pick<RunSettings, 'chunkers' | 'retrievers' | 'rerank' | 'externalRetrievers'>, questionIds: readonly string[], shard: ShardSpec): Map<string, Set<string>> {
  const groups = shardGroups(settings);
  const q = questionIds.length;
  const total = groups.length * q;
  const from = Math.floor(((shard.index - 1) * total) / shard.count);
  const to = Math.floor((shard.index * total) / shard.count);
  const out = new Map<string, Set<string>>();
  for (let u = from; u < to; u++) {
    const g = groups[Math.floor(u / q)];
    let set = out.get(g);
    if (!set) out.set(g, (set = new Set()));
    set.add(questionIds[u % q]);
  }
  return out;
}

/** A selection as plain JSON (shard.json `units`): group → question ids in ground-truth order. */
export function selectionJson(sel: ReadonlyMap<string, ReadonlySet<string>>): Record<string, string[]> {
  return Object.fromEntries([...sel].map(([g, s]) => [g, [...s]]));
}
