/**
 * What the reference-case checker's retrieval and generation parts share (scripts/refcheck.ts is the
 * entry point): case results, the tolerance rule, "unsupported", and the expected-error convention.
 */
export type CaseStatus = 'passed' | 'failed' | 'unsupported';

export interface CaseResult {
  file: string;
  id: string;
  kind: 'retrieval' | 'generation';
  status: CaseStatus;
  /** Failed: the mismatches; unsupported: why; passed: optional notes (e.g. METEOR without WordNet). */
  messages: string[];
}

/** `|actual − expected| ≤ tolerance` (plus 4 ulp of slack so a tolerance of 0 accepts the same double printed differently). */
export function withinTolerance(actual: number, expected: number, tolerance: number): boolean {
  if (Number.isNaN(actual)) return false;
  return Math.abs(actual - expected) <= tolerance + 4 * Number.EPSILON * Math.max(1, Math.abs(expected));
}

/** Thrown for a case Spanproof does not implement: reported as unsupported, with the reason, never as passed. */
export class Unsupported extends Error {}

export type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * True when the case expects the reference tool to fail (e.g. a duplicate docno, trec_eval's exit 4):
 * a truthy `expected_error` / `raises` / `error` field, `expected.error`, or a non-zero `*exit_code*` field.
 */
export function expectsError(c: Json): boolean {
  if (!c || typeof c !== 'object') return false;
  for (const [k, v] of Object.entries(c as Record<string, unknown>)) {
    if (/^(expected_error|expected_exception|raises|error)$/.test(k) && v) return true;
    if (/exit_(code|status)$/.test(k) && typeof v === 'number' && v !== 0) return true;
  }
  return Boolean(c.expected && typeof c.expected === 'object' && !Array.isArray(c.expected) && 'error' in c.expected);
}
