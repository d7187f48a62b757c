/**
 * Issue 26 item 5: the console (src/logger.ts), the health verdict (src/rpc/health.ts) and the
 * `--help` value names (src/cli/help.ts), without a node. The running node's console and /health
 * are tested over a pty and HTTP in test/e2e/operator.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createLogger, prettyValue } from '../../src/logger.js';
import { healthReport, MIN_STALE_MS, staleAfterMs } from '../../src/rpc/health.js';
import { colorDepth, nameValues, VALUE_NAMES } from '../../src/cli/help-format.js';

function sink(isTTY: boolean) {
  const lines: string[] = [];
  return { lines, isTTY, write: (text: string) => lines.push(text) };
}

describe('console format', () => {
  it('auto is one human line per entry on a terminal, with colour unless NO_COLOR', () => {
    const out = sink(true);
    const saved = process.env.NO_COLOR;
    delete process.env.NO_COLOR;
    try {
      createLogger({ verbose: false, format: 'auto', sink: out }).info('block', { height: 12, bundles: 3, gas: 63000, blockTime: '2026-01-01T00:00:12Z' });
    } finally {
      if (saved !== undefined) process.env.NO_COLOR = saved;
    }
    expect(out.lines).toHaveLength(1);
    expect(out.lines[0]).toContain('\x1b[');
    const plain = out.lines[0]!.replace(/\x1b\[[0-9;]*m/g, '');
    expect(plain).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO  block  height=12 bundles=3 gas=63000 blockTime=2026-01-01T00:00:12Z\n$/);
  });

  it('auto is JSON when not a terminal; json is JSON even on a terminal', () => {
    for (const [format, isTTY] of [['auto', false], ['json', true]] as const) {
      const out = sink(isTTY);
      createLogger({ verbose: false, format, sink: out }).info('block', { height: 7 });
      const entry = JSON.parse(out.lines.join('')) as Record<string, unknown>;
      expect(entry).toMatchObject({ level: 30, msg: 'block', height: 7 });
    }
  });

  it('pretty without a terminal has no colour codes; debug only when verbose; values quoted only when needed', () => {
    const out = sink(false);
    const quiet = createLogger({ verbose: false, format: 'pretty', sink: out });
    quiet.debug('hidden');
    quiet.warn('peer penalized', { reason: 'bad block', score: -10, error: new Error('boom'), list: ['a', 1n], skipped: undefined });
    expect(out.lines).toHaveLength(1);
    expect(out.lines[0]).not.toContain('\x1b[');
    expect(out.lines[0]).toMatch(/ WARN  peer penalized {2}reason="bad block" score=-10 error="boom" list=\["a","1"\]\n$/);
    createLogger({ verbose: true, format: 'pretty', sink: out }).debug('shown');
    expect(out.lines[1]).toMatch(/ DEBUG shown\n$/);
    expect(prettyValue('Nx0abc')).toBe('Nx0abc');
    expect(prettyValue({ a: 1 })).toBe('{"a":1}');
  });
});

describe('health verdict', () => {
  const base = { height: 10, headTimestamp: 1_000, syncing: false, peers: 0, expectsPeers: false, startedAtMs: 0, version: '0.1.0' };

  it('is ok with a fresh head, no bootnodes needed', () => {
    const r = healthReport(base, 30_000, 1_000_000 + 5_000);
    expect(r).toEqual({ status: 'ok', height: 10, syncing: false, peers: 0, head_age_seconds: 5, reasons: [], version: '0.1.0' });
  });

  it('names every reason: syncing, a stale head, no peers when bootnodes were given', () => {
    const r = healthReport({ ...base, syncing: true, expectsPeers: true }, 30_000, 1_000_000 + 31_000);
    expect(r.status).toBe('unhealthy');
    expect(r.reasons).toEqual(['syncing', 'stale_head', 'no_peers']);
    expect(healthReport({ ...base, expectsPeers: true, peers: 2 }, 30_000, 1_000_000).reasons).toEqual([]);
  });

  it('before the first block, counts from start-up (genesis has a fixed date)', () => {
    const r = healthReport({ ...base, height: 0, headTimestamp: 0, startedAtMs: 5_000_000 }, 30_000, 5_010_000);
    expect(r).toMatchObject({ status: 'ok', head_age_seconds: 10 });
  });

  it('is stale after ten block times, never sooner than 30 s', () => {
    expect(staleAfterMs(12_000)).toBe(120_000);
    expect(staleAfterMs(1_000)).toBe(MIN_STALE_MS);
  });
});

describe('--help', () => {
  it('names values instead of clipanion\'s #0', () => {
    expect(nameValues('-d,--data-dir #0')).toBe('-d,--data-dir <dir>');
    expect(nameValues('ntv-node run [--rpc-port #0] [-v,--verbose] [--log-format #0]')).toBe('ntv-node run [--rpc-port <port>] [-v,--verbose] [--log-format <pretty|json|auto>]');
    expect(nameValues('--not-listed #0')).toBe('--not-listed <value>');
    expect(Object.values(VALUE_NAMES).every((v) => /^<.+>$/.test(v))).toBe(true);
  });

  it('colours only a terminal', () => {
    const saved = { NO_COLOR: process.env.NO_COLOR, FORCE_COLOR: process.env.FORCE_COLOR };
    delete process.env.NO_COLOR;
    delete process.env.FORCE_COLOR;
    try {
      expect(colorDepth({ isTTY: false })).toBe(1);
      expect(colorDepth({ isTTY: true, getColorDepth: () => 8 })).toBe(8);
      process.env.NO_COLOR = '1';
      expect(colorDepth({ isTTY: true, getColorDepth: () => 8 })).toBe(1);
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
    }
  });
});
