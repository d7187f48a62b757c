// The bridge over JSON-RPC (docs/bridge.md; issue 20 "What it must show"), one testnet node whose
// dev attester is its genesis validator key (validator.key in the data dir): USDC from two origin
// chains credits one canonical USDC, an unknown token gets its Blake3 mint, an impersonating USDC
// gets reputation 0 and no badge, forged / replayed / mismatched proofs are refused, a blocked
// contract is refused, a paused coin holds a pending receive, a withdrawal goes pending → attested,
// and a replayed proof is still refused after a restart and on a second node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestNode } from './harness.js';
import { systemAddressHex } from './bundles.js';
import { ed25519PublicKey, Signer } from '../../src/codec/keys.js';
import { encodeMint, parseAddress, parseMint } from '../../src/codec/address.js';
import { encodeBundle, type Operation } from '../../src/codec/bundle.js';
import { blake3, initHashing } from '../../src/codec/hash.js';
import { attest, depositDigest, encodeDepositProof, withdrawalDigest, type DepositMessage } from '../../src/domains/bridge/proofs.js';

const CHAIN_ID = 1618032;
const enc = new TextEncoder();
interface Receipt { bundle_hash: string; status: string; status_name: string; events: Array<{ type: string; [k: string]: unknown }> }

let node: TestNode;
let dataDir: string;
let seed: Uint8Array;
let govNonce = 0n;

const proofHex = (m: DepositMessage, signers: Uint8Array[] = [seed]) =>
  Buffer.from(encodeDepositProof({ ...m, signatures: Uint8Array.from(signers.flatMap((s) => [...attest(s, depositDigest(CHAIN_ID, m))])) })).toString('hex');
const msg = (over: Partial<DepositMessage> & { recipient: Uint8Array }): DepositMessage => ({
  chain: 'ethereum', txHash: `0x${Math.random().toString(16).slice(2)}`, contract: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', symbol: 'USDC',
  amount: 100_000_000n, decimals: 6, ...over,
});
const addrOf = (s: Signer) => s.address;
/** An unsigned testnet bundle of the governance authority 0x00…09 (the stand-in for a passed proposal). */
async function asGovernance(op: Operation): Promise<Receipt> {
  const bytes = encodeBundle({
    userAccount: parseAddress(systemAddressHex(9)), operations: [op], maxGas: 200_000n, maxPriorityFee: 0n,
    validUntil: BigInt(Math.floor(Date.now() / 1000) + 600), nonce: govNonce++, signature: new Uint8Array(0), expiryTimestamp: undefined, senderPubkey: undefined,
  });
  return node.result<Receipt>('svc_submitBundle', [Buffer.from(bytes).toString('hex')]).then(async (r) => (r.status ? r : node.result<Receipt>('svc_getTransactionReceipt', [r.bundle_hash])));
}

beforeAll(async () => {
  await initHashing();
  dataDir = await mkdtemp(join(tmpdir(), 'ntv-bridge-'));
  node = await TestNode.start({ dataDir, args: ['--block-time', '1', '--gas-price', '0'] });
  seed = new Uint8Array(Buffer.from((await readFile(join(dataDir, 'validator.key'), 'utf8')).trim(), 'hex'));
}, 60_000);
afterAll(async () => {
  await node?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the bridge over JSON-RPC', () => {
  const alice = Signer.generate();
  const aliceBytes = () => parseAddress(alice.address);
  const first = () => msg({ txHash: '0xeth1', recipient: aliceBytes() });

  it('USDC from ethereum and solana credits one canonical USDC', async () => {
    const m = first();
    const r = await node.result<Receipt>('svc_bridgeToken', ['ethereum', m.txHash, 'USDC', '100000000', addrOf(alice), proofHex(m)]);
    expect(r.status).toBe('success');
    const sol = msg({ chain: 'solana', txHash: '5hSoLsig', contract: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', amount: 25_000_000n, recipient: aliceBytes() });
    const auto = await node.result<{ path: string; deposit: { mint: string; status: string } }>('svc_autobridge', [proofHex(sol)]);
    expect(auto.path).toBe('std8');
    expect(auto.deposit.status).toBe('completed');
    expect(auto.deposit.mint).toBe(encodeMint(blake3(enc.encode('ethereum_USDC'))));
    expect(await node.result('svc_getBalance', [addrOf(alice), 'USDC'])).toBe('125000000');
    const status = await node.result<{ kind: string; status: string }>('svc_getBridgeStatus', ['solana', '5hSoLsig']);
    expect(status).toMatchObject({ kind: 'deposit', status: 'completed' });
  });

  it('refuses forged, mismatched, under-threshold and malformed proofs, and unknown chains, changing nothing', async () => {
    const m = msg({ txHash: '0xforged', recipient: aliceBytes() });
    const forged = proofHex(m).slice(0, -2) + (proofHex(m).endsWith('00') ? '01' : '00');
    expect((await node.rpcError('svc_bridgeToken', ['ethereum', m.txHash, 'USDC', '100000000', addrOf(alice), forged])).code).toBe(-32602);
    const other = Signer.generate();
    expect((await node.rpcError('svc_bridgeToken', ['ethereum', m.txHash, 'USDC', '100000000', other.address, proofHex(m)])).data).toMatchObject({ param: 'recipient' });
    expect((await node.rpcError('svc_bridgeToken', ['ethereum', m.txHash, 'USDC', '999', addrOf(alice), proofHex(m)])).data).toMatchObject({ param: 'amount' });
    expect((await node.rpcError('svc_bridgeToken', ['ethereum', m.txHash, 'USDC', '100000000', addrOf(alice), proofHex(m, [])])).code).toBe(-32602);
    expect((await node.rpcError('svc_bridgeToken', ['mars', m.txHash, 'USDC', '100000000', addrOf(alice), proofHex(m)])).data).toMatchObject({ param: 'chain' });
    expect((await node.rpcError('svc_autobridge', ['zz'])).code).toBe(-32602);
    expect((await node.rpcError('svc_autobridge', ['00'])).code).toBe(-32602);
    // signed by a key that is not an attester: the signature verifies, the core refuses the signer
    const e = await node.rpcError('svc_autobridge', [proofHex(m, [new Uint8Array(32).fill(7)])]);
    expect(e.code).toBe(-32002);
    expect(e.data?.status).toBe('BRIDGE_NOT_ATTESTER');
    // zero and overflowing amounts
    const zero = msg({ txHash: '0xzero', amount: 0n, recipient: aliceBytes() });
    expect((await node.rpcError('svc_autobridge', [proofHex(zero)])).data?.status).toBe('ZERO_AMOUNT');
    expect((await node.rpcError('svc_bridgeToken', ['ethereum', '0xbig', 'USDC', (1n << 128n).toString(), addrOf(alice), proofHex(first())])).code).toBe(-32602);
    // a bundle carrying a forged attester signature is refused at admission
    const bad = encodeBundle({
      userAccount: aliceBytes(), operations: [{ type: 'BridgeDeposit', ...m, signatures: Uint8Array.from([...attest(seed, depositDigest(CHAIN_ID, { ...m, amount: 1n }))]) }],
      maxGas: 200_000n, maxPriorityFee: 0n, validUntil: BigInt(Math.floor(Date.now() / 1000) + 600), nonce: 5n, signature: new Uint8Array(0), expiryTimestamp: undefined, senderPubkey: undefined,
    });
    const be = await node.rpcError('svc_submitBundle', [Buffer.from(bad).toString('hex')]);
    expect(be.code).toBe(-32001);
    expect(be.message).toMatch(/attester signature/);
    expect(await node.result('svc_getBalance', [addrOf(alice), 'USDC'])).toBe('125000000');
  });

  it('a replayed proof is refused', async () => {
    const m = first();
    const e = await node.rpcError('svc_bridgeToken', ['ethereum', m.txHash, 'USDC', '100000000', addrOf(alice), proofHex(m)]);
    expect(e).toMatchObject({ code: -32002, data: { status: 'BRIDGE_ALREADY_PROCESSED' } });
    expect(await node.result('svc_getBalance', [addrOf(alice), 'USDC'])).toBe('125000000');
  });

  it('an unknown token creates its Blake3 mint; an impersonating USDC gets reputation 0 and no badge', async () => {
    const pepe = msg({ txHash: '0xpepe', contract: '0x6982508145454Ce325dDbE47a25d4ec3d2311933', symbol: 'PEPE', amount: 5n * 10n ** 18n, decimals: 18, recipient: aliceBytes() });
    const created = await node.result<{ path: string; deposit: { mint: string } }>('svc_autobridge', [proofHex(pepe)]);
    expect(created.path).toBe('new_token');
    expect(created.deposit.mint).toBe(encodeMint(blake3(enc.encode('ethereum_PEPE'))));
    const rep = await node.result<{ score: number }>('svc_getTokenReputation', [created.deposit.mint]);
    expect(rep.score).toBe(5);
    const fake = msg({ chain: 'bsc', txHash: '0xfakeusdc', contract: '0xEvil', amount: 7_000_000n, recipient: aliceBytes() });
    const imp = await node.result<{ path: string; deposit: { mint: string } }>('svc_autobridge', [proofHex(fake)]);
    expect(imp.path).toBe('impersonation');
    const r = await node.result<{ symbol: string; score: number; badge: string | null; warnings: string[] }>('svc_getTokenReputation', [imp.deposit.mint]);
    expect(r).toMatchObject({ symbol: 'USDC.unverified', score: 0, badge: null });
    expect(r.warnings.length).toBeGreaterThan(0);
    expect(await node.result('svc_getBalance', [addrOf(alice), 'USDC'])).toBe('125000000');
  });

  it('contract safety: a blocked contract is refused; records are served', async () => {
    const set = await asGovernance({ type: 'SetContractSafety', chain: 'ethereum', contract: '0xBLOCKED', level: 3 });
    expect(set.status).toBe('success');
    expect(await node.result('svc_getContractSafety', ['ethereum', '0xBLOCKED'])).toMatchObject({ level: 'blocked', level_code: 3 });
    expect(await node.result('svc_getContractSafety', ['ethereum', '0xother'])).toMatchObject({ level: 'unreviewed', level_code: 0 });
    expect((await node.result<unknown[]>('svc_listContractSafety', ['ethereum', 10])).length).toBe(1);
    expect(await node.result('svc_listContractSafety', ['solana', 10])).toEqual([]);
    const m = msg({ txHash: '0xblocked', contract: '0xBLOCKED', symbol: 'SCAM', recipient: aliceBytes() });
    expect((await node.rpcError('svc_autobridge', [proofHex(m)])).data?.status).toBe('BRIDGE_CONTRACT_BLOCKED');
  });

  it('a paused coin holds a pending receive that completes once unpaused', async () => {
    const usdc = parseMint(encodeMint(blake3(enc.encode('ethereum_USDC'))));
    expect((await asGovernance({ type: 'StablePause', token: usdc, pause: true })).status).toBe('success');
    const m = msg({ txHash: '0xheld', amount: 3n, recipient: aliceBytes() });
    const held = await node.result<{ deposit: { status: string; reason: string } }>('svc_autobridge', [proofHex(m)]);
    expect(held.deposit).toMatchObject({ status: 'pending', reason: 'TOKEN_PAUSED' });
    expect((await node.result<unknown[]>('svc_getPendingReceives', [addrOf(alice)])).length).toBe(1);
    expect((await node.rpcError('svc_autobridge', [proofHex(m)])).data?.status).toBe('TOKEN_PAUSED');
    expect((await asGovernance({ type: 'StablePause', token: usdc, pause: false })).status).toBe('success');
    const done = await node.result<{ deposit: { status: string } }>('svc_autobridge', [proofHex(m)]);
    expect(done.deposit.status).toBe('completed');
    expect(await node.result('svc_getPendingReceives', [])).toEqual([]);
    expect(await node.result('svc_getBalance', [addrOf(alice), 'USDC'])).toBe('125000003');
  });

  it('a withdrawal burns, pays the fee, and goes pending → attested', async () => {
    await node.result('svc_transfer', [systemAddressHex(1), addrOf(alice), 'NTV', '10000000000']);
    expect((await node.rpcError('svc_bridgeWithdraw', ['USDC', '999999999999', 'ethereum', '0xdest', addrOf(alice)])).data?.status).toBe('INSUFFICIENT_BALANCE');
    expect((await node.rpcError('svc_bridgeWithdraw', ['NTV', '1', 'ethereum', '0xdest', addrOf(alice)])).data?.status).toBe('BRIDGE_NOT_BRIDGED_TOKEN');
    expect((await node.rpcError('svc_bridgeWithdraw', ['USDC', '1', 'mars', '0xdest', addrOf(alice)])).data).toMatchObject({ param: 'chain' });
    expect((await node.rpcError('svc_bridgeWithdraw', ['USDC', '0', 'ethereum', '0xdest', addrOf(alice)])).data?.status).toBe('ZERO_AMOUNT');
    const w = await node.result<{ sequence: string; receipt: Receipt }>('svc_bridgeWithdraw', ['USDC', '40000000', 'ethereum', '0xdest', addrOf(alice)]);
    expect(await node.result('svc_getBalance', [addrOf(alice), 'USDC'])).toBe('85000003');
    expect(await node.result('svc_getBridgeStatus', ['ethereum', w.receipt.bundle_hash])).toMatchObject({ kind: 'withdrawal', status: 'pending' });
    const usdc = parseMint(encodeMint(blake3(enc.encode('ethereum_USDC'))));
    const wm = { sequence: BigInt(w.sequence), chain: 'ethereum', destination: '0xdest', token: usdc, amount: 40_000_000n };
    const relayer = Signer.generate();
    const att = encodeBundle({
      userAccount: parseAddress(relayer.address), operations: [{ type: 'AttestBridgeWithdrawal', ...wm, signatures: attest(seed, withdrawalDigest(CHAIN_ID, wm)) }],
      maxGas: 200_000n, maxPriorityFee: 0n, validUntil: BigInt(Math.floor(Date.now() / 1000) + 600), nonce: 0n, signature: new Uint8Array(0), expiryTimestamp: undefined, senderPubkey: undefined,
    });
    await node.result('svc_submitBundle', [Buffer.from(att).toString('hex')]);
    for (let i = 0; i < 50; i++) {
      const s = await node.result<{ status: string }>('svc_getBridgeStatus', ['ethereum', `withdrawal:${w.sequence}`]);
      if (s.status === 'attested') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await node.result('svc_getBridgeStatus', ['ethereum', `withdrawal:${w.sequence}`])).toMatchObject({ status: 'attested' });
    const history = await node.result<Array<{ kind: string }>>('svc_getBridgeHistory', [addrOf(alice), 50]);
    expect(history[0]!.kind).toBe('withdrawal');
    expect(history.filter((h) => h.kind === 'deposit').length).toBe(5);
  });

  it('fees, mappings and the foundation gate', async () => {
    expect((await node.result<unknown[]>('svc_getBridgeFees', [null])).length).toBe(13);
    expect(await node.result('svc_getBridgeFees', ['ethereum'])).toEqual([{ chain: 'ethereum', fee: '2000000000', fee_token: 'NTV' }]);
    expect(await node.result<Array<{ symbol: string }>>('svc_getBridgeMappings', ['solana'])).toContainEqual(expect.objectContaining({ symbol: 'USDC', source: 'std8_origin' }));
    const refused = await node.rpcError('svc_registerBridgeMapping', ['bsc', '0x8AC7', 'USDC', addrOf(alice)]);
    expect(refused.data?.status).toBe('BRIDGE_NOT_FOUNDATION');
    expect((await node.result<Receipt>('svc_registerBridgeMapping', ['bsc', '0x8AC7', 'USDC', systemAddressHex(3)])).status).toBe('success');
    expect(await node.result('svc_getBridgeMappings', ['bsc'])).toContainEqual(expect.objectContaining({ contract: '0x8AC7', source: 'registered' }));
    const viaMapping = msg({ chain: 'bsc', txHash: '0xbscusdc', contract: '0x8AC7', amount: 1n, recipient: aliceBytes() });
    expect((await node.result<{ path: string }>('svc_autobridge', [proofHex(viaMapping)])).path).toBe('std8');
    expect((await node.rpcError('svc_getBridgeStatus', ['ethereum', '0xnothing'])).code).toBe(-32003);
    // the attester-set proposal type: built from bridge_attesters + bridge_threshold (the core then needs bonded stake)
    const key = Buffer.from(new Uint8Array(32).fill(5)).toString('hex');
    const base = [addrOf(alice), 'bridge_attesters', 'New attesters', '', null, null, null, null, null, null, null, null, null];
    expect((await node.rpcError('svc_createProposal', [...base, ['nothex'], 1])).data).toMatchObject({ param: 'bridge_attesters' });
    expect((await node.rpcError('svc_createProposal', [...base, [key], 1])).data?.status).toBe('NO_VOTING_POWER');
  });

  it('intent `bridge 100 USDC from ethereum and swap to NTV`: the claim and the swap in ONE bundle, one block, both or neither; refusals change nothing', async () => {
    const usdc = parseMint(encodeMint(blake3(enc.encode('ethereum_USDC'))));
    const dave = Signer.generate();
    const rich = systemAddressHex(7);
    await node.result('svc_transfer', [rich, dave.address, 'NTV', '1000000000']);
    await node.result('svc_createPool', ['USDC', 'NTV', '100000000000', '1000000000000', 0, rich]);
    // a deposit held while USDC is paused: a pending receive of dave's
    expect((await asGovernance({ type: 'StablePause', token: usdc, pause: true })).status).toBe('success');
    const m = msg({ txHash: '0xintent', amount: 100_000_000n, recipient: parseAddress(dave.address) });
    expect((await node.result<{ deposit: { status: string } }>('svc_autobridge', [proofHex(m)])).deposit.status).toBe('pending');
    const text = 'bridge 100 USDC from ethereum and swap to NTV';
    const intentStatus = async (hash: string) => {
      let st: { status: string; status_name?: string; receipt?: Receipt } = { status: 'pending' };
      for (let i = 0; i < 100 && st.status === 'pending'; i++) {
        await new Promise((r) => setTimeout(r, 200));
        st = await node.result('svc_getIntentStatus', [hash]);
      }
      return st;
    };
    // still paused: the bundle is included and fails on the claim, so the swap is reverted with it
    const held = await intentStatus(await node.result<string>('svc_submitIntent', [text, dave.address]));
    expect(held).toMatchObject({ status: 'failed', status_name: 'TOKEN_PAUSED' });
    expect(held.receipt!.events.some((e) => e.type === 'Swap')).toBe(false);
    expect(await node.result('svc_getBalance', [dave.address, 'USDC'])).toBe('0');
    expect(await node.result('svc_getBalance', [dave.address, 'NTV'])).toBe('1000000000');
    expect((await node.result<unknown[]>('svc_getPendingReceives', [dave.address])).length).toBe(1);
    expect((await asGovernance({ type: 'StablePause', token: usdc, pause: false })).status).toBe('success');

    // refusals: an unknown chain (-32602 naming the intent), no matching deposit (-32003), neither changes state
    const mars = await node.rpcError('svc_submitIntent', ['bridge 100 USDC from mars and swap to NTV', dave.address]);
    expect(mars.code).toBe(-32602);
    expect(mars.message).toMatch(/unknown chain "mars"/);
    const none = await node.rpcError('svc_submitIntent', ['bridge 5 USDC from ethereum and swap to NTV', dave.address]);
    expect(none.code).toBe(-32003);
    expect(none.message).toMatch(/no pending receive of 5 USDC from ethereum.*pending from ethereum: 100 USDC/);
    expect((await node.rpcError('svc_previewIntent', ['bridge 100 USDC from solana', dave.address])).code).toBe(-32003);
    expect((await node.result<unknown[]>('svc_getPendingReceives', [dave.address])).length).toBe(1);

    const preview = await node.result<{ summary: string; balance_sufficient: boolean }>('svc_previewIntent', [text, dave.address]);
    expect(preview.summary).toMatch(/^Claim 100 USDC bridged from ethereum \(deposit 0xintent\); then Swap 100 USDC for ≈/);
    expect(preview.balance_sufficient).toBe(true);
    const plan = await node.result<{ steps: Array<{ type: string }> }>('svc_getExecutionPlan', [text, dave.address]);
    expect(plan.steps.map((s) => s.type)).toEqual(['ClaimBridgeDeposit', 'Swap']);
    const quote = await node.result<{ amount_out: string }>('svc_quoteSwap', ['USDC', 'NTV', '100000000']);
    const sim = await node.result<{ success: boolean; operations: Array<{ type: string }> }>('svc_simulateIntent', [text, dave.address]);
    expect(sim.success).toBe(true);
    expect(sim.operations.map((o) => o.type)).toEqual(['ClaimBridgeDeposit', 'Swap']);

    const status = await intentStatus(await node.result<string>('svc_submitIntent', [text, dave.address]));
    expect(status.status).toBe('completed');
    // both operations' events in the one receipt: the claim's mint, then the swap of what it credited
    const types = status.receipt!.events.map((e) => e.type);
    expect(types).toContain('BridgeDeposited');
    expect(types).toContain('Swap');
    expect(types.indexOf('BridgeDeposited')).toBeLessThan(types.indexOf('Swap'));
    expect(status.receipt!.events.find((e) => e.type === 'Swap')!.amount_out).toBe(quote.amount_out);
    expect(await node.result('svc_getBalance', [dave.address, 'USDC'])).toBe('0');
    expect(BigInt(await node.result<string>('svc_getBalance', [dave.address, 'NTV']))).toBe(1_000_000_000n + BigInt(quote.amount_out));
    expect(await node.result('svc_getPendingReceives', [dave.address])).toEqual([]);
    expect(await node.result('svc_getBridgeStatus', ['ethereum', '0xintent'])).toMatchObject({ status: 'completed' });
    // the deposit is used: the same intent again finds nothing
    expect((await node.rpcError('svc_submitIntent', [text, dave.address])).code).toBe(-32003);
  }, 60_000);

  it('`ntv-node bridge attest` signs a deposit with the dev attester in the data dir', async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const main = join(import.meta.dirname, '../../dist/src/cli/main.js');
    const { stdout } = await promisify(execFile)(process.execPath, [main, 'bridge', 'attest', '-d', dataDir, '--chain', 'ethereum', '--tx-hash', '0xcli',
      '--contract', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', '--symbol', 'USDC', '--amount', '5', '--decimals', '6', '--recipient', addrOf(alice)]);
    const out = JSON.parse(stdout) as { proof: string };
    const r = await node.result<{ path: string; deposit: { status: string } }>('svc_autobridge', [out.proof]);
    expect(r).toMatchObject({ path: 'std8', deposit: { status: 'completed' } });
  });

  it('across two nodes: a follower refuses a proof the validator credited, and a proof sent to the follower is credited once', async () => {
    const health = await node.result<{ addresses: string[] }>('svc_validatorHealth');
    const bootnode = health.addresses.find((x) => x.includes('/quic-v1/p2p/'))!;
    const follower = await TestNode.start({
      args: ['--bootnodes', bootnode, '--block-time', '1', '--gas-price', '0', '--genesis-validators', Buffer.from(ed25519PublicKey(seed)).toString('hex')],
    });
    try {
      await follower.waitForHeight((await node.result<{ blockHeight: number }>('svc_getNetworkStats')).blockHeight, 60_000);
      const m = first();
      expect((await follower.call('svc_bridgeToken', ['ethereum', m.txHash, 'USDC', '100000000', addrOf(alice), proofHex(m)])).error?.data?.status).toBe('BRIDGE_ALREADY_PROCESSED');
      const before = BigInt(await node.result<string>('svc_getBalance', [addrOf(alice), 'USDC']));
      const fresh = msg({ txHash: '0xtwo-nodes', recipient: aliceBytes() });
      const args = ['ethereum', fresh.txHash, 'USDC', '100000000', addrOf(alice), proofHex(fresh)];
      expect((await follower.result<Receipt>('svc_bridgeToken', args)).status).toBe('success');
      expect((await node.call('svc_bridgeToken', args)).error?.data?.status).toBe('BRIDGE_ALREADY_PROCESSED');
      expect(BigInt(await node.result<string>('svc_getBalance', [addrOf(alice), 'USDC'])) - before).toBe(100_000_000n);
    } finally {
      await follower.stop();
    }
  }, 120_000);

  it('a replayed proof is still refused after a restart', async () => {
    await node.stop();
    node = await TestNode.start({ dataDir, args: ['--block-time', '1', '--gas-price', '0'] });
    const before = await node.result('svc_getBalance', [addrOf(alice), 'USDC']);
    const m = first();
    expect((await node.rpcError('svc_bridgeToken', ['ethereum', m.txHash, 'USDC', '100000000', addrOf(alice), proofHex(m)])).data?.status).toBe('BRIDGE_ALREADY_PROCESSED');
    expect(await node.result('svc_getBalance', [addrOf(alice), 'USDC'])).toBe(before);
  }, 60_000);
});

describe('the bridge on mainnet', () => {
  it('refuses the unsigned convenience writes (-32004); reads answer', async () => {
    const main = await TestNode.start({ args: ['--network', 'mainnet', '--block-time', '1'] });
    try {
      const who = Signer.generate().address;
      expect((await main.call('svc_bridgeWithdraw', ['USDC', '1', 'ethereum', '0xdest', who])).error?.code).toBe(-32004);
      expect((await main.call('svc_registerBridgeMapping', ['bsc', '0x8AC7', 'USDC', systemAddressHex(3)])).error?.code).toBe(-32004);
      // the mainnet starts without an attester set: no proof verifies against it, and the fees still answer
      expect((await main.result<unknown[]>('svc_getBridgeFees', [null])).length).toBe(13);
      expect(await main.result('svc_getPendingReceives', [])).toEqual([]);
    } finally {
      await main.stop();
    }
  }, 60_000);
});
