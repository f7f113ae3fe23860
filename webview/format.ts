/** Number formatting of the panel (fixed digits, "—" for absent values). */
import type { MeanCI } from '../src/shared/protocol';

export function fmt(x: number | null | undefined, digits = 3): string {
  return x === null || x === undefined || Number.isNaN(x) ? '—' : x.toFixed(digits);
}

/** "0.600 [0.400, 0.800]"; `signed` adds "+" to a non-negative mean (differences). */
export function fmtCI(m: MeanCI | null | undefined, signed = false, digits = 3): string {
  return m ? `${signed && m.mean >= 0 ? '+' : ''}${fmt(m.mean, digits)} [${fmt(m.lo, digits)}, ${fmt(m.hi, digits)}]` : '—';
}

/** A p-value: "< 0.001" below a thousandth, else three digits. */
export function fmtP(p: number | null | undefined): string {
  if (p === null || p === undefined || Number.isNaN(p)) return '—';
  return p < 0.001 ? '< 0.001' : p.toFixed(3);
}

/** First letter upper case (advice texts from src/core start lower case). */
export function sentence(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}
