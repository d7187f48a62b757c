import { defineConfig } from 'vitest/config';

// Tiers as in STYLE.md: unit, core (wasm against a bigint reference), e2e (real node processes).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
