// STD-8 stablecoins over JSON-RPC against one running node (docs/stablecoins.md; issue 19): the whole
// lifecycle with the testnet convenience methods (governance 0x00…09 as sender stands in for a
// passed proposal), refusals naming the rule with no state change, and the quantum-only mint with
// signed bundles from the client library (Ed25519 refused, ML-DSA-65 accepted).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BaseError, createPublicClient, defineChain, erc20Abi, http, parseAbi, type Hex } from 'viem';
import { Wallet } from '../../src/client/index.js';
import { TestNode, sleep } from './harness.js';

const GOV = `0x${'00'.repeat(31)}09`;
const SYSTEM_NTV = `0x${'00'.repeat(31)}01`;
const acct = (n: number) => `0x${'ab'.repeat(30)}${n.toString(16).padStart(4, '0')}`;
const OWNER = acct(1), MASTER = acct(2), PAUSER = acct(3), BLACKLISTER = acct(4), MINTER = acct(5), GUARD = acct(6);
const COSIG_A = acct(7), COSIG_B = acct(8), ALICE = acct(9), BOB = acct(10), ISSUER = acct(11);

let node: TestNode;

/** The event a delayed STD-8 action leaves in its receipt (docs/stablecoins.md "Pending changes"). */
interface StablePending { type: 'StablePending'; pending_id: string; effective_height: number; kind: string; outcome: string }
type ReceiptEvent = StablePending | (Record<string, unknown> & { type: string });
interface Receipt { status: string; block_height: number; events: ReceiptEvent[] }
interface Info {
  mint: string; paused: boolean; mint_frozen: boolean; verification_status: string; reputation_points: number; total_supply: string; current_epoch: number; epoch_length: number;
  roles: Record<string, string>; minters: Array<{ minter: string; allowance_remaining: string }>; pending: Array<{ id: string; kind: string }>; origin_mappings: unknown[];
}

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '0.5'] });
  for (const a of [GOV, OWNER, MASTER, PAUSER, BLACKLISTER, MINTER, GUARD, COSIG_A, COSIG_B, ALICE, BOB, ISSUER]) {
    await node.result('svc_transfer', [SYSTEM_NTV, a, 'NTV', '1000000000000']);
  }
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

const send = (method: string, params: unknown[]) => node.result<Receipt>(method, params);
const isPending = (e: ReceiptEvent): e is StablePending => e.type === 'StablePending';
const pendingOf = (r: Receipt): StablePending => r.events.find(isPending)!;
const info = (t = 'USDX') => node.result<Info>('svc_getStablecoinInfo', [t]);
const balance = (a: string, t = 'USDX') => node.result<string>('svc_getBalance', [a, t]);
async function untilHeight(h: number) {
  await node.waitForHeight(h, 500_000);
}

describe('STD-8 lifecycle over JSON-RPC', () => {
  it('create, minters, epoch limits, pause, freeze, roles, cosigned mint, handover, refusals', async () => {
    // creation: governance only, symbol taken refused
    expect((await node.rpcError('svc_createStableToken', [{ name: 'USD X', symbol: 'USDX', decimals: 6, currency: 'USD', issuer: 'X', owner: OWNER, master_minter: MASTER, pauser: PAUSER, blacklister: BLACKLISTER }, ALICE])).data?.status).toBe('NOT_GOVERNANCE');
    const created = await send('svc_createStableToken', [{
      name: 'USD X', symbol: 'USDX', decimals: 6, currency: 'USD', issuer: 'X Corp', owner: OWNER, master_minter: MASTER, pauser: PAUSER, blacklister: BLACKLISTER,
      guardians: [GUARD], origin_mappings: [{ chain: 'ethereum', contract: '0x1111111111111111111111111111111111111111' }], supply_cap: '100000000000',
      mint_threshold: '1000000', required_signers: 2, authorized_cosigners: [COSIG_A, COSIG_B], timelock: 3, epoch_length: 40,
    }, GOV]);
    expect(created.status).toBe('success');
    expect(created.events.map((e) => e.type)).toContain('StableCreated');
    expect((await node.rpcError('svc_createStableToken', [{ name: 'Again', symbol: 'usdx', decimals: 6, currency: 'USD', issuer: 'X', owner: OWNER, master_minter: MASTER, pauser: PAUSER, blacklister: BLACKLISTER }, GOV])).data?.status).toBe('SYMBOL_TAKEN');
    // the handover is queued first: it waits at least 720 blocks (spec §3), which pass while the rest runs
    const ho = pendingOf(await send('svc_stableHandover', ['USDX', ISSUER, ISSUER, ISSUER, ISSUER, OWNER]));
    expect(ho.effective_height - created.block_height).toBeGreaterThanOrEqual(720);
    expect((await node.rpcError('svc_stableHandover', ['USDX', ALICE, ALICE, ALICE, ALICE, OWNER])).data?.status).toBe('HANDOVER_PENDING');
    let i = await info();
    expect(i.verification_status).toBe('Pending');
    expect(i.origin_mappings).toEqual([{ chain: 'ethereum', contract: '0x1111111111111111111111111111111111111111' }]);
    expect((await node.result<Info[]>('svc_listStablecoins', [100])).map((x) => x.mint)).toContain(i.mint);

    // a minter: timelocked addition, executed once due (early execution refused)
    const add = pendingOf(await send('svc_stableConfigureMinter', ['USDX', 'add', MINTER, '10000000', '2000000', MASTER]));
    expect(add.kind).toBe('minter_addition');
    expect((await node.rpcError('svc_stableConfigureMinter', ['USDX', 'add', MINTER, '1', '1', OWNER])).data?.status).toBe('NOT_MASTER_MINTER');
    const early = await node.rpcError('svc_stableExecutePending', ['USDX', add.pending_id, ALICE]);
    expect(early.data?.status).toBe('PENDING_NOT_DUE');
    await untilHeight(add.effective_height);
    expect((await send('svc_stableExecutePending', ['USDX', add.pending_id, ALICE])).status).toBe('success');

    // mint within the limits; the epoch limit stops the third; the next epoch allows it again
    const epochAt = async () => (await info()).current_epoch;
    let e0 = await epochAt();
    // start right after an epoch boundary so the three mints share an epoch
    while ((await node.result<{ blockHeight: number }>('svc_getNetworkStats')).blockHeight % 40 > 20) await sleep(200);
    e0 = await epochAt();
    await send('svc_stableMint', ['USDX', ALICE, '900000', MINTER]);
    await send('svc_stableMint', ['USDX', ALICE, '900000', MINTER]);
    const third = await node.rpcError('svc_stableMint', ['USDX', ALICE, '900000', MINTER]);
    expect([third.code, third.data?.status]).toEqual([-32002, 'EPOCH_LIMIT_EXCEEDED']);
    await untilHeight((e0 + 1) * 40);
    await send('svc_stableMint', ['USDX', ALICE, '900000', MINTER]);
    expect(await balance(ALICE)).toBe('2700000');
    expect((await node.rpcError('svc_stableMint', ['USDX', ALICE, '1', ALICE])).data?.status).toBe('NOT_MINTER');
    expect((await node.rpcError('svc_stableMint', ['USDX', ALICE, '0', MINTER])).code).toBe(-32602);

    // pause blocks a transfer and a DEX swap
    await send('svc_createPool', ['NTV', 'USDX', '10000000000', '1000000', 0, ALICE]);
    await send('svc_stablePause', ['USDX', true, PAUSER]);
    expect((await info()).paused).toBe(true);
    expect((await node.rpcError('svc_transfer', [ALICE, BOB, 'USDX', '1'])).data?.status).toBe('TOKEN_PAUSED');
    expect((await node.rpcError('svc_swap', ['NTV', 'USDX', '100000000', '0', ALICE])).data?.status).toBe('TOKEN_PAUSED');
    expect((await node.rpcError('svc_stablePause', ['USDX', false, ALICE])).data?.status).toBe('NOT_PAUSER');
    await send('svc_stablePause', ['USDX', false, PAUSER]);
    expect((await send('svc_swap', ['NTV', 'USDX', '100000000', '0', ALICE])).status).toBe('success');

    // blacklist: refused before any state change, and readable
    await send('svc_stableBlacklist', ['USDX', BOB, true, BLACKLISTER]);
    expect(await node.result('svc_isBlacklisted', ['USDX', BOB])).toBe(true);
    const before = await balance(ALICE);
    expect((await node.rpcError('svc_transfer', [ALICE, BOB, 'USDX', '5'])).data?.status).toBe('ADDRESS_BLACKLISTED');
    expect((await node.rpcError('svc_stableMint', ['USDX', BOB, '5', MINTER])).data?.status).toBe('ADDRESS_BLACKLISTED');
    expect(await balance(ALICE)).toBe(before);
    await send('svc_stableBlacklist', ['USDX', BOB, false, BLACKLISTER]);
    expect(await node.result('svc_isBlacklisted', ['USDX', BOB])).toBe(false);

    // guardian freeze, owner-only unfreeze
    await send('svc_stableFreezeMint', ['USDX', GUARD]);
    expect((await node.rpcError('svc_stableMint', ['USDX', ALICE, '5', MINTER])).data?.status).toBe('MINT_FROZEN');
    expect((await send('svc_transfer', [ALICE, BOB, 'USDX', '5'])).status).toBe('success');
    expect((await node.rpcError('svc_stableUnfreezeMint', ['USDX', GUARD])).data?.status).toBe('NOT_STABLE_OWNER');
    await send('svc_stableUnfreezeMint', ['USDX', OWNER]);

    // a role transfer applies only after the timelock; another one is cancelled by a guardian
    const rt = pendingOf(await send('svc_stableTransferRole', ['USDX', 'pauser', BOB, OWNER]));
    expect((await node.rpcError('svc_stableTransferRole', ['USDX', 'pauser', '0x' + '00'.repeat(32), OWNER])).data?.status).toBe('ZERO_ADDRESS_ROLE');
    expect((await node.rpcError('svc_stablePause', ['USDX', true, BOB])).data?.status).toBe('NOT_PAUSER');
    await untilHeight(rt.effective_height);
    await send('svc_stableExecutePending', ['USDX', rt.pending_id, BOB]);
    expect((await info()).roles.pauser).toBe((await node.result<{ address: string }>('svc_getAccount', [BOB])).address);
    const rt2 = pendingOf(await send('svc_stableTransferRole', ['USDX', 'owner', ALICE, OWNER]));
    expect((await node.rpcError('svc_stableCancelPending', ['USDX', rt2.pending_id, ALICE])).data?.status).toBe('CANCEL_NOT_ALLOWED');
    await send('svc_stableCancelPending', ['USDX', rt2.pending_id, GUARD]);
    expect((await node.rpcError('svc_stableCancelPending', ['USDX', rt2.pending_id, GUARD])).data?.status).toBe('PENDING_NOT_FOUND');

    // a cosigned large mint (the epoch limit lifted first)
    await send('svc_stableConfigureMinter', ['USDX', 'configure', MINTER, '10000000', '0', MASTER]);
    const big = pendingOf(await send('svc_stableMint', ['USDX', BOB, '1500000', MINTER]));
    expect(big.kind).toBe('mint');
    expect((await node.rpcError('svc_stableApproveMint', ['USDX', big.pending_id, ALICE])).data?.status).toBe('NOT_COSIGNER');
    await send('svc_stableApproveMint', ['USDX', big.pending_id, COSIG_A]);
    expect((await node.rpcError('svc_stableApproveMint', ['USDX', big.pending_id, COSIG_A])).data?.status).toBe('STABLE_ALREADY_APPROVED');
    const bobBefore = BigInt(await balance(BOB));
    await send('svc_stableApproveMint', ['USDX', big.pending_id, COSIG_B]);
    expect(BigInt(await balance(BOB)) - bobBefore).toBe(1_500_000n);

    // the supply cap: governance only
    expect((await node.rpcError('svc_stableRaiseSupplyCap', ['USDX', '200000000000', OWNER])).data?.status).toBe('NOT_GOVERNANCE');
    await send('svc_stableRaiseSupplyCap', ['USDX', '200000000000', GOV]);

    // a handover moves all four roles at once after 720 blocks; the issuer becomes Issuer-Held
    await send('svc_stableVerifyIssuer', ['USDX', GOV]);
    expect((await info()).verification_status).toBe('Verified');
    i = await info();
    expect(i.pending.map((p) => p.kind)).toContain('handover');
    await untilHeight(ho.effective_height);
    const done = await send('svc_stableExecutePending', ['USDX', ho.pending_id, ALICE]);
    expect(pendingOf(done).outcome).toBe('executed');
    i = await info();
    const issuer = (await node.result<{ address: string }>('svc_getAccount', [ISSUER])).address;
    expect(Object.values(i.roles)).toEqual([issuer, issuer, issuer, issuer]);
    expect([i.verification_status, i.reputation_points]).toEqual(['Issuer-Held', 15]);
  }, 600_000);

  it('the genesis stablecoins are STD-8 records held by governance', async () => {
    const usdc = await info('USDC');
    expect(usdc.roles.owner).toBe((await node.result<{ address: string }>('svc_getAccount', [GOV])).address);
    expect(usdc.verification_status).toBe('Pending');
    expect((await node.rpcError('svc_getStablecoinInfo', ['NTV'])).code).toBe(-32003);
    expect((await node.rpcError('svc_stablePause', ['NOPE', true, GOV])).code).toBe(-32009);
  });

  it('the quantum requirement: Ed25519-signed mints refused, ML-DSA-65-signed accepted', async () => {
    const ed = Wallet.generate(node.url, 'Ed25519');
    const pq = Wallet.generate(node.url, 'ML-DSA-65');
    for (const w of [ed, pq]) await node.result('svc_transfer', [SYSTEM_NTV, w.address, 'NTV', '1000000000000']);
    await send('svc_createStableToken', [{
      name: 'Quantum USD', symbol: 'QUSD', decimals: 6, currency: 'USD', issuer: 'Q', owner: OWNER, master_minter: MASTER, pauser: PAUSER, blacklister: BLACKLISTER,
      quantum_required: true, timelock: 2,
    }, GOV]);
    const ids = [];
    for (const w of [ed, pq]) ids.push(pendingOf(await send('svc_stableConfigureMinter', ['QUSD', 'add', w.address, '1000', '0', MASTER])));
    await untilHeight(Math.max(...ids.map((p) => p.effective_height)));
    for (const p of ids) await send('svc_stableExecutePending', ['QUSD', p.pending_id, ALICE]);
    // the convenience path cannot carry a signature: refused before any bundle
    expect((await node.rpcError('svc_stableMint', ['QUSD', ALICE, '10', ed.address])).data?.status).toBe('QUANTUM_SIGNATURE_REQUIRED');
    const edMint = await ed.stableMint('QUSD', ALICE, 10n).catch((e: Error & { data?: { status?: string } }) => e) as Error & { data?: { status?: string } };
    expect(edMint.data?.status ?? edMint.message).toBe('QUANTUM_SIGNATURE_REQUIRED');
    const pqMint = await pq.stableMint('QUSD', ALICE, 10n);
    expect((pqMint.receipt as { status: string }).status).toBe('success');
    expect(await balance(ALICE, 'QUSD')).toBe('10');
  }, 120_000);

  it('EVM wallets: viem reads FiatToken views; a paused or blacklisted ERC-20 transfer reverts as geth reports it', async () => {
    const chain = defineChain({ id: 1618032, name: 'ntv-testnet', nativeCurrency: { name: 'NTV', symbol: 'NTV', decimals: 18 }, rpcUrls: { default: { http: [node.url] } } });
    const client = createPublicClient({ chain, transport: http(node.url) });
    const info = await node.result<{ mint_address: string }>('svc_getTokenInfo', ['USDC']);
    const usdc = (await node.result<{ evm_address: string }>('svc_getAccount', [info.mint_address])).evm_address as Hex;
    const fiat = parseAbi(['function paused() view returns (bool)', 'function isBlacklisted(address) view returns (bool)', 'function owner() view returns (address)',
      'function isMinter(address) view returns (bool)', 'function currency() view returns (string)']);
    const holder = `0x${'00'.repeat(19)}07` as Hex; // the testnet float of the genesis tokens
    const bad = `0x${'cd'.repeat(20)}` as Hex;
    expect(await client.readContract({ address: usdc, abi: fiat, functionName: 'paused' })).toBe(false);
    expect(await client.readContract({ address: usdc, abi: fiat, functionName: 'owner' })).toBe(`0x${'00'.repeat(19)}09`);
    expect(await client.readContract({ address: usdc, abi: fiat, functionName: 'currency' })).toBe('USD');
    expect(await client.readContract({ address: usdc, abi: fiat, functionName: 'isMinter', args: [holder] })).toBe(false);
    await send('svc_stableBlacklist', ['USDC', bad, true, GOV]);
    expect(await client.readContract({ address: usdc, abi: fiat, functionName: 'isBlacklisted', args: [bad] })).toBe(true);
    const toBad = await client.simulateContract({ account: holder, address: usdc, abi: erc20Abi, functionName: 'transfer', args: [bad, 1n] }).catch((e: unknown) => e);
    expect((toBad as BaseError).message).toContain('Blacklistable: account is blacklisted');
    await send('svc_stablePause', ['USDC', true, GOV]);
    expect(await client.readContract({ address: usdc, abi: fiat, functionName: 'paused' })).toBe(true);
    const paused = await client.simulateContract({ account: holder, address: usdc, abi: erc20Abi, functionName: 'transfer', args: [`0x${'ef'.repeat(20)}`, 1n] }).catch((e: unknown) => e);
    expect((paused as BaseError).message).toContain('Pausable: paused');
    const raw = await node.call('eth_call', [{ from: holder, to: usdc, data: `0xa9059cbb${'00'.repeat(12)}${'ef'.repeat(20)}${'00'.repeat(31)}01` }, 'latest']);
    expect(raw.error?.code).toBe(3);
    await send('svc_stablePause', ['USDC', false, GOV]);
    await send('svc_stableBlacklist', ['USDC', bad, false, GOV]);
  });
});
