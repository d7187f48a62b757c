// Where a snapshot-restored node's history starts (issue 41 item 7; docs/explorer.md "Where history
// starts"): node B restores A's snapshot (spec §4.20 --snapshot-url) with no other flag, rebuilds its
// explorer indexes by itself from what it holds (the holders from the state, the bundles of its own
// blocks), says where its history starts in svc_getAddressHistory (with_range) and
// svc_getNetworkStats and on its explorer's address page (Chromium), and lists the bundles of the
// blocks it executes after the restore.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ed25519PublicKey, Signer } from '../../src/codec/keys.js';
import { TestNode, until } from './harness.js';
import { launchChromium } from './browser.js';
import { systemAddressHex } from './bundles.js';

interface Entry { bundle_hash: string; block_height: number; role: string }
interface Ranged { history_from_height: number; head_height: number; history: Entry[] }

let dir: string;
let a: TestNode;
let b: TestNode | undefined;
let genesisArgs: string[];
let base: string;
let bootnode: string;
const recipient = Signer.generate().address;
const early: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ntv-snap-history-'));
  const seed = Buffer.alloc(32, 11);
  await writeFile(join(dir, 'a.key'), seed.toString('hex'));
  genesisArgs = ['--genesis-validators', Buffer.from(ed25519PublicKey(seed)).toString('hex')];
  a = await TestNode.start({ args: ['--validator-key', join(dir, 'a.key'), '--block-time', '1', '--serve-snapshots', '--snapshot-interval', '5', ...genesisArgs] });
  base = `http://127.0.0.1:${a.port + 10}/`;
  for (let i = 0; i < 3; i++) early.push((await a.result<{ bundle_hash: string }>('svc_transfer', [systemAddressHex(1), recipient, 'NTV', '1000'])).bundle_hash);
  const latest = (await a.result<Array<{ block_height: number }>>('svc_getAddressHistory', [recipient, 10]))[0]!.block_height;
  // a snapshot above the early transfers, so the restored node holds none of their blocks
  await until('a snapshot above the early transfers', async () => {
    const list = (await (await fetch(`${base}snapshots`)).json()) as Array<{ height: number }>;
    return list.some((s) => s.height > latest);
  }, 60_000);
  bootnode = (await a.result<{ addresses: string[] }>('svc_validatorHealth')).addresses.find((x) => x.includes('/quic-v1/p2p/'))!;
}, 120_000);

afterAll(async () => {
  await b?.stop();
  await a?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('a node restored from a snapshot', () => {
  it('says where its history starts and lists what its own blocks hold, without --backfill-indexes', async () => {
    b = await TestNode.start({ dataDir: join(dir, 'b'), args: ['--snapshot-url', base, '--bootnodes', bootnode, '--block-time', '1', ...genesisArgs] });
    const logs = b.logs.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string; height?: number; historyFrom?: number });
    const restored = logs.find((l) => l.msg === 'snapshot restored')!;
    expect(restored, b.logs).toBeDefined();
    // the indexes were rebuilt at start, by themselves
    expect(logs.find((l) => l.msg === 'explorer indexes rebuilt'), b.logs).toMatchObject({ historyFrom: restored.height });

    // where history starts, in both answers
    const ranged = await b.result<Ranged>('svc_getAddressHistory', [recipient, 10, null, true]);
    expect(ranged.history_from_height).toBe(restored.height);
    expect(ranged.head_height).toBeGreaterThanOrEqual(restored.height!);
    expect(ranged.history.every((e) => e.block_height >= restored.height!)).toBe(true);
    for (const hash of early) expect(ranged.history.map((e) => e.bundle_hash)).not.toContain(hash);
    expect((await b.result<{ historyFromHeight: number }>('svc_getNetworkStats')).historyFromHeight).toBe(restored.height);
    // a node holding every block says 0 (from genesis), and lists the early bundles
    const full = await a.result<Ranged>('svc_getAddressHistory', [recipient, 10, null, true]);
    expect(full.history_from_height).toBe(0);
    expect(full.history.map((e) => e.bundle_hash)).toEqual(expect.arrayContaining(early));
    expect((await a.result<{ historyFromHeight: number }>('svc_getNetworkStats')).historyFromHeight).toBe(0);
    // the list alone without with_range, as before
    expect(Array.isArray(await b.result('svc_getAddressHistory', [recipient, 10]))).toBe(true);

    // the holder indexes come from the restored state: the recipient's NTV shows at once
    expect((await b.result<Array<{ symbol: string; balance: string }>>('svc_getAddressTokens', [recipient])).find((t) => t.symbol === 'NTV')?.balance).toBe('3000');

    // a bundle in a block after the restore: B executes it and lists it, no restart, no flag
    const later = await a.result<{ bundle_hash: string; block_height: number }>('svc_transfer', [systemAddressHex(1), recipient, 'NTV', '500']);
    await b.waitForHeight(later.block_height, 60_000);
    const after = await until('B to list the later bundle', async () => {
      const h = await b!.result<Ranged>('svc_getAddressHistory', [recipient, 10, null, true]);
      return h.history.some((e) => e.bundle_hash === later.bundle_hash) ? h : undefined;
    }, 60_000);
    expect(after.history.find((e) => e.bundle_hash === later.bundle_hash)).toMatchObject({ block_height: later.block_height, role: 'recipient' });
    expect((await b.result<Array<{ symbol: string; balance: string }>>('svc_getAddressTokens', [recipient])).find((t) => t.symbol === 'NTV')?.balance).toBe('3500');
  }, 180_000);

  it('its explorer\'s address page says where its history starts, linking that block, above what it lists; the archive node\'s says nothing', async () => {
    const restoredAt = (await b!.result<{ historyFromHeight: number }>('svc_getNetworkStats')).historyFromHeight;
    expect(restoredAt).toBeGreaterThan(0);
    const browser = await launchChromium();
    try {
      const page = await browser.context.newPage();
      await page.goto(`${b!.url}#/address/${recipient}`);
      const note = page.locator('[data-testid="history-start"]');
      await note.waitFor();
      expect(await note.textContent()).toContain(`This node's history starts at block ${restoredAt}`);
      expect(await note.locator('a').getAttribute('href')).toBe(`#/block/${restoredAt}`);
      await page.locator('[data-testid="address-history"] tr').first().waitFor();
      // the archive node A holds every block and says nothing
      await page.goto(`${a.url}#/address/${recipient}`);
      await page.locator('[data-testid="address-history"] tr').first().waitFor();
      expect(await page.locator('[data-testid="history-start"]').count()).toBe(0);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
