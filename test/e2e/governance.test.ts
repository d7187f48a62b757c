// Protocol proposals over JSON-RPC against a running node (spec §4.14, §8; docs/governance.md):
// every method, the proposal types, votes weighted by bonded stake, execution after the voting
// period, and every bad input answered with a clear error and no state change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { TestNode } from './harness.js';
import { bundleFor, signedHex, systemAddressHex } from './bundles.js';
import { Signer } from '../../src/codec/keys.js';
import { bundleGasOf } from '../../src/client/gas.js';
import type { Operation } from '../../src/codec/bundle.js';
import { encodeOps } from '../../testkit/encode.js';
import { W } from '../../testkit/encode.js';

const NTV = 1_000_000_000n;
const RICH = systemAddressHex(7);
const TREASURY = systemAddressHex(3);
const GOVERNANCE = systemAddressHex(9);
const PERIOD = 5;
const alice = '0x' + randomBytes(32).toString('hex');
const bob = '0x' + randomBytes(32).toString('hex');

interface Receipt { status: string; status_name: string; block_height: number; events: Array<Record<string, unknown> & { type: string }> }
interface Proposal {
  proposal_id: string; proposer: string; proposal_type: string; status: string; title: string; description: string; end_height: number;
  yes: string; no: string; voters: number; total_stake: string; executed_height: number | null; parameter_key?: string; parameter_value?: string;
  treasury_recipient?: string; treasury_amount?: string; safety_chain?: string; safety_level?: string; operations?: Array<{ type: string }>;
}

let dir: string;
let node: TestNode;
let own: string; // the node's validator account: the only bonded stake at genesis
const balance = async (address: string) => BigInt(await node.result<string>('svc_getBalance', [address, 'NTV']));
const propose = (from: string, type: string, ...rest: unknown[]) => node.result<Receipt>('svc_createProposal', [from, type, `${type} proposal`, 'because', ...rest]);
const idOf = (r: Receipt) => String(r.events.find((e) => e.type === 'ProposalCreated')!.proposal_id);
const get = (id: string) => node.result<Proposal>('svc_getProposal', [id]);
async function passAndWait(id: string) {
  await node.result<Receipt>('svc_voteProposal', [own, id, true]);
  await node.waitForHeight((await get(id)).end_height + 1, 30_000);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ntv-governance-'));
  const params = join(dir, 'params.json');
  await writeFile(params, JSON.stringify({ voting_period_blocks: PERIOD }));
  node = await TestNode.start({ args: ['--block-time', '1', '--chain-params', params] });
  own = (await node.result<{ validator: string }>('svc_version')).validator;
  for (const who of [alice, bob, own]) await node.result('svc_transfer', [RICH, who, 'NTV', (10_000n * NTV).toString()]);
}, 60_000);

afterAll(async () => {
  await node?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('protocol proposals', () => {
  it('a parameter change passes on the validator\'s stake and the core applies it', async () => {
    const info = await node.result<{ voting_period_blocks: number; max_commission_bps: number }>('svc_stakingInfo');
    expect(info.voting_period_blocks).toBe(PERIOD);
    const r = await propose(own, 'parameter_change', 'max_commission_bps', '3000');
    expect(r.status).toBe('success');
    const id = idOf(r);
    let p = await get(id);
    expect(p).toMatchObject({ proposal_type: 'parameter_change', status: 'voting', parameter_key: 'max_commission_bps', parameter_value: '3000', voters: 0 });
    expect(p.end_height).toBe(r.block_height + PERIOD);
    const early = await node.rpcError('svc_executeProposal', [alice, id]);
    expect(early.data).toMatchObject({ status: 'VOTING_NOT_ENDED' });
    const v = await node.result<Receipt>('svc_voteProposal', [own, id, true]);
    expect(v.events.find((e) => e.type === 'ProposalVoted')).toMatchObject({ proposal_id: id, approve: true, weight: p.total_stake });
    expect((await node.rpcError('svc_voteProposal', [own, id, false])).data).toMatchObject({ status: 'ALREADY_VOTED' });
    await node.waitForHeight(p.end_height + 1, 30_000);
    expect((await get(id)).status).toBe('passed');
    const e = await node.result<Receipt>('svc_executeProposal', [alice, id]);
    expect(e.events.map((x) => x.type)).toEqual(expect.arrayContaining(['ChainParamChanged', 'ProposalExecuted']));
    expect(e.events.find((x) => x.type === 'ChainParamChanged')).toMatchObject({ key: 'max_commission_bps', old_value: '5000', new_value: '3000' });
    p = await get(id);
    expect(p).toMatchObject({ status: 'executed', executed_height: e.block_height });
    expect((await node.result<{ max_commission_bps: number }>('svc_stakingInfo')).max_commission_bps).toBe(3000);
    expect((await node.rpcError('svc_executeProposal', [alice, id])).data).toMatchObject({ status: 'PROPOSAL_NOT_EXECUTABLE' });
    expect((await node.rpcError('svc_voteProposal', [own, id, true])).data).toMatchObject({ status: 'VOTING_CLOSED' });
  }, 60_000);

  it('a treasury spend pays from 0x00…03 after a passed vote', async () => {
    const id = idOf(await propose(own, 'treasury_spend', null, null, bob, (1n * NTV / 100n).toString()));
    await passAndWait(id);
    const before = await balance(bob);
    const e = await node.result<Receipt>('svc_executeProposal', [bob, id]);
    expect(e.events.find((x) => x.type === 'Transfer' && x.to !== undefined && String(x.from).length > 0 && x.amount === (NTV / 100n).toString())).toBeDefined();
    const fee = BigInt(String((e as unknown as { fee: string }).fee));
    expect(await balance(bob)).toBe(before + NTV / 100n - fee);
  }, 60_000);

  it('a proposal carrying operations runs them as GOVERNANCE 0x00…09', async () => {
    await node.result('svc_transfer', [RICH, GOVERNANCE, 'NTV', (5n * NTV).toString()]);
    const w = new W();
    encodeOps(w, [{ kind: 'transfer', to: Uint8Array.from(Buffer.from(alice.slice(2), 'hex')), token: new Uint8Array(32), amount: 2n * NTV }]);
    const hex = '0x' + Buffer.from(w.bytes()).toString('hex');
    const r = await propose(own, 'create_stablecoin', null, null, null, null, null, null, null, null, hex);
    const id = idOf(r);
    expect((await get(id)).operations).toMatchObject([{ type: 'Transfer', amount: (2n * NTV).toString() }]);
    await passAndWait(id);
    const before = await balance(alice);
    await node.result<Receipt>('svc_executeProposal', [bob, id]);
    expect(await balance(alice)).toBe(before + 2n * NTV);
    expect(await balance(GOVERNANCE)).toBe(3n * NTV);
  }, 60_000);

  it('a contract safety level and a text proposal; cancel by the proposer only', async () => {
    const s = idOf(await propose(own, 'contract_safety', null, null, null, null, 'ethereum', '0xdAC17F958D2ee523a2206206994597C13D831ec7', 'verified'));
    expect(await get(s)).toMatchObject({ safety_chain: 'ethereum', safety_level: 'verified' });
    const t = idOf(await propose(own, 'text'));
    expect((await node.rpcError('svc_cancelProposal', [alice, t])).data).toMatchObject({ status: 'NOT_PROPOSER' });
    const c = await node.result<Receipt>('svc_cancelProposal', [own, t]);
    expect(c.events.find((e) => e.type === 'ProposalCancelled')).toMatchObject({ proposal_id: t });
    expect((await get(t)).status).toBe('cancelled');
    expect((await node.rpcError('svc_cancelProposal', [own, t])).data).toMatchObject({ status: 'PROPOSAL_NOT_CANCELLABLE' });
    await passAndWait(s);
    const e = await node.result<Receipt>('svc_executeProposal', [own, s]);
    expect(e.events.find((x) => x.type === 'SafetyLevelSet')).toMatchObject({ target_kind: 'contract', level: 'verified' });
    const cancelled = await node.result<Proposal[]>('svc_listProposals', ['cancelled']);
    expect(cancelled.map((p) => p.proposal_id)).toEqual([t]);
    const all = await node.result<Proposal[]>('svc_listProposals', []);
    expect(all.map((p) => p.proposal_id)).toEqual([...all.map((p) => p.proposal_id)].sort((a, b) => Number(b) - Number(a)));
    expect(all.length).toBeGreaterThanOrEqual(5);
  }, 60_000);

  it('a proposal without quorum is rejected: alice\'s small delegation alone does not pass it', async () => {
    await node.result('svc_delegate', [own, (10n * NTV).toString(), alice]);
    const id = idOf(await propose(alice, 'text'));
    await node.result<Receipt>('svc_voteProposal', [alice, id, true]);
    await node.waitForHeight((await get(id)).end_height + 1, 30_000);
    expect((await get(id)).status).toBe('rejected');
    expect((await node.rpcError('svc_executeProposal', [alice, id])).data).toMatchObject({ status: 'PROPOSAL_REJECTED' });
  }, 60_000);
});

describe('bad input: a clear error and no state change', () => {
  it('refuses unknown types, missing and malformed params, and what the core refuses', async () => {
    const count = (await node.result<Proposal[]>('svc_listProposals', [])).length;
    const unknown = await node.rpcError('svc_createProposal', [own, 'make_me_rich', 't', 'd']);
    expect(unknown.code).toBe(-32602);
    expect(unknown.message).toMatch(/proposal_type/);
    const missing = await node.rpcError('svc_createProposal', [own, 'parameter_change', 't', 'd']);
    expect(missing.code).toBe(-32602);
    expect(missing.message).toMatch(/parameter_key/);
    expect((await node.rpcError('svc_createProposal', [own, 'parameter_change', 't', 'd', 'block_size', '1'])).message).toMatch(/parameter_key/);
    expect((await node.rpcError('svc_createProposal', [own, 'treasury_spend', 't', 'd', null, null, bob])).message).toMatch(/treasury_amount/);
    expect((await node.rpcError('svc_createProposal', [own, 'contract_safety', 't', 'd', null, null, null, null, 'ethereum', '0xabc', 'dangerous'])).message).toMatch(/safety_level/);
    expect((await node.rpcError('svc_createProposal', [own, 'create_stablecoin', 't', 'd', null, null, null, null, null, null, null, null, '0x00000000'])).message).toMatch(/operations/);
    const range = await node.rpcError('svc_createProposal', [own, 'parameter_change', 't', 'd', 'max_commission_bps', '10001']);
    expect(range.code).toBe(-32002);
    expect(range.data).toMatchObject({ status: 'INVALID_PARAMETER_VALUE' });
    const treasury = await balance(TREASURY);
    expect((await node.rpcError('svc_createProposal', [own, 'treasury_spend', 't', 'd', null, null, bob, (treasury + 1000n * NTV).toString()])).data).toMatchObject({ status: 'TREASURY_INSUFFICIENT' });
    expect((await node.rpcError('svc_createProposal', [bob, 'text', 't', 'd'])).data).toMatchObject({ status: 'NO_VOTING_POWER' });
    expect((await node.rpcError('svc_createProposal', [own, 'text', '', 'd'])).data).toMatchObject({ status: 'INVALID_PROPOSAL_TEXT' });
    expect((await node.rpcError('svc_voteProposal', [own, '999', true])).data).toMatchObject({ status: 'PROPOSAL_NOT_FOUND' });
    expect((await node.rpcError('svc_getProposal', ['999'])).code).toBe(-32003);
    expect((await node.rpcError('svc_getProposal', ['0'])).code).toBe(-32602);
    expect((await node.rpcError('svc_getProposal', ['abc'])).code).toBe(-32602);
    expect((await node.rpcError('svc_listProposals', ['won'])).message).toMatch(/status/);
    expect((await node.rpcError('svc_voteProposal', [own, '1', 'yes'])).code).toBe(-32602);
    expect((await node.result<Proposal[]>('svc_listProposals', [])).length).toBe(count);
  }, 60_000);
});

// On mainnet the convenience methods are refused (-32004); the same operations arrive as signed
// bundles through svc_submitBundle, here signed with the validator's own key (its account is
// derived from that key, facts.md "Addresses"). Gas price 0: mainnet has no faucet.
describe('on mainnet: signed bundles only', () => {
  let main: TestNode;
  let mainDir: string;
  const seed = randomBytes(32);
  const validator = Signer.fromSeed(seed);
  beforeAll(async () => {
    mainDir = await mkdtemp(join(tmpdir(), 'ntv-governance-main-'));
    await writeFile(join(mainDir, 'params.json'), JSON.stringify({ voting_period_blocks: PERIOD }));
    await writeFile(join(mainDir, 'v.key'), seed.toString('hex'));
    main = await TestNode.start({ args: ['--network', 'mainnet', '--block-time', '1', '--gas-price', '0', '--chain-params', join(mainDir, 'params.json'), '--validator-key', join(mainDir, 'v.key')] });
  }, 60_000);
  afterAll(async () => {
    await main?.stop();
    await rm(mainDir, { recursive: true, force: true });
  });

  it('refuses svc_createProposal and accepts the signed CreateProposal, VoteProposal and ExecuteProposal', async () => {
    expect((await main.result<{ validator: string }>('svc_version')).validator).toBe(validator.address);
    const refused = await main.call('svc_createProposal', [validator.address, 'text', 't', 'd']);
    expect(refused.error?.code).toBe(-32004);
    const send = async (nonce: bigint, op: Operation) => main.result<Receipt>('svc_submitBundle', [
      signedHex(validator, bundleFor(validator, nonce, [op], { maxGas: bundleGasOf([op]), senderPubkey: nonce === 0n ? validator.publicKey : undefined })),
    ]);
    const created = await send(0n, { type: 'CreateProposal', title: 'Signed', description: 'on mainnet', action: { kind: 'ParameterChange', key: 'quorum_bps', value: 4000n } });
    expect(created.status).toBe('success');
    const id = String(created.events.find((e) => e.type === 'ProposalCreated')!.proposal_id);
    expect((await send(1n, { type: 'VoteProposal', proposalId: BigInt(id), approve: true })).status).toBe('success');
    const p = await main.result<Proposal>('svc_getProposal', [id]);
    await main.waitForHeight(p.end_height + 1, 30_000);
    const executed = await send(2n, { type: 'ExecuteProposal', proposalId: BigInt(id) });
    expect(executed.events.find((e) => e.type === 'ChainParamChanged')).toMatchObject({ key: 'quorum_bps', old_value: '3340', new_value: '4000' });
    expect((await main.result<{ quorum_bps: number }>('svc_stakingInfo')).quorum_bps).toBe(4000);
  }, 60_000);
});
