/** Per-IP rate limit (spec §4.20 --rpc-rate-limit, §8): burst, refusal, recovery, batches cost N, 0 = unlimited. */
import { afterEach, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/rpc/rate-limit.js';
import { call, post, startServer } from './rpc-fixtures.js';

const servers: Array<Awaited<ReturnType<typeof startServer>>> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.server.stop();
});

describe('RateLimiter', () => {
  it('refills at the rate, refuses a cost it cannot cover without taking any', () => {
    let now = 0;
    const limiter = new RateLimiter({ ratePerSecond: 10, now: () => now });
    try {
      expect(limiter.take('a', 8).ok).toBe(true);
      const refused = limiter.take('a', 5);
      expect(refused).toEqual({ ok: false, retryAfterMs: 300, cost: 5, capacity: 10 });
      expect(limiter.take('a', 2).ok).toBe(true);
      expect(limiter.take('b', 10).ok).toBe(true);
      now += 500;
      expect(limiter.take('a', 5).ok).toBe(true);
      expect(limiter.take('a', 11)).toMatchObject({ ok: false, capacity: 10 });
    } finally {
      limiter.close();
    }
  });

  it('keeps memory bounded: idle IPs are swept, the table is capped', () => {
    let now = 0;
    const limiter = new RateLimiter({ ratePerSecond: 100, maxTrackedIps: 50, now: () => now });
    try {
      for (let i = 0; i < 40; i++) limiter.take(`10.0.0.${i}`, 1);
      expect(limiter.trackedIps).toBe(40);
      now += 1000;
      limiter.sweep();
      expect(limiter.trackedIps).toBe(0);
      for (let i = 0; i < 500; i++) limiter.take(`10.0.1.${i}`, 1);
      expect(limiter.trackedIps).toBeLessThanOrEqual(50);
    } finally {
      limiter.close();
    }
  });

  it('0 means unlimited', () => {
    const limiter = new RateLimiter({ ratePerSecond: 0 });
    for (let i = 0; i < 10_000; i++) expect(limiter.take('a', 1000).ok).toBe(true);
    expect(limiter.trackedIps).toBe(0);
  });
});

describe('rate limit over HTTP', () => {
  it('serves a burst, refuses with HTTP 429 and RATE_LIMITED, then recovers', async () => {
    // The limiter's clock is stepped by hand, so a loaded machine cannot refill a token mid-burst.
    let now = 0;
    const s = await startServer({ rateLimit: 2, rateBurst: 10, limitLoopback: true }, () => now);
    servers.push(s);
    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => post(s.url, call('test_echo', ['x'], i))));
    expect(burst.map((r) => r.status)).toEqual(burst.map(() => 200));
    const refused = await post(s.url, call('test_echo', ['x'], 'over'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.json).toMatchObject({ id: 'over', error: { code: -32005, data: { cost: 1, capacity: 10 } } });
    now += 600;
    expect((await post(s.url, call('test_echo', ['back']))).json.result).toBe('back');
  });

  it('a batch of N costs N and is refused whole', async () => {
    const s = await startServer({ rateLimit: 5, limitLoopback: true }, () => 0);
    servers.push(s);
    const batch = (n: number) => Array.from({ length: n }, (_, i) => call('test_echo', ['b'], i));
    expect((await post(s.url, batch(3))).json).toHaveLength(3);
    const refused = await post(s.url, batch(3));
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ id: null, error: { code: -32005, data: { cost: 3 } } });
    expect((await post(s.url, batch(2))).json).toHaveLength(2);
  });

  it('0 = unlimited', async () => {
    // 300 concurrent fetches open up to 300 connections: the per-IP connection cap is not under test.
    const s = await startServer({ rateLimit: 0, maxConnectionsPerIp: 0 });
    servers.push(s);
    const replies = await Promise.all(Array.from({ length: 300 }, (_, i) => post(s.url, call('test_echo', ['u'], i))));
    expect(replies.every((r) => r.status === 200)).toBe(true);
  });
});
