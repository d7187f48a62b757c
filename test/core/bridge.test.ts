// The bridge in the core (docs/bridge.md): every status in its order, the fast path to a canonical
// STD-8 mint from two origin chains, a new bridged token at Blake3("<chain>_<SYMBOL>"), an
// impersonation, pending receives, withdrawals and their attestation, mappings, the attester set,
// contract safety; each block in lockstep with the bigint reference (test/core/bridge-harness.ts).
import { describe, it, expect } from 'vitest';
import { Status } from '../../src/core/status.js';
import { addr } from '../../testkit/encode.js';
import { NTV, TREASURY } from './harness.js';
import {
  Lockstep, attester, attestWithdrawalOp, attestersOp, bridgeGenesis, claimOp, depositOp, enc, FOUNDATION, GOVERNANCE, mappingOp, raw,
  safetyOp, withdrawOp, type Deposit,
} from './bridge-harness.js';

const A1 = attester(1), A2 = attester(2), A3 = attester(3);
const alice = addr(1), bob = addr(2);
const dep = (over: Partial<Deposit> = {}): Deposit => ({
  chain: 'ethereum', tx: '0xaaa', contract: '0xA0b8', symbol: 'USDC', amount: 1_000_000n, decimals: 6, recipient: alice, signers: [A1, A2], ...over,
});

describe('bridge core', () => {
  it('refuses every bad deposit in order and changes nothing', async () => {
    const l = await Lockstep.create((ref) => bridgeGenesis(ref, 4));
    const usdc = l.ref.blake3(enc.encode('ethereum_USDC'));
    const cases: Array<[Partial<Deposit>, number]> = [
      [{ chain: 'mars' }, Status.BRIDGE_UNKNOWN_CHAIN],
      [{ chain: 'Ethereum' }, Status.BRIDGE_UNKNOWN_CHAIN],
      [{ tx: '' }, Status.BRIDGE_INVALID_DEPOSIT],
      [{ tx: 'x'.repeat(129) }, Status.BRIDGE_INVALID_DEPOSIT],
      [{ contract: '' }, Status.BRIDGE_INVALID_DEPOSIT],
      [{ symbol: 'US-DC' }, Status.BRIDGE_INVALID_DEPOSIT],
      [{ symbol: 'X'.repeat(17) }, Status.BRIDGE_INVALID_DEPOSIT],
      [{ decimals: 19 }, Status.BRIDGE_INVALID_DEPOSIT],
      [{ recipient: new Uint8Array(32) }, Status.BRIDGE_INVALID_DEPOSIT],
      [{ amount: 0n }, Status.ZERO_AMOUNT],
      [{ signers: [A1, attester(9)] }, Status.BRIDGE_NOT_ATTESTER],
      [{ signers: [A1, A1] }, Status.BRIDGE_DUPLICATE_SIGNER],
      [{ signers: [A1] }, Status.BRIDGE_BELOW_THRESHOLD],
      [{ signers: [] }, Status.BRIDGE_BELOW_THRESHOLD],
      [{ decimals: 18 }, Status.BRIDGE_DECIMALS_MISMATCH],
    ];
    for (const [over, status] of cases) {
      expect(l.one(bob, depositOp(dep(over))), JSON.stringify(over, (_, v) => (typeof v === 'bigint' ? String(v) : v))).toBe(status);
    }
    expect(l.supply(usdc)).toBe(0n);
    expect(l.balance(alice, usdc)).toBe(0n);
    // a signature list whose length is not a multiple of 96 bytes
    expect(l.one(bob, raw(26, (w) => { w.str('ethereum'); w.str('0x1'); w.str('0xA0b8'); w.str('USDC'); w.u128(5n); w.u8(6); w.raw(alice); w.vec(new Uint8Array(95)); }))).toBe(Status.BRIDGE_INVALID_DEPOSIT);
    // u128 overflow of the supply: two deposits of 2^127 into one new token
    expect(l.one(bob, depositOp(dep({ tx: 'o1', contract: '0xbig', symbol: 'BIG', amount: 1n << 127n, decimals: 0 })))).toBe(Status.OK);
    expect(l.one(bob, depositOp(dep({ tx: 'o2', contract: '0xbig', symbol: 'BIG', amount: 1n << 127n, decimals: 0 })))).toBe(Status.AMOUNT_OVERFLOW);
  });

  it('a deposit is a bundle\'s first operation and never nested', async () => {
    const l = await Lockstep.create((ref) => bridgeGenesis(ref, 4));
    const t = { kind: 'transfer' as const, to: bob, token: NTV, amount: 1n };
    expect(l.block([l.bundle(alice, [t, depositOp(dep())])])[0]).toBe(Status.MALFORMED_BUNDLE);
    expect(l.block([l.bundle(alice, [depositOp(dep()), t])])[0]).toBe(Status.OK);
  });

  it('the fast path: USDC from two origin chains credits one canonical USDC; a replay is refused', async () => {
    const l = await Lockstep.create((ref) => bridgeGenesis(ref, 4));
    const usdc = l.ref.blake3(enc.encode('ethereum_USDC'));
    expect(l.one(bob, depositOp(dep()))).toBe(Status.OK);
    expect(l.one(bob, depositOp(dep({ chain: 'solana', tx: 'sig1', contract: 'EPjF', amount: 250n, signers: [A3, A1] })))).toBe(Status.OK);
    expect(l.balance(alice, usdc)).toBe(1_000_250n);
    expect(l.supply(usdc)).toBe(1_000_250n);
    expect(l.bridged(usdc)).toEqual({ flags: 0, deposited: 1_000_250n, withdrawn: 0n });
    // the same (chain, tx hash) again, with other signers or another amount: credited at most once
    expect(l.one(bob, depositOp(dep({ signers: [A2, A3] })))).toBe(Status.BRIDGE_ALREADY_PROCESSED);
    expect(l.one(bob, depositOp(dep({ amount: 5n })))).toBe(Status.BRIDGE_ALREADY_PROCESSED);
    expect(l.balance(alice, usdc)).toBe(1_000_250n);
  });

  it('an unknown token creates its Blake3 mint; an impersonating USDC gets its own marked token', async () => {
    const l = await Lockstep.create((ref) => bridgeGenesis(ref, 4));
    const pepe = l.ref.blake3(enc.encode('ethereum_PEPE'));
    expect(l.one(bob, depositOp(dep({ tx: 'p1', contract: '0x6982', symbol: 'PEPE', amount: 7n, decimals: 18 })))).toBe(Status.OK);
    expect(l.tokenSymbol(pepe)).toBe('PEPE');
    expect(l.supply(pepe)).toBe(7n);
    expect(l.one(bob, depositOp(dep({ tx: 'p2', contract: '0x6982', symbol: 'PEPE', amount: 3n, decimals: 18 })))).toBe(Status.OK);
    expect(l.supply(pepe)).toBe(10n);
    // another contract under the same symbol: a contract-qualified mint
    expect(l.one(bob, depositOp(dep({ tx: 'p3', contract: '0xfake', symbol: 'PEPE', amount: 1n, decimals: 18 })))).toBe(Status.OK);
    const pepe2 = l.ref.blake3(enc.encode('ethereum_PEPE_0xfake'));
    expect(l.supply(pepe2)).toBe(1n);
    expect(l.supply(pepe)).toBe(10n);
    // USDC from a contract not in the mappings
    expect(l.one(bob, depositOp(dep({ chain: 'bsc', tx: 'i1', contract: '0x8AC7', amount: 99n })))).toBe(Status.OK);
    const fake = l.ref.blake3(enc.encode('bsc_USDC_0x8AC7'));
    expect(l.tokenSymbol(fake)).toBe('USDC.unverified');
    expect(l.bridged(fake)!.flags).toBe(1);
    expect(l.balance(alice, fake)).toBe(99n);
    expect(l.balance(alice, l.ref.blake3(enc.encode('ethereum_USDC')))).toBe(0n);
    // a reserved (not yet issued) STD-8 symbol is an impersonation too
    expect(l.one(bob, depositOp(dep({ tx: 'i2', contract: '0xusdp', symbol: 'USDP', amount: 1n, decimals: 18 })))).toBe(Status.OK);
    expect(l.tokenSymbol(l.ref.blake3(enc.encode('ethereum_USDP_0xusdp')))).toBe('USDP.unverified');
  });

  it('mappings: foundation-gated, then deposits from the contract credit the mapped mint', async () => {
    const l = await Lockstep.create((ref) => bridgeGenesis(ref, 4));
    const usdc = l.ref.blake3(enc.encode('ethereum_USDC'));
    expect(l.one(alice, mappingOp('bsc', '0x8AC7', usdc))).toBe(Status.BRIDGE_NOT_FOUNDATION);
    expect(l.one(FOUNDATION, mappingOp('mars', '0x8AC7', usdc))).toBe(Status.BRIDGE_UNKNOWN_CHAIN);
    expect(l.one(FOUNDATION, mappingOp('bsc', '', usdc))).toBe(Status.BRIDGE_INVALID_MAPPING);
    expect(l.one(FOUNDATION, mappingOp('bsc', '0x8AC7', NTV))).toBe(Status.BRIDGE_INVALID_MAPPING);
    expect(l.one(FOUNDATION, mappingOp('bsc', '0x8AC7', addr(77)))).toBe(Status.BRIDGE_INVALID_MAPPING);
    expect(l.one(FOUNDATION, mappingOp('bsc', '0x8AC7', usdc))).toBe(Status.OK);
    expect(l.one(GOVERNANCE, mappingOp('bsc', '0x8AC7', usdc))).toBe(Status.BRIDGE_MAPPING_EXISTS);
    expect(l.one(bob, depositOp(dep({ chain: 'bsc', tx: 'm1', contract: '0x8AC7', amount: 42n })))).toBe(Status.OK);
    expect(l.balance(alice, usdc)).toBe(42n);
  });

  it('contract safety: a blocked contract is refused, a cleared one accepted', async () => {
    const l = await Lockstep.create((ref) => bridgeGenesis(ref, 4));
    expect(l.one(alice, safetyOp('ethereum', '0xbad', 3))).toBe(Status.NOT_GOVERNANCE);
    expect(l.one(GOVERNANCE, safetyOp('ethereum', '0xbad', 4))).toBe(Status.INVALID_SAFETY_TARGET);
    expect(l.one(GOVERNANCE, safetyOp('ethereum', '0xbad', 3))).toBe(Status.OK);
    expect(l.one(bob, depositOp(dep({ tx: 'b1', contract: '0xbad', symbol: 'BAD' })))).toBe(Status.BRIDGE_CONTRACT_BLOCKED);
    expect(l.one(GOVERNANCE, safetyOp('ethereum', '0xbad', 2))).toBe(Status.OK); // caution: accepted, shown as a warning
    expect(l.one(bob, depositOp(dep({ tx: 'b1', contract: '0xbad', symbol: 'BAD' })))).toBe(Status.OK);
  });

  it('pending receives: a paused coin holds the deposit; the claim completes it once unpaused', async () => {
    const l = await Lockstep.create((ref) => bridgeGenesis(ref, 4));
    const usdc = l.ref.blake3(enc.encode('ethereum_USDC'));
    const pause = (on: boolean) => raw(56, (w) => { w.raw(usdc); w.u8(on ? 1 : 0); });
    expect(l.one(GOVERNANCE, pause(true))).toBe(Status.OK);
    expect(l.one(bob, depositOp(dep()))).toBe(Status.OK);
    expect(l.balance(alice, usdc)).toBe(0n);
    expect(l.one(bob, depositOp(dep()))).toBe(Status.BRIDGE_ALREADY_PROCESSED);
    expect(l.one(bob, claimOp('ethereum', '0xaaa'))).toBe(Status.TOKEN_PAUSED);
    expect(l.one(bob, claimOp('ethereum', '0xbbb'))).toBe(Status.BRIDGE_NOT_PENDING);
    expect(l.one(GOVERNANCE, pause(false))).toBe(Status.OK);
    expect(l.one(bob, claimOp('ethereum', '0xaaa'))).toBe(Status.OK);
    expect(l.balance(alice, usdc)).toBe(1_000_000n);
    expect(l.one(bob, claimOp('ethereum', '0xaaa'))).toBe(Status.BRIDGE_NOT_PENDING);
    // a blacklisted recipient is refused outright
    expect(l.one(GOVERNANCE, raw(57, (w) => { w.raw(usdc); w.raw(bob); w.u8(1); }))).toBe(Status.OK);
    expect(l.one(alice, depositOp(dep({ tx: 'bl', recipient: bob })))).toBe(Status.ADDRESS_BLACKLISTED);
  });

  it('withdrawals burn, pay the fee, and are attested once', async () => {
    const l = await Lockstep.create((ref) => bridgeGenesis(ref, 4));
    const usdc = l.ref.blake3(enc.encode('ethereum_USDC'));
    expect(l.one(bob, depositOp(dep()))).toBe(Status.OK);
    const t0 = l.balance(TREASURY, NTV);
    expect(l.one(alice, withdrawOp(usdc, 0n, 'ethereum', '0xdest'))).toBe(Status.ZERO_AMOUNT);
    expect(l.one(alice, withdrawOp(usdc, 1n, 'mars', '0xdest'))).toBe(Status.BRIDGE_UNKNOWN_CHAIN);
    expect(l.one(alice, withdrawOp(usdc, 1n, 'ethereum', ''))).toBe(Status.BRIDGE_INVALID_DESTINATION);
    expect(l.one(alice, withdrawOp(addr(77), 1n, 'ethereum', '0xdest'))).toBe(Status.UNKNOWN_TOKEN);
    expect(l.one(alice, withdrawOp(NTV, 1n, 'ethereum', '0xdest'))).toBe(Status.BRIDGE_NOT_BRIDGED_TOKEN);
    expect(l.one(alice, withdrawOp(usdc, 1_000_001n, 'ethereum', '0xdest'))).toBe(Status.INSUFFICIENT_BALANCE);
    expect(l.one(addr(3), withdrawOp(usdc, 1n, 'ethereum', '0xdest'))).toBe(Status.INSUFFICIENT_BALANCE);
    expect(l.one(alice, withdrawOp(usdc, 400_000n, 'ethereum', '0xdest'))).toBe(Status.OK);
    expect(l.balance(alice, usdc)).toBe(600_000n);
    expect(l.supply(usdc)).toBe(600_000n);
    expect(l.balance(TREASURY, NTV) - t0).toBe(2_000_000_000n);
    expect(l.bridged(usdc)).toEqual({ flags: 0, deposited: 1_000_000n, withdrawn: 400_000n });
    expect(l.one(bob, attestWithdrawalOp(2n, 'ethereum', '0xdest', usdc, 400_000n, [A1, A2]))).toBe(Status.BRIDGE_WITHDRAWAL_NOT_FOUND);
    expect(l.one(bob, attestWithdrawalOp(1n, 'ethereum', '0xdest', usdc, 400_001n, [A1, A2]))).toBe(Status.BRIDGE_WITHDRAWAL_NOT_FOUND);
    expect(l.one(bob, attestWithdrawalOp(1n, 'ethereum', '0xdest', usdc, 400_000n, [A1]))).toBe(Status.BRIDGE_BELOW_THRESHOLD);
    expect(l.one(bob, attestWithdrawalOp(1n, 'ethereum', '0xdest', usdc, 400_000n, [A1, A3]))).toBe(Status.OK);
    expect(l.one(bob, attestWithdrawalOp(1n, 'ethereum', '0xdest', usdc, 400_000n, [A1, A3]))).toBe(Status.BRIDGE_ALREADY_ATTESTED);
    // the next withdrawal has sequence 2
    expect(l.one(alice, withdrawOp(usdc, 1n, 'solana', 'So1Dest'))).toBe(Status.OK);
    expect(l.one(bob, attestWithdrawalOp(2n, 'solana', 'So1Dest', usdc, 1n, [A2, A3]))).toBe(Status.OK);
  });

  it('the attester set: governance only, validated, and it changes who may sign', async () => {
    const l = await Lockstep.create((ref) => bridgeGenesis(ref, 4));
    const A4 = attester(4);
    expect(l.one(alice, attestersOp([A4], 1))).toBe(Status.NOT_GOVERNANCE);
    expect(l.one(GOVERNANCE, attestersOp([], 1))).toBe(Status.BRIDGE_INVALID_ATTESTERS);
    expect(l.one(GOVERNANCE, attestersOp([A4, A4], 1))).toBe(Status.BRIDGE_INVALID_ATTESTERS);
    expect(l.one(GOVERNANCE, attestersOp([A4], 2))).toBe(Status.BRIDGE_INVALID_ATTESTERS);
    expect(l.one(GOVERNANCE, attestersOp([A4], 0))).toBe(Status.BRIDGE_INVALID_ATTESTERS);
    expect(l.one(GOVERNANCE, attestersOp(Array.from({ length: 17 }, (_, i) => attester(i + 10)), 1))).toBe(Status.BRIDGE_INVALID_ATTESTERS);
    expect(l.one(GOVERNANCE, attestersOp([A4, A3], 1))).toBe(Status.OK);
    expect(l.one(bob, depositOp(dep({ signers: [A1, A2] })))).toBe(Status.BRIDGE_NOT_ATTESTER);
    expect(l.one(bob, depositOp(dep({ signers: [A4] })))).toBe(Status.OK);
  });

  it('without an attester set every deposit and withdrawal is BRIDGE_NOT_CONFIGURED', async () => {
    const l = await Lockstep.create((ref) => ({ ...bridgeGenesis(ref, 4), bridge: undefined }));
    const usdc = l.ref.blake3(enc.encode('ethereum_USDC'));
    expect(l.one(bob, depositOp(dep()))).toBe(Status.BRIDGE_NOT_CONFIGURED);
    expect(l.one(alice, withdrawOp(usdc, 1n, 'ethereum', '0xd'))).toBe(Status.BRIDGE_NOT_CONFIGURED);
    expect(l.one(GOVERNANCE, attestersOp([A1], 1))).toBe(Status.OK);
    expect(l.one(bob, depositOp(dep({ signers: [A1] })))).toBe(Status.OK);
  });
});
