// Headless Chromium for the explorer tests: a fresh profile in the temp dir, closed and removed by `close`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { TestNode } from './harness.js';

/**
 * `extension`: the directory of an unpacked extension to load (Chromium loads extensions in a
 * persistent context, in its new headless mode, once Playwright's own --disable-extensions is dropped).
 */
export async function launchChromium(options: { extension?: string } = {}): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = await mkdtemp(join(tmpdir(), 'ntv-chromium-'));
  const extension = options.extension ? [`--disable-extensions-except=${options.extension}`, `--load-extension=${options.extension}`] : [];
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', ...extension],
    ...(options.extension ? { ignoreDefaultArgs: ['--disable-extensions'] } : {}),
    viewport: { width: 1280, height: 800 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * One node and one Chromium context for an explorer test file, started before its tests and
 * stopped after them: `env.node` and `env.context` are set once beforeAll has run.
 */
export function explorerEnvironment(args: string[] = ['--block-time', '0.5']): { node: TestNode; context: BrowserContext } {
  const env = {} as { node: TestNode; context: BrowserContext };
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    env.node = await TestNode.start({ args });
    ({ context: env.context, close } = await launchChromium());
  }, 60_000);
  afterAll(async () => {
    await close?.();
    await env.node?.stop();
  });
  return env;
}
