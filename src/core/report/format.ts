/** Small number formatting shared by the report formats. */
import type { MeanCI } from '../runs/types';

export function f3(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(3);
}

/** `0.822 [0.711, 0.933]`. */
export function ci(m: MeanCI | undefined): string {
  return m && Number.isFinite(m.mean) ? `${f3(m.mean)} [${f3(m.lo)}, ${f3(m.hi)}]` : 'n/a';
}

export function ms(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? 'n/a' : x < 10 ? x.toFixed(2) : x.toFixed(1);
}

/** A latency as a number at the precision {@link ms} shows it (0.01 ms below 10 ms, else 0.1 ms), for CSV; undefined when not timed. */
export function roundedMs(x: number | null | undefined): number | undefined {
  return x === null || x === undefined || !Number.isFinite(x) ? undefined : Number(ms(x));
}
