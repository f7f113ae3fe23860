/**
 * Concurrency and rate limits for an endpoint (SPEC §14), shared by every network feature: at most
 * `concurrency` requests in flight, and request starts spaced at least 60 000 / requestsPerMinute ms
 * apart (0 = no rate limit).
 */
import { SpanproofError } from '../errors';

/** Sleeps `ms`, rejecting with SpanproofError('cancelled') when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    if (ms <= 0) return resolve();
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(cancelled());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The error every cancelled request, wait or slot acquisition rejects with. */
export function cancelled(): SpanproofError {
  return new SpanproofError('cancelled', 'request cancelled.');
}

/** FIFO counting semaphore plus request-start spacing. */
export class RequestLimiter {
  private inFlight = 0;
  private readonly waiters: Array<() => void> = [];
  private nextStart = 0;
  readonly concurrency: number;
  readonly intervalMs: number;

  constructor(
    concurrency: number,
    requestsPerMinute: number,
    private readonly clock: { now(): number; sleep(ms: number, signal?: AbortSignal): Promise<void> } = { now: Date.now, sleep },
  ) {
    this.concurrency = Math.max(1, Math.floor(concurrency) || 1);
    this.intervalMs = requestsPerMinute > 0 ? 60000 / requestsPerMinute : 0;
  }

  /** Waits for a free slot and for the rate limit; returns the release function. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) throw cancelled();
    if (this.inFlight >= this.concurrency) {
      await new Promise<void>((resolve, reject) => {
        const w = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          const i = this.waiters.indexOf(w);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(cancelled());
        };
        this.waiters.push(w);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    } else this.inFlight++;
    // The slot is ours from here (a waiter inherits the releaser's slot).
    try {
      if (this.intervalMs > 0) {
        const now = this.clock.now();
        const start = Math.max(now, this.nextStart);
        this.nextStart = start + this.intervalMs;
        if (start > now) await this.clock.sleep(start - now, signal);
      }
    } catch (e) {
      this.release();
      throw e;
    }
    let done = false;
    return () => {
      if (!done) {
        done = true;
        this.release();
      }
    };
  }

  private release(): void {
    const w = this.waiters.shift();
    if (w) w();
    else this.inFlight--;
  }
}
