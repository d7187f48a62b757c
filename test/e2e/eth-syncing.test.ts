// eth_subscribe("syncing") on a follower that catches up over libp2p (issue 42 item 8, 'What to
// build' point 5; docs/eth.md "Events"): web3.js 4's syncing subscription, the library API wallets
// use to watch a node's sync (ethers and viem have none), hears {syncing: true, status} when the
// catch-up starts and false once it ends, once each; a raw WebSocket subscriber hears the same.
import { afterAll, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { Web3 } from 'web3';
import { ed25519PublicKey } from '../../src/codec/keys.js';
import { freePort, TestNode, until } from './harness.js';

let dir: string | undefined;
let a: TestNode | undefined;
let b: TestNode | undefined;
const cleanups: Array<() => unknown> = [];

afterAll(async () => {
  for (const fn of cleanups.splice(0)) await fn();
  await b?.stop();
  await a?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('web3.js eth.subscribe("syncing") on a follower hears the catch-up start, then its end', async () => {
  dir = await mkdtemp(join(tmpdir(), 'ntv-eth-syncing-'));
  const seed = randomBytes(32);
  const keyFile = join(dir, 'a.key');
  await writeFile(keyFile, seed.toString('hex'));
  const genesis = ['--genesis-validators', Buffer.from(ed25519PublicKey(seed)).toString('hex')];
  // A fixed P2P port and A's own data directory: A is stopped and started again at the same address.
  a = await TestNode.start({ dataDir: join(dir, 'a'), args: ['--validator-key', keyFile, '--block-time', '0.5', '--p2p-port', String(await freePort()), ...genesis] });
  await a.waitForHeight(20, 30_000);
  const bootnode = (await a.result<{ addresses: string[] }>('svc_validatorHealth')).addresses.find((x) => x.includes('/quic-v1/p2p/'))!;
  // B starts while A is down, so its subscribers are listening before the catch-up begins.
  await a.stop();
  b = await TestNode.start({ args: ['--bootnodes', bootnode, '--block-time', '0.5', ...genesis] });
  const wsUrl = b.url.replace('http://', 'ws://');
  const web3 = new Web3(wsUrl);
  cleanups.push(() => web3.provider?.disconnect?.());
  const subscription = await web3.eth.subscribe('syncing');
  const changed: boolean[] = [];
  const statuses: Array<{ currentBlock: unknown; highestBlock: unknown }> = [];
  subscription.on('changed', (syncing: boolean) => {
    changed.push(syncing);
  });
  subscription.on('data', (status) => {
    statuses.push(status);
  });
  const raw = new WebSocket(wsUrl);
  cleanups.push(() => raw.close());
  const rawItems: unknown[] = [];
  await new Promise((resolve, reject) => raw.once('open', resolve).once('error', reject));
  raw.on('message', (text) => {
    const message = JSON.parse(String(text)) as { method?: string; params?: { result: unknown } };
    if (message.method === 'eth_subscription') rawItems.push(message.params!.result);
  });
  raw.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['syncing'] }));
  expect(await b.result('eth_blockNumber')).toBe('0x0');

  await a.launch();
  const target = Number(BigInt(await a.result<string>('eth_blockNumber')));
  await until('the end of the catch-up on B', async () => changed.length >= 2 && rawItems.length >= 2, 60_000);
  expect(changed).toEqual([true, false]);
  // web3.js maps the status into its sync object: the catch-up's first block
  expect(statuses).toHaveLength(1);
  expect(Number(statuses[0]!.currentBlock)).toBeGreaterThan(0);
  expect(Number(statuses[0]!.currentBlock)).toBeLessThanOrEqual(target);
  expect(rawItems).toEqual([{ syncing: true, status: { startingBlock: '0x0', currentBlock: expect.stringMatching(/^0x[0-9a-f]+$/), highestBlock: expect.stringMatching(/^0x[0-9a-f]+$/) } }, false]);
  // the status as geth gives it: from where the catch-up started (B's genesis) towards A's head then
  const status = (rawItems[0] as { status: Record<string, string> }).status;
  expect(Number(BigInt(status.highestBlock!))).toBeGreaterThanOrEqual(20);
  expect(Number(BigInt(status.highestBlock!))).toBeGreaterThanOrEqual(Number(BigInt(status.currentBlock!)));
  expect(Number(statuses[0]!.highestBlock)).toBe(Number(BigInt(status.highestBlock!)));
  // B is at A's head by then, and the flag stays down while it follows
  expect(Number(BigInt(await b.result<string>('eth_blockNumber')))).toBeGreaterThanOrEqual(target);
  expect(await b.result('eth_syncing')).toBe(false);
  await b.waitForHeight(target + 4, 10_000);
  expect(changed).toEqual([true, false]);
}, 120_000);
