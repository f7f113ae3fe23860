/**
 * The deterministic, quality-only explanation of a config written to results.json (SPEC §9 template:
 * rank, Q with CI, difference to the top config with paired CI and significance, dominant failure
 * cause with counts and its advice, context cost). ranking.json adds latency and the weighted score.
 */
import { CAUSES } from '../types';
import { CAUSE_ADVICE } from '../attribution';
import type { ConfigResult, MeanCI } from '../runs/types';

/** `0.867 [0.760, 0.956]` (3 decimals). */
export function fmtCI(m: MeanCI): string {
  if (!Number.isFinite(m.mean)) return 'n/a';
  return `${m.mean.toFixed(3)} [${m.lo.toFixed(3)}, ${m.hi.toFixed(3)}]`;
}

/** Signed 3-decimal difference, e.g. `−0.044`. */
function signed(x: number): string {
  return `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`;
}

export function explainConfig(c: ConfigResult, top: ConfigResult | null, primaryMetric: string, total: number): string {
  const q = c.metrics[primaryMetric as keyof ConfigResult['metrics']];
  const parts: string[] = [];
  parts.push(`Rank ${c.rank} of ${total} by ${primaryMetric}: ${q ? fmtCI(q) : 'n/a'}.`);
  if (c.scored === 0) {
    parts.push('No question could be scored for this config (see failed items).');
    return parts.join(' ');
  }
  if (top && top.id !== c.id && c.vsTop) {
    const d = c.vsTop.diff;
    parts.push(`Versus the top config ${top.id}: ${signed(d.mean)} [${signed(d.lo)}, ${signed(d.hi)}], ${c.vsTop.significant ? 'significantly different' : 'not significantly different'} (paired bootstrap).`);
  } else if (top && top.id === c.id) {
    parts.push('This is the top config by quality.');
  }
  const misses = CAUSES.reduce((s, x) => s + c.causes[x], 0);
  if (misses > 0) {
    const dom = [...CAUSES].sort((a, b) => c.causes[b] - c.causes[a] || CAUSES.indexOf(a) - CAUSES.indexOf(b))[0];
    parts.push(`Dominant failure cause: ${dom} (${c.causes[dom]} of ${misses} misses) — ${CAUSE_ADVICE[dom]}.`);
  } else parts.push('No misses.');
  if (c.failed.length) parts.push(`${c.failed.length} item(s) failed and are not scored: ${c.failed.join(', ')}.`);
  parts.push(`Context cost ${Math.round(c.contextChars)} characters per question.`);
  return parts.join(' ');
}
