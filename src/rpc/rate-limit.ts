/**
 * Per-IP token bucket of JSON-RPC cost units (spec §4.20 `--rpc-rate-limit`: per-IP requests per
 * second, default 100, 0 = unlimited; §8). What a body costs is src/rpc/costs.ts (calls by method,
 * body and reply bytes); a batch is refused whole when the bucket cannot cover it. Capacity (burst)
 * is one second of units unless told otherwise, so a batch costing more than the burst is always
 * refused. Reply bytes are known only after the call: `charge` takes them even into debt (down to
 * minus the capacity), and the client's next body waits the debt off.
 *
 * Memory is bounded: a bucket that has refilled to full is the same as no bucket, so idle IPs are
 * dropped by a periodic sweep, and the table never holds more than `maxTrackedIps` entries.
 */

export interface RateLimiterOptions {
  /** Calls per second per IP; 0 = unlimited. */
  readonly ratePerSecond: number;
  /** Bucket capacity in calls; default = ratePerSecond (one second of burst). */
  readonly burst?: number;
  /** Hard cap on tracked IPs; beyond it the longest-unseen entries are dropped. Default 100,000. */
  readonly maxTrackedIps?: number;
  /** Milliseconds clock, injectable for tests. */
  readonly now?: () => number;
}

export type RateDecision = { ok: true } | { ok: false; retryAfterMs: number; cost: number; capacity: number };

interface Bucket {
  tokens: number;
  last: number;
}

const OK: RateDecision = Object.freeze({ ok: true });

export class RateLimiter {
  readonly ratePerSecond: number;
  readonly capacity: number;
  readonly #perMs: number;
  readonly #maxTracked: number;
  readonly #now: () => number;
  readonly #buckets = new Map<string, Bucket>();
  #sweeper: NodeJS.Timeout | undefined;

  constructor(options: RateLimiterOptions) {
    if (!Number.isFinite(options.ratePerSecond) || options.ratePerSecond < 0) {
      throw new RangeError('ratePerSecond must be a non-negative number');
    }
    this.ratePerSecond = options.ratePerSecond;
    this.capacity = options.burst ?? options.ratePerSecond;
    this.#perMs = options.ratePerSecond / 1000;
    this.#maxTracked = options.maxTrackedIps ?? 100_000;
    this.#now = options.now ?? Date.now;
    if (this.ratePerSecond > 0) {
      // Sweep as often as a bucket takes to refill (at least every second, at most every minute).
      const fullRefillMs = Math.min(60_000, Math.max(1_000, this.capacity / this.#perMs));
      this.#sweeper = setInterval(() => this.sweep(), fullRefillMs);
      this.#sweeper.unref();
    }
  }

  get unlimited(): boolean {
    return this.ratePerSecond === 0;
  }

  /** Number of IPs currently tracked (for tests and metrics). */
  get trackedIps(): number {
    return this.#buckets.size;
  }

  /** Takes `cost` units from ip's bucket, or refuses without taking any. */
  take(ip: string, cost: number): RateDecision {
    if (this.ratePerSecond === 0) return OK;
    const b = this.#refill(ip);
    if (b.tokens >= cost) {
      b.tokens -= cost;
      return OK;
    }
    return this.#refusal(b.tokens, cost);
  }

  /**
   * Takes `cost` units after the fact (a reply's bytes), into debt if the bucket cannot cover them:
   * at most one capacity below zero, so one huge reply costs at most two seconds of the client's rate.
   */
  charge(ip: string, cost: number): void {
    if (this.ratePerSecond === 0 || cost <= 0) return;
    const b = this.#refill(ip);
    b.tokens = Math.max(-this.capacity, b.tokens - cost);
  }

  /**
   * Whether `ip` could spend `cost` units now, without taking them: the check made on a request's
   * headers, so a client over its budget is refused before its body is read (src/rpc/costs.ts).
   */
  peek(ip: string, cost: number): RateDecision {
    if (this.ratePerSecond === 0) return OK;
    const b = this.#buckets.get(ip);
    if (b === undefined) return cost <= this.capacity ? OK : this.#refusal(this.capacity, cost);
    const tokens = Math.min(this.capacity, b.tokens + (this.#now() - b.last) * this.#perMs);
    return tokens >= cost ? OK : this.#refusal(tokens, cost);
  }

  #refill(ip: string): Bucket {
    const now = this.#now();
    let b = this.#buckets.get(ip);
    if (b === undefined) {
      if (this.#buckets.size >= this.#maxTracked) this.#evict();
      b = { tokens: this.capacity, last: now };
      this.#buckets.set(ip, b);
    } else {
      b.tokens = Math.min(this.capacity, b.tokens + (now - b.last) * this.#perMs);
      b.last = now;
    }
    return b;
  }

  #refusal(tokens: number, cost: number): RateDecision {
    const missing = cost - tokens;
    // A cost above capacity never fits; tell the client when a full bucket is back anyway.
    return { ok: false, retryAfterMs: Math.ceil(Math.min(missing, this.capacity - Math.min(0, tokens)) / this.#perMs), cost, capacity: this.capacity };
  }

  /** Drops buckets that have refilled to full: they hold no information. */
  sweep(): void {
    const now = this.#now();
    for (const [ip, b] of this.#buckets) {
      if (b.tokens + (now - b.last) * this.#perMs >= this.capacity) this.#buckets.delete(ip);
    }
  }

  #evict(): void {
    this.sweep();
    // Still full of active IPs: drop the oldest-inserted tenth (Map keeps insertion order).
    if (this.#buckets.size >= this.#maxTracked) {
      let drop = Math.max(1, Math.floor(this.#maxTracked / 10));
      for (const ip of this.#buckets.keys()) {
        this.#buckets.delete(ip);
        if (--drop === 0) break;
      }
    }
  }

  close(): void {
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    this.#buckets.clear();
  }
}
