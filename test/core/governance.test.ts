// Protocol proposals in the core (CreateProposal 18, VoteProposal 19, ExecuteProposal 20,
// CancelProposal 21; docs/governance.md): every status in its order, stake-weighted tallies with
// quorum and threshold, each action (parameter change, treasury spend, safety levels, operations run
// as GOVERNANCE), a vote that cannot be doubled by moving stake, and a failing action reverting.
import { describe, expect, it } from 'vitest';
import type { BundleInput } from '../../src/core/core.js';
import { Status } from '../../src/core/status.js';
import { encodeBundle, type Operation, type ProposalAction } from '../../src/codec/bundle.js';
import { chainParams } from '../../src/chain/chain-params.js';
import { GOVERNANCE, TREASURY } from '../../src/abi/constants.js';
import { stableKey, decodeProposalFields, proposalKey, proposalVoteKey, decodeProposalVoteFields, collectionSafetyKey, contractSafetyKey, decodeContractSafetyFields } from '../../src/abi/state.js';
import { contractSafetyTarget } from '../../src/domains/governance/reader.js';
import { addr, hex } from '../../testkit/encode.js';
import { NTV } from './harness.js';
import { setup, ntv, UNIT, type Setup } from './staking-harness.js';

let seq = 0n;
function run(s: Setup, bundles: Array<[Uint8Array, Operation[]]>) {
  s.height += 1n;
  s.ts += 2n;
  const next = new Map(s.nonces);
  const inputs: BundleInput[] = bundles.map(([u, ops]) => {
    const k = hex(u);
    const nonce = next.get(k) ?? 0n;
    next.set(k, nonce + 1n);
    return { bytes: encodeBundle({ userAccount: u, operations: ops, maxGas: 1_000_000n, maxPriorityFee: 0n, validUntil: (1n << 62n) + seq++, nonce, signature: new Uint8Array(0) }), auth: 0 };
  });
  const r = s.core.applyBlock({ height: s.height, timestamp: s.ts, proposer: addr(0), gasPrice: 0n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 100_000_000n }, inputs);
  s.store.apply(s.core.commitBlock().writes);
  r.results.forEach((res, i) => {
    const k = hex(bundles[i]![0]);
    if (res.status === 0) s.nonces.set(k, (s.nonces.get(k) ?? 0n) + 1n);
  });
  return r;
}
const one = (s: Setup, u: Uint8Array, op: Operation) => run(s, [[u, [op]]]).results[0]!.status;
const until = (s: Setup, h: bigint) => { while (s.height < h) run(s, []); };

const propose = (action: ProposalAction, title = 'A proposal', description = 'why'): Operation => ({ type: 'CreateProposal', title, description, action });
const vote = (id: bigint, approve: boolean): Operation => ({ type: 'VoteProposal', proposalId: id, approve });
const execute = (id: bigint): Operation => ({ type: 'ExecuteProposal', proposalId: id });
const cancel = (id: bigint): Operation => ({ type: 'CancelProposal', proposalId: id });
const proposal = (s: Setup, id: bigint) => decodeProposalFields(s.store.get(proposalKey(id))!);
const pay = (to: Uint8Array, amount: bigint): Operation => ({ type: 'Transfer', to, token: NTV, amount });

// Three validators of 1,000 NTV each (addr 0–2); addr 3–9 hold NTV and no stake. Voting period 5 blocks.
const open = () => setup({ votingPeriodBlocks: 5 }, [0, 1, 2]);
const V = [addr(0), addr(1), addr(2)];
const STAKE = 1000n * UNIT;

describe('protocol proposals in the core', () => {
  it('creates a proposal: NO_VOTING_POWER → INVALID_PROPOSAL_TEXT → the action; id, record and event', async () => {
    const s = await open();
    expect(one(s, addr(5), propose({ kind: 'Text' }))).toBe(Status.NO_VOTING_POWER);
    expect(one(s, V[0]!, propose({ kind: 'Text' }, ''))).toBe(Status.INVALID_PROPOSAL_TEXT);
    expect(one(s, V[0]!, propose({ kind: 'Text' }, 'x'.repeat(129)))).toBe(Status.INVALID_PROPOSAL_TEXT);
    expect(one(s, V[0]!, propose({ kind: 'Text' }, 't', 'd'.repeat(4097)))).toBe(Status.INVALID_PROPOSAL_TEXT);
    expect(s.store.get(proposalKey(1n))).toBeUndefined();
    const r = run(s, [[V[0]!, [propose({ kind: 'Text' }, 'Hello', 'world')]]]);
    expect(r.results[0]!.status).toBe(0);
    const p = proposal(s, 1n);
    expect(p.title).toBe('Hello');
    expect(p.description).toBe('world');
    expect(hex(p.proposer)).toBe(hex(V[0]!));
    expect(p.endHeight).toBe(s.height + 5n);
    expect(p.totalStake).toBe(3n * STAKE);
    expect(p.quorumBps).toBe(3340);
    expect(p.thresholdBps).toBe(5000);
    expect(p.state).toBe(0);
    const ev = r.events.find((e) => e.kind === 'ProposalCreated');
    expect(ev).toMatchObject({ kind: 'ProposalCreated', proposalId: 1n, proposalKind: 0, endHeight: s.height + 5n });
    expect(one(s, V[1]!, propose({ kind: 'Text' }))).toBe(0);
    expect(proposal(s, 2n).proposer).toEqual(V[1]);
  });

  it('votes: weight is bonded stake; NOT_FOUND → VOTING_CLOSED → ALREADY_VOTED → NO_VOTING_POWER', async () => {
    const s = await open();
    expect(one(s, V[0]!, propose({ kind: 'Text' }))).toBe(0);
    expect(one(s, V[0]!, vote(9n, true))).toBe(Status.PROPOSAL_NOT_FOUND);
    expect(one(s, addr(5), vote(1n, true))).toBe(Status.NO_VOTING_POWER);
    // a delegator votes with its delegation
    expect(one(s, addr(5), { type: 'Delegate', validator: V[1]!, amount: 250n * UNIT })).toBe(0);
    const r = run(s, [[addr(5), [vote(1n, false)]], [V[0]!, [vote(1n, true)]]]);
    expect(r.results.map((x) => x.status)).toEqual([0, 0]);
    expect(r.events.filter((e) => e.kind === 'ProposalVoted').map((e) => (e as { weight: bigint }).weight)).toEqual([250n * UNIT, STAKE]);
    expect(one(s, V[0]!, vote(1n, false))).toBe(Status.ALREADY_VOTED);
    const p = proposal(s, 1n);
    expect([p.yes, p.no, p.voters]).toEqual([STAKE, 250n * UNIT, 2]);
    expect(decodeProposalVoteFields(s.store.get(proposalVoteKey(1n, addr(5)))!)).toMatchObject({ approve: false, weight: 250n * UNIT });
    until(s, p.endHeight);
    expect(one(s, V[1]!, vote(1n, true))).toBe(Status.VOTING_CLOSED); // height end + 1
  });

  it('a vote cannot be doubled by moving stake: the weight is fixed and the stake unbonds', async () => {
    const s = await open();
    expect(one(s, addr(5), { type: 'Delegate', validator: V[0]!, amount: 500n * UNIT })).toBe(0);
    expect(one(s, V[0]!, propose({ kind: 'Text' }))).toBe(0);
    expect(one(s, addr(5), vote(1n, true))).toBe(0);
    // The stake leaves the delegation only into unbonding (21 days): it cannot reach another account.
    expect(one(s, addr(5), { type: 'Undelegate', validator: V[0]!, amount: 500n * UNIT })).toBe(0);
    const before = ntv(s, addr(5));
    expect(one(s, addr(5), pay(addr(6), before + 1n))).toBe(Status.INSUFFICIENT_BALANCE); // the unbonding 500 NTV are not spendable
    expect(one(s, addr(6), vote(1n, true))).toBe(Status.NO_VOTING_POWER);
    expect(one(s, addr(5), vote(1n, true))).toBe(Status.ALREADY_VOTED);
    expect(proposal(s, 1n).yes).toBe(500n * UNIT);
  });

  it('quorum and threshold decide; execution only after the period, once', async () => {
    const s = await open();
    // p1: one of three equal validators votes yes: 33.3% < 33.4% quorum → rejected
    expect(one(s, V[0]!, propose({ kind: 'Text' }))).toBe(0);
    // p2: two yes, one no → passes; p3: one yes two no → rejected (threshold)
    expect(one(s, V[0]!, propose({ kind: 'Text' }))).toBe(0);
    expect(one(s, V[0]!, propose({ kind: 'Text' }))).toBe(0);
    run(s, [[V[0]!, [vote(1n, true), vote(2n, true), vote(3n, true)]], [V[1]!, [vote(2n, true), vote(3n, false)]], [V[2]!, [vote(2n, false), vote(3n, false)]]]);
    expect(one(s, addr(7), execute(2n))).toBe(Status.VOTING_NOT_ENDED);
    until(s, proposal(s, 3n).endHeight);
    expect(one(s, addr(7), execute(1n))).toBe(Status.PROPOSAL_REJECTED);
    expect(one(s, addr(7), execute(3n))).toBe(Status.PROPOSAL_REJECTED);
    const r = run(s, [[addr(7), [execute(2n)]]]);
    expect(r.results[0]!.status).toBe(0);
    expect(r.events.find((e) => e.kind === 'ProposalExecuted')).toMatchObject({ proposalId: 2n, executor: addr(7) });
    expect(proposal(s, 2n)).toMatchObject({ state: 1, executedHeight: s.height });
    expect(one(s, addr(7), execute(2n))).toBe(Status.PROPOSAL_NOT_EXECUTABLE);
  });

  it('a parameter change applies to ChainParams within its range', async () => {
    const s = await open();
    expect(one(s, V[0]!, propose({ kind: 'ParameterChange', key: 'max_commission_bps', value: 10_001n }))).toBe(Status.INVALID_PARAMETER_VALUE);
    expect(one(s, V[0]!, propose({ kind: 'ParameterChange', key: 'threshold_bps', value: 4999n }))).toBe(Status.INVALID_PARAMETER_VALUE);
    expect(one(s, V[0]!, propose({ kind: 'ParameterChange', key: 'min_stake', value: 1n << 64n }))).toBe(Status.INVALID_PARAMETER_VALUE);
    expect(one(s, V[0]!, propose({ kind: 'ParameterChange', key: 'max_commission_bps', value: 3000n }))).toBe(0);
    expect(one(s, V[0]!, propose({ kind: 'ParameterChange', key: 'voting_period_blocks', value: 7n }))).toBe(0);
    run(s, [[V[0]!, [vote(1n, true), vote(2n, true)]], [V[1]!, [vote(1n, true), vote(2n, true)]]]);
    until(s, proposal(s, 2n).endHeight);
    expect(chainParams(s.store).maxCommissionBps).toBe(5000);
    const r = run(s, [[addr(7), [execute(1n), execute(2n)]]]);
    expect(r.results[0]!.status).toBe(0);
    expect(r.events.filter((e) => e.kind === 'ChainParamChanged')).toMatchObject([
      { proposalId: 1n, key: 'max_commission_bps', oldValue: 5000n, newValue: 3000n },
      { proposalId: 2n, key: 'voting_period_blocks', oldValue: 5n, newValue: 7n },
    ]);
    const params = chainParams(s.store);
    expect(params.maxCommissionBps).toBe(3000);
    expect(params.votingPeriodBlocks).toBe(7);
    // The core enforces the new value at once: a commission above it is refused.
    expect(one(s, V[0]!, { type: 'SetCommission', rate: 3001 })).toBe(Status.COMMISSION_TOO_HIGH);
    // New proposals take the new period; the proposals already running kept theirs.
    expect(one(s, V[0]!, propose({ kind: 'Text' }))).toBe(0);
    expect(proposal(s, 3n).endHeight).toBe(s.height + 7n);
  });

  it('a treasury spend moves NTV from 0x00…03, never above its balance', async () => {
    const s = await open();
    expect(one(s, addr(5), pay(TREASURY, 100n * UNIT))).toBe(0);
    const t = ntv(s, TREASURY); // the 100 NTV and the block emission's treasury share so far
    const spend = (t * 6n) / 10n;
    expect(one(s, V[0]!, propose({ kind: 'TreasurySpend', recipient: addr(8), amount: 0n }))).toBe(Status.ZERO_AMOUNT);
    expect(one(s, V[0]!, propose({ kind: 'TreasurySpend', recipient: addr(8), amount: t + 1000n * UNIT }))).toBe(Status.TREASURY_INSUFFICIENT);
    expect(one(s, V[0]!, propose({ kind: 'TreasurySpend', recipient: addr(8), amount: spend }))).toBe(0);
    expect(one(s, V[0]!, propose({ kind: 'TreasurySpend', recipient: addr(8), amount: spend }))).toBe(0);
    run(s, [[V[0]!, [vote(1n, true), vote(2n, true)]], [V[1]!, [vote(1n, true), vote(2n, true)]]]);
    until(s, proposal(s, 2n).endHeight);
    const before = ntv(s, addr(8));
    const r = run(s, [[addr(7), [execute(1n)]]]);
    expect(r.results[0]!.status).toBe(0);
    expect(r.events.find((e) => e.kind === 'Transfer' && hex(e.from) === hex(TREASURY))).toMatchObject({ to: addr(8), amount: spend });
    expect(ntv(s, addr(8)) - before).toBe(spend);
    // the second spend no longer fits: refused, nothing changes, the proposal stays passed
    const left = ntv(s, TREASURY);
    expect(left).toBeLessThan(spend);
    expect(one(s, addr(7), execute(2n))).toBe(Status.TREASURY_INSUFFICIENT);
    expect(proposal(s, 2n).state).toBe(0);
    expect(ntv(s, addr(8)) - before).toBe(spend);
  });

  it('safety levels: a contract and a collection record; level 0 clears', async () => {
    const s = await open();
    expect(one(s, V[0]!, propose({ kind: 'ContractSafety', chain: 'ethereum', contract: '0xabc', level: 4 }))).toBe(Status.INVALID_SAFETY_TARGET);
    expect(one(s, V[0]!, propose({ kind: 'ContractSafety', chain: '', contract: '0xabc', level: 1 }))).toBe(Status.INVALID_SAFETY_TARGET);
    expect(one(s, V[0]!, propose({ kind: 'CollectionSafety', collection: addr(77), level: 1 }))).toBe(Status.INVALID_SAFETY_TARGET); // no such collection
    expect(one(s, V[0]!, propose({ kind: 'ContractSafety', chain: 'ethereum', contract: '0xabc', level: 3 }))).toBe(0);
    expect(one(s, V[0]!, propose({ kind: 'ContractSafety', chain: 'ethereum', contract: '0xabc', level: 0 }))).toBe(0);
    run(s, [[V[0]!, [vote(1n, true), vote(2n, true)]], [V[1]!, [vote(1n, true), vote(2n, true)]]]);
    until(s, proposal(s, 2n).endHeight);
    const target = contractSafetyTarget('ethereum', '0xabc');
    const r = run(s, [[addr(7), [execute(1n)]]]);
    expect(r.events.find((e) => e.kind === 'SafetyLevelSet')).toMatchObject({ proposalId: 1n, target, targetKind: 'contract', level: 3 });
    expect(decodeContractSafetyFields(s.store.get(contractSafetyKey(target))!)).toMatchObject({ level: 3, chain: 'ethereum', contract: '0xabc', proposalId: 1n });
    expect(one(s, addr(7), execute(2n))).toBe(0);
    expect(s.store.get(contractSafetyKey(target))).toBeUndefined();
    expect(s.store.get(collectionSafetyKey(addr(77)))).toBeUndefined();
  });

  it('carried operations run as GOVERNANCE; a failing one fails the bundle and the proposal stays passed', async () => {
    const s = await open();
    const carried: Operation[] = [pay(addr(8), 5n * UNIT), { type: 'CreateToken', name: 'Gov Dollar', symbol: 'GUSD', decimals: 6, supply: 1_000_000n, owner: GOVERNANCE }];
    expect(one(s, V[0]!, propose({ kind: 'CreateStablecoin', operations: carried }))).toBe(0);
    run(s, [[V[0]!, [vote(1n, true)]], [V[1]!, [vote(1n, true)]]]);
    until(s, proposal(s, 1n).endHeight);
    // GOVERNANCE holds nothing yet: the Transfer fails, the whole bundle reverts
    expect(one(s, addr(7), execute(1n))).toBe(Status.INSUFFICIENT_BALANCE);
    expect(proposal(s, 1n).state).toBe(0);
    expect(one(s, addr(5), pay(GOVERNANCE, 10n * UNIT))).toBe(0);
    const before = ntv(s, addr(8));
    const r = run(s, [[addr(7), [execute(1n)]]]);
    expect(r.results[0]!.status).toBe(0);
    expect(ntv(s, addr(8)) - before).toBe(5n * UNIT);
    expect(r.events.find((e) => e.kind === 'Transfer' && hex(e.from) === hex(GOVERNANCE))).toBeDefined();
    expect(r.events.find((e) => e.kind === 'TokenCreated')).toMatchObject({ creator: GOVERNANCE, owner: GOVERNANCE, supply: 1_000_000n });
    expect(r.events.at(-1)).toMatchObject({ kind: 'ProposalExecuted', proposalId: 1n });
  });

  it('a CreateStablecoin proposal creates an STD-8 stablecoin that no account may create directly (docs/stablecoins.md "Creation")', async () => {
    const s = await open();
    const owner = addr(8);
    const create: Operation = {
      type: 'CreateStableToken', name: 'Gov Dollar', symbol: 'GUSD', decimals: 6, currency: 'USD', issuer: 'Gov Issuer',
      owner, masterMinter: owner, pauser: owner, blacklister: owner, guardians: new Uint8Array(0), originMappings: new Uint8Array(4),
      supplyCap: 0n, quantumRequired: false, mintThreshold: 0n, requiredSigners: 0, cosigners: new Uint8Array(0), timelock: 0n, epochLength: 0n,
    };
    // a validator cannot send it itself: only GOVERNANCE, which a passed proposal acts as
    expect(one(s, V[0]!, create)).toBe(Status.NOT_GOVERNANCE);
    expect(one(s, V[0]!, propose({ kind: 'CreateStablecoin', operations: [create] }))).toBe(0);
    run(s, [[V[0]!, [vote(1n, true)]], [V[1]!, [vote(1n, true)]]]);
    until(s, proposal(s, 1n).endHeight);
    const r = run(s, [[addr(7), [execute(1n)]]]);
    expect(r.results[0]!.status).toBe(0);
    const created = r.events.find((e) => e.kind === 'StableCreated');
    expect(created).toMatchObject({ owner, masterMinter: owner, pauser: owner, blacklister: owner });
    expect(s.store.get(stableKey((created as { mint: Uint8Array }).mint))).toBeDefined();
    expect(proposal(s, 1n).state).toBe(1);
  });

  it('cancel: proposer only, while voting; a later failing operation reverts a proposal op', async () => {
    const s = await open();
    expect(one(s, V[0]!, propose({ kind: 'Text' }))).toBe(0);
    expect(one(s, V[1]!, cancel(1n))).toBe(Status.NOT_PROPOSER);
    expect(one(s, V[0]!, cancel(2n))).toBe(Status.PROPOSAL_NOT_FOUND);
    const r = run(s, [[V[0]!, [cancel(1n)]]]);
    expect(r.results[0]!.status).toBe(0);
    expect(r.events.find((e) => e.kind === 'ProposalCancelled')).toMatchObject({ proposalId: 1n, proposer: V[0] });
    expect(proposal(s, 1n).state).toBe(2);
    expect(one(s, V[0]!, cancel(1n))).toBe(Status.PROPOSAL_NOT_CANCELLABLE);
    expect(one(s, V[1]!, vote(1n, true))).toBe(Status.VOTING_CLOSED);
    until(s, proposal(s, 1n).endHeight);
    expect(one(s, addr(7), execute(1n))).toBe(Status.PROPOSAL_NOT_EXECUTABLE);
    // a vote followed by a failing transfer in one bundle: the vote is reverted
    expect(one(s, V[0]!, propose({ kind: 'Text' }))).toBe(0);
    expect(run(s, [[V[1]!, [vote(2n, true), pay(addr(9), 1n << 100n)]]]).results[0]!.status).toBe(Status.INSUFFICIENT_BALANCE);
    expect(proposal(s, 2n).voters).toBe(0);
    expect(s.store.get(proposalVoteKey(2n, V[1]!))).toBeUndefined();
  });

  it('gas: fixed per operation, CreateProposal per stored byte', async () => {
    const s = await open();
    const r = run(s, [[V[0]!, [propose({ kind: 'Text' }, 'abc', 'de')]], [V[1]!, [vote(1n, true)]], [V[0]!, [cancel(1n)]]]);
    expect(r.results.map((x) => x.gasUsed)).toEqual([5000n + 30000n + 3n * (3n + 2n + 1n), 5000n + 25000n, 5000n + 20000n]);
  });
});
