import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Tiers as in STYLE.md: unit, core (wasm against a bigint reference), e2e (real node processes).
 * The multi-node network tests (several validator processes on QUIC with failover timeouts of a
 * few hundred milliseconds) are timing-sensitive, so they run one file at a time after everything
 * else, on a machine no other test is loading.
 */
/** Tests of the worked example domain, run in the copy scripts/example-domain.mjs --build makes (docs/adding-a-domain.md). */
const FIXTURES = ['test/fixtures/**'];

const NETWORK = [
  'test/e2e/network.test.ts',
  'test/e2e/double-sign.test.ts',
  // four validators at 0.5 s blocks: beside a Chromium test its start stalled at height 0 for 30 s
  'test/e2e/governance-network.test.ts',
  'test/e2e/sync.test.ts',
  'test/unit/p2p-network.test.ts',
  'test/unit/p2p-sync.test.ts',
  // issue 40 item 3: 4 validators under pauses, kills and partitions for 120 s (docs/chaos.md)
  'test/e2e/chaos.test.ts',
];

/**
 * Files that spend minutes waiting for the chain with next to no CPU: the STD-8 lifecycle waits out
 * a real 720-block handover (spec §3, at the 0.5 s minimum block time: 6 minutes). They start first,
 * so the other worker runs the rest meanwhile instead of the wait coming last on its own.
 */
const LONG_WAITS = ['test/e2e/stablecoins.test.ts'];

class LongWaitsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const waits = (f: TestSpecification) => LONG_WAITS.some((w) => f.moduleId.endsWith(w));
    return [...sorted.filter(waits), ...sorted.filter((f) => !waits(f))];
  }
}

const shared = { testTimeout: 60_000, hookTimeout: 60_000, pool: 'forks' as const };

/**
 * Two files at a time outside the network tier (vitest's default on two cores is one): most e2e
 * files spend their time waiting for blocks, so two in parallel keep `npm test` under 20 minutes
 * on the 2-core machines CI runs on, while the timing-sensitive network tier still runs alone.
 */
const NODE_WORKERS = 2;

export default defineConfig({
  test: {
    reporters: ['default'],
    sequence: { sequencer: LongWaitsFirst },
    projects: [
      { test: { ...shared, name: 'node', include: ['test/**/*.test.ts'], exclude: [...NETWORK, ...FIXTURES], maxWorkers: NODE_WORKERS, sequence: { groupOrder: 0 } } },
      { test: { ...shared, name: 'network', include: NETWORK, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
