import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Signer } from '../../src/codec/keys.js';
import { encodeEvm, parseAddress, parseMint } from '../../src/codec/address.js';
import { ChainStore } from '../../src/storage/chain-store.js';
import { TestNode } from './harness.js';
import { bundleFor, signedHex, systemAddressHex, transferOp } from './bundles.js';

/** Spec §4.11 explorer methods over JSON-RPC against a real node, and §4.20 --backfill-indexes. */

interface Receipt {
  bundle_hash: string; block_height: number; block_hash: string; index: number; from: string; status: string;
  events: Array<{ type: string; to?: string; amount?: string }>; created?: { mint?: string };
}
type HistoryEntry = Receipt & { role: string };
interface Holder { address: string; balance: string }
interface Transfer { bundle_hash: string; block_height: number; from: string; to: string; amount: string; symbol?: string; op_index: number }

const NTV = 1_000_000_000n;
const ARGS = ['--block-time', '1'];

let node: TestNode;
let dataDir: string;
const alice = Signer.generate();
const bob = Signer.generate().address;
const carol = Signer.generate().address;
let mint: string;
const r: Record<string, Receipt> = {};

async function nextNonce(address: string): Promise<bigint> {
  return BigInt((await node.result<{ pending_nonce: string }>('svc_getAccount', [address])).pending_nonce);
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'ntv-explorer-'));
  node = await TestNode.start({ dataDir, args: ARGS });
  r.faucet = await node.result<Receipt>('svc_faucet', [alice.address]);
  r.create = await node.result<Receipt>('svc_createToken', ['Explorer Test', 'EXPL', 6, '1000000000', alice.address]);
  mint = r.create.created!.mint!;
  [r.toBob, r.toCarol] = await Promise.all([
    node.result<Receipt>('svc_transfer', [systemAddressHex(1), bob, 'NTV', String(5n * NTV)]),
    node.result<Receipt>('svc_transfer', [systemAddressHex(2), carol, 'NTV', String(7n * NTV)]),
  ]);
  // Signed bundles: the first reveals alice's key (spec §5.3); two token transfers in one bundle.
  const nonce = await nextNonce(alice.address);
  r.signedTokens = await node.result<Receipt>('svc_submitBundle', [signedHex(alice, bundleFor(alice, nonce,
    [transferOp(bob, 300_000_000n, mint), transferOp(carol, 200_000_000n, mint)], { senderPubkey: alice.publicKey }))]);
  r.signedNtv = await node.result<Receipt>('svc_submitBundle', [signedHex(alice, bundleFor(alice, nonce + 1n, [transferOp(bob, NTV)]))]);
  // A bundle that executes and fails is still history (its fee was paid). More EXPL than bob holds:
  // token amounts are an execution rule, an NTV overspend is refused at admission (docs/mempool.md "Funds").
  const failed = await node.call('svc_transfer', [bob, carol, mint, String(1_000_000_000n)]);
  expect(failed.error?.code).toBe(-32002);
  r.failed = failed.error!.data!.receipt as Receipt;
}, 60_000);

afterAll(async () => {
  await node?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const ours = () => [r.faucet, r.create, r.toBob, r.toCarol, r.signedTokens, r.signedNtv, r.failed].map((x) => x!.bundle_hash);
const newestFirst = (list: Receipt[]) => [...list].sort((a, b) => b.block_height - a.block_height || b.index - a.index);

describe('explorer reads (spec §4.11)', () => {
  it('svc_getRecentTransactions: newest first across blocks, with the limit', async () => {
    const recent = await node.result<Receipt[]>('svc_getRecentTransactions', [1000]);
    expect(recent.map((x) => x.bundle_hash)).toEqual(newestFirst(Object.values(r)).map((x) => x.bundle_hash));
    expect(new Set(recent.map((x) => x.bundle_hash))).toEqual(new Set(ours()));
    const one = await node.result<Receipt[]>('svc_getRecentTransactions', [1]);
    expect(one.map((x) => x.bundle_hash)).toEqual([r.failed!.bundle_hash]);
    expect((await node.result<Receipt[]>('svc_getRecentTransactions', [])).length).toBe(recent.length);
  });

  it('svc_getBlockTransactions: the receipts of a block in order; [] for an empty block, null above the head', async () => {
    const height = r.toBob!.block_height;
    const txs = await node.result<Receipt[]>('svc_getBlockTransactions', [height]);
    expect(txs.map((x) => x.index)).toEqual(txs.map((_, i) => i));
    expect(txs.every((x) => x.block_height === height)).toBe(true);
    expect(txs.map((x) => x.bundle_hash)).toContain(r.toBob!.bundle_hash);
    const block = await node.result<{ transactions: string[] }>('svc_getBlockByHeight', [height]);
    expect(txs.map((x) => x.bundle_hash)).toEqual(block.transactions);
    expect(await node.result('svc_getBlockTransactions', [0])).toEqual([]);
    expect(await node.result('svc_getBlockTransactions', [10_000_000])).toBeNull();
  });

  it('svc_getAddressHistory: sent, received and created, newest first, with roles and the limit', async () => {
    const history = await node.result<HistoryEntry[]>('svc_getAddressHistory', [alice.address]);
    expect(history.map((x) => x.bundle_hash)).toEqual([r.signedNtv, r.signedTokens, r.create, r.faucet].map((x) => x!.bundle_hash));
    expect(history.map((x) => x.role)).toEqual(['sender', 'sender', 'sender', 'recipient']);
    const two = await node.result<HistoryEntry[]>('svc_getAddressHistory', [alice.address, 2]);
    expect(two.map((x) => x.bundle_hash)).toEqual(history.slice(0, 2).map((x) => x.bundle_hash));
    // the 20-byte EVM form of an account (right-aligned, spec §1.6) names the same history
    const system = await node.result<HistoryEntry[]>('svc_getAddressHistory', [systemAddressHex(1)]);
    expect(system.map((x) => x.bundle_hash)).toContain(r.toBob!.bundle_hash);
    expect(await node.result('svc_getAddressHistory', [encodeEvm(parseAddress(systemAddressHex(1)))])).toEqual(system);

    const bobs = await node.result<HistoryEntry[]>('svc_getAddressHistory', [bob, 1000]);
    expect(bobs.map((x) => x.bundle_hash)).toEqual([r.failed, r.signedNtv, r.signedTokens, r.toBob].map((x) => x!.bundle_hash));
    expect(bobs.map((x) => x.role)).toEqual(['sender', 'recipient', 'recipient', 'recipient']);
    expect(bobs[0]!.status).toBe('failed');
    expect(await node.result('svc_getAddressHistory', [Signer.generate().address])).toEqual([]);
  });

  it('svc_getTokenHolders: by balance, largest first, by symbol (any case) or mint, with the limit', async () => {
    const holders = await node.result<Holder[]>('svc_getTokenHolders', ['EXPL', 10]);
    expect(holders).toEqual([
      { address: alice.address, balance: '500000000' },
      { address: bob, balance: '300000000' },
      { address: carol, balance: '200000000' },
    ]);
    expect(await node.result('svc_getTokenHolders', [mint, 10])).toEqual(holders);
    expect(await node.result('svc_getTokenHolders', ['expl', 2])).toEqual(holders.slice(0, 2));
    const ntv = await node.result<Holder[]>('svc_getTokenHolders', ['NTV', 1000]);
    const balances = ntv.map((h) => BigInt(h.balance));
    expect(balances).toEqual([...balances].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
    // every holder's balance is the state's
    for (const h of ntv.slice(0, 5).concat(ntv.filter((x) => [alice.address, bob, carol].includes(x.address)))) {
      expect(await node.result('svc_getBalance', [h.address, 'NTV'])).toBe(h.balance);
    }
    expect(ntv.map((h) => h.address)).toEqual(expect.arrayContaining([alice.address, bob, carol]));
  });

  it('svc_getTokenTransfers: Transfer events of a token, newest first, with the limit', async () => {
    const transfers = await node.result<Transfer[]>('svc_getTokenTransfers', ['EXPL', 1000]);
    expect(transfers.slice(0, 2)).toMatchObject([
      { bundle_hash: r.signedTokens!.bundle_hash, from: alice.address, to: carol, amount: '200000000', op_index: 1, symbol: 'EXPL' },
      { bundle_hash: r.signedTokens!.bundle_hash, from: alice.address, to: bob, amount: '300000000', op_index: 0, symbol: 'EXPL' },
    ]);
    expect(await node.result('svc_getTokenTransfers', [mint, 1])).toEqual(transfers.slice(0, 1));
    const ntv = await node.result<Transfer[]>('svc_getTokenTransfers', ['NTV', 3]);
    expect(ntv).toHaveLength(3);
    expect(ntv[0]).toMatchObject({ bundle_hash: r.signedNtv!.bundle_hash, to: bob, amount: String(NTV) });
    expect(ntv[1]!.block_height).toBeLessThanOrEqual(ntv[0]!.block_height);
  });

  it('svc_getAddressTokens: every token held with symbol, decimals and the state balance, NTV first', async () => {
    const tokens = await node.result<Array<{ symbol: string; decimals: number; balance: string; mint_address: string }>>('svc_getAddressTokens', [bob]);
    expect(tokens.map((t) => [t.symbol, t.decimals, t.mint_address])).toEqual([['NTV', 9, expect.any(String)], ['EXPL', 6, mint]]);
    expect(tokens[0]!.balance).toBe(await node.result('svc_getBalance', [bob, 'NTV']));
    expect(tokens[1]!.balance).toBe('300000000');
    expect(await node.result('svc_getAddressTokens', [Signer.generate().address])).toEqual([]);
  });

  it('svc_search: height, bundle hash, block hash, address, mint, symbol; unknown → not_found', async () => {
    const height = r.signedTokens!.block_height;
    expect(await node.result('svc_search', [String(height)])).toMatchObject({ type: 'block', height, hash: r.signedTokens!.block_hash });
    expect(await node.result('svc_search', [height])).toMatchObject({ type: 'block', height });
    expect(await node.result('svc_search', [r.signedTokens!.bundle_hash])).toMatchObject({
      type: 'transaction', bundle_hash: r.signedTokens!.bundle_hash, block_height: height, receipt: { index: r.signedTokens!.index },
    });
    const hex = '0x' + Buffer.from(parseMint(mint)).toString('hex');
    expect(await node.result('svc_search', [r.signedTokens!.block_hash])).toMatchObject({ type: 'block', height });
    expect(await node.result('svc_search', [alice.address])).toMatchObject({ type: 'address', address: alice.address });
    expect(await node.result('svc_search', [mint])).toMatchObject({ type: 'token', mint_address: mint, symbol: 'EXPL' });
    expect(await node.result('svc_search', [hex])).toMatchObject({ type: 'token', mint_address: mint });
    expect(await node.result('svc_search', ['expl'])).toMatchObject({ type: 'token', symbol: 'EXPL', token: { decimals: 6 } });
    expect(await node.result('svc_search', ['0x' + Buffer.from(parseAddress(alice.address)).toString('hex')])).toMatchObject({ type: 'address', address: alice.address });
    for (const unknown of ['99999999', 'NOSUCHTOKEN', '0x' + randomBytes(32).toString('hex'), 'hello world']) {
      expect(await node.result('svc_search', [unknown])).toEqual({ type: 'not_found', query: unknown });
    }
  });

  it('refuses bad input: bad address, limit 0 or 1001 (-32602), unknown token (-32009)', async () => {
    const code = async (method: string, params: unknown[]) => (await node.call(method, params)).error?.code;
    expect(await code('svc_getAddressHistory', ['Nx0notbase58!', 10])).toBe(-32602);
    expect(await code('svc_getAddressHistory', ['0x1234', 10])).toBe(-32602);
    expect(await code('svc_getAddressTokens', ['bob'])).toBe(-32602);
    for (const limit of [0, 1001, 1.5, '10']) {
      expect(await code('svc_getRecentTransactions', [limit])).toBe(-32602);
      expect(await code('svc_getTokenHolders', ['NTV', limit])).toBe(-32602);
      expect(await code('svc_getTokenTransfers', ['NTV', limit])).toBe(-32602);
      expect(await code('svc_getAddressHistory', [bob, limit])).toBe(-32602);
    }
    expect(await code('svc_getBlockTransactions', [-1])).toBe(-32602);
    expect(await code('svc_getTokenHolders', ['NOSUCH', 10])).toBe(-32009);
    expect(await code('svc_getTokenTransfers', ['Nx1' + '2'.repeat(43), 10])).toBe(-32009);
    expect(await code('svc_search', [''])).toBe(-32602);
    expect(await code('svc_search', ['x'.repeat(129)])).toBe(-32602);
  });
});

describe('--backfill-indexes (spec §4.20)', () => {
  it('rebuilds every index from stored blocks, receipts and state, by itself when they are missing and on request: the same answers', async () => {
    const calls: Array<[string, unknown[]]> = [
      ['svc_getRecentTransactions', [1000]], ['svc_getBlockTransactions', [r.signedTokens!.block_height]],
      ['svc_getAddressHistory', [alice.address, 1000]], ['svc_getAddressHistory', [bob, 1000]],
      ['svc_getTokenHolders', ['EXPL', 1000]], ['svc_getTokenHolders', ['NTV', 1000]],
      ['svc_getTokenTransfers', ['EXPL', 1000]], ['svc_getTokenTransfers', ['NTV', 1000]],
      ['svc_getAddressTokens', [bob]], ['svc_getAddressTokens', [alice.address]],
    ];
    const answers = async () => Promise.all(calls.map(([m, p]) => node.result(m, p)));
    const before = await answers();
    await node.stop();

    // Remove every index record, as a data dir from before the indexes would be.
    const store = new ChainStore(join(dataDir, 'db'));
    await store.open();
    await store.clearIndexes();
    await store.close();
    // A normal start finds no index marker and rebuilds them by itself (issue 41 item 7: a node
    // restored from a snapshot has none), before the RPC answers: the same answers, no flag.
    node = await TestNode.start({ dataDir, args: ARGS });
    expect(node.logs).toContain('explorer indexes are missing or of another version: rebuilding them');
    expect(node.logs).toContain('explorer indexes rebuilt');
    expect(await answers()).toEqual(before);
    await node.stop();

    node = await TestNode.start({ dataDir, args: [...ARGS, '--backfill-indexes'] });
    expect(node.logs).toContain('explorer indexes rebuilt');
    expect(await answers()).toEqual(before);
    await node.stop();

    // Idempotent: a second backfill over complete indexes gives the same answers again.
    node = await TestNode.start({ dataDir, args: [...ARGS, '--backfill-indexes'] });
    expect(await answers()).toEqual(before);
  }, 60_000);
});
