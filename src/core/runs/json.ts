/**
 * Deterministic JSON for run files: object keys sorted (code-unit order), numbers rounded to 6
 * decimal places (`Number(x.toFixed(6))`, so the same double always prints the same digits), `-0`
 * written as `0`, non-finite numbers written as `null`. Arrays keep their order.
 */

/** Rounds a number the way every run file writes it (6 decimals; NaN/±Infinity → null). */
export function roundForJson(x: number): number | null {
  // an integer prints as itself (`toFixed(6)` only appends zeros, or writes its exact digits ≥ 1e21)
  if (Number.isInteger(x)) return x === 0 ? 0 : x;
  if (!Number.isFinite(x)) return null;
  const r = Number(x.toFixed(6));
  return Object.is(r, -0) ? 0 : r;
}

function normalise(v: unknown): unknown {
  if (typeof v === 'number') return roundForJson(v);
  if (Array.isArray(v)) return v.map(normalise);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) out[k] = normalise(x);
    }
    return out;
  }
  return v;
}

/** Stable JSON text (sorted keys, fixed number formatting); `indent` as in JSON.stringify. */
export function stableStringify(value: unknown, indent?: number): string {
  return JSON.stringify(normalise(value), null, indent);
}
