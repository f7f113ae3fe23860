/**
 * The ledger of endpoint use (SPEC §14): requests sent, replies served from the cache, prompt and
 * completion tokens (as the endpoint's `usage` reports them), latency, failures, retries and time spent
 * waiting, per model and in total; cost = promptTokens·input/1e6 + completionTokens·output/1e6 from a
 * user price table (per 1 000 000 tokens).
 */
import type { LedgerCounters, LedgerFile, PriceTable } from './types';

function zero(): LedgerCounters {
  return { requests: 0, cachedResponses: 0, promptTokens: 0, completionTokens: 0, latencyMs: 0, failures: 0, retries: 0, waitedMs: 0 };
}

export class Ledger {
  private readonly models = new Map<string, LedgerCounters>();

  constructor(readonly endpoint: string, readonly prices?: PriceTable) {}

  private of(model: string): LedgerCounters {
    let c = this.models.get(model);
    if (!c) this.models.set(model, (c = zero()));
    return c;
  }

  /** A request is about to be sent (counted before it leaves, so a cancelled request is still counted). */
  requestSent(model: string, retry: boolean): void {
    const c = this.of(model);
    c.requests++;
    if (retry) c.retries++;
  }
  requestDone(model: string, latencyMs: number, promptTokens: number, completionTokens: number): void {
    const c = this.of(model);
    c.latencyMs += latencyMs;
    c.promptTokens += promptTokens;
    c.completionTokens += completionTokens;
  }
  requestFailed(model: string, latencyMs: number): void {
    const c = this.of(model);
    c.latencyMs += latencyMs;
    c.failures++;
  }
  waited(model: string, ms: number): void {
    this.of(model).waitedMs += ms;
  }
  cached(model: string): void {
    this.of(model).cachedResponses++;
  }

  /** The totals and per-model counters (cost where the price table names the model). */
  snapshot(extra: Pick<LedgerFile, 'status' | 'items' | 'sameModel'>): LedgerFile {
    const byModel: Record<string, LedgerCounters> = {};
    const total = zero();
    let cost: number | undefined;
    for (const m of [...this.models.keys()].sort()) {
      const c = { ...this.models.get(m)! };
      const p = this.prices?.[m];
      if (p) {
        c.cost = (c.promptTokens * p.input + c.completionTokens * p.output) / 1e6;
        cost = (cost ?? 0) + c.cost;
      }
      byModel[m] = c;
      for (const k of Object.keys(total) as Array<keyof LedgerCounters>) (total[k] as number) += c[k] as number;
    }
    return { ...total, ...(cost !== undefined ? { cost } : {}), endpoint: this.endpoint, byModel, ...(this.prices ? { prices: this.prices } : {}), ...extra };
  }
}

/** True when requests were sent and every one failed (no reply, none from the cache): such a stage is `failed`, never `succeeded` (#16 item 16). */
export function everyRequestFailed(l: Pick<LedgerFile, 'requests' | 'failures' | 'cachedResponses'>): boolean {
  return l.requests > 0 && l.failures === l.requests && l.cachedResponses === 0;
}
