// DAOs over JSON-RPC against a running node (issue 22 item 5; docs/dao.md): a DAO
// whose treasury pays after a passed vote and its execution delay, a vote that cannot be doubled
// by moving the locked tokens to another account, borrowed tokens without weight, and every bad
// input answered with a clear error and no state change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { TestNode } from './harness.js';
import { systemAddressHex } from './bundles.js';
import { encodeOps, W } from '../../testkit/encode.js';
import { daoAddress, decodeDaoText, encodeDao } from '../../src/domains/dao/reader.js';

/** The DAO's account in 0x form: svc_transfer and svc_getBalance take accounts, the DAO's Nx7… names the same 32 bytes. */
const account = (nx7: string) => '0x' + Buffer.from(decodeDaoText(nx7)!).toString('hex');

const NTV = 1_000_000_000n;
const RICH = systemAddressHex(7);
const [alice, bob, carol, dave] = Array.from({ length: 4 }, () => '0x' + randomBytes(32).toString('hex'));
const PERIOD = 12;
const DELAY = 3;

interface Receipt { status: string; block_height: number; events: Array<Record<string, unknown> & { type: string }> }
interface DaoProposal { status: string; yes: string; no: string; voters: number; end_height: number; executable_height: number; executed_height: number | null; operations?: Array<{ type: string }> }

let node: TestNode;
let mint: string;
let dao: string;
let escrow: string;
const balance = async (address: string, token: string) => BigInt(await node.result<string>('svc_getBalance', [address, token]));
const config = { quorum_bps: 2000, threshold_bps: 5000, voting_period: PERIOD, execution_delay: DELAY, proposal_threshold: '100' };
const getProposal = (id: string) => node.result<DaoProposal>('svc_getDaoProposal', [dao, id]);
/** hex of a Vec<Operation> holding one Transfer of NTV to `to` (docs/bundle-format.md "Operation"). */
function payOps(to: string, amount: bigint): string {
  const w = new W();
  encodeOps(w, [{ kind: 'transfer', to: Uint8Array.from(Buffer.from(to.slice(2), 'hex')), token: new Uint8Array(32), amount }]);
  return '0x' + Buffer.from(w.bytes()).toString('hex');
}

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
  for (const who of [alice, bob, carol, dave]) await node.result('svc_transfer', [RICH, who, 'NTV', (1000n * NTV).toString()]);
  const created = await node.result<Receipt>('svc_createToken', ['Votes', 'VOTES', 0, '10000', alice]);
  mint = String(created.events.find((e) => e.type === 'TokenCreated')!.mint);
  await node.result('svc_transfer', [alice, bob, mint, '3000']);
  await node.result('svc_transfer', [alice, carol, mint, '2000']);
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

describe('DAOs over JSON-RPC', () => {
  it('creates a DAO and reads it back', async () => {
    const r = await node.result<Receipt>('svc_createDao', ['Grants', mint, config, alice]);
    const ev = r.events.find((e) => e.type === 'DaoCreated')!;
    dao = String(ev.dao_address);
    expect(dao).toMatch(/^Nx7/);
    const d = await node.result<{ name: string; token_mint: string; escrow: string; voting_period: number; proposal_count: number }>('svc_getDao', [dao]);
    expect(d).toMatchObject({ name: 'Grants', token_mint: mint, voting_period: PERIOD, proposal_count: 0 });
    escrow = d.escrow;
    const list = await node.result<Array<{ dao_address: string }>>('svc_listDaos', [10]);
    expect(list[0]!.dao_address).toBe(dao);
  });

  it('a passed vote spends from the treasury after the delay; the locked tokens cannot vote twice', async () => {
    await node.result('svc_transfer', [RICH, account(dao), 'NTV', (50n * NTV).toString()]); // fund the treasury
    const r = await node.result<Receipt>('svc_daoPropose', [dao, 'Pay Dave', 'for the audit', 'operations', alice, payOps(dave, 20n * NTV)]);
    const id = String(r.events.find((e) => e.type === 'DaoProposal')!.proposal_id);
    expect(id).toBe('1');
    const v = await node.result<Receipt>('svc_daoVote', [dao, id, 'yes', bob]);
    expect(v.events.find((e) => e.type === 'Transfer' && e.to === escrow && e.amount === '3000')).toBeDefined();
    expect(await balance(bob, mint)).toBe(0n);
    expect(await balance(escrow, mint)).toBe(3000n);
    // Bob cannot move the locked 3,000 to Carol to have them counted again
    expect((await node.rpcError('svc_transfer', [bob, carol, mint, '3000'])).data).toMatchObject({ status: 'INSUFFICIENT_BALANCE' });
    expect((await node.rpcError('svc_daoVote', [dao, id, 'yes', bob])).data).toMatchObject({ status: 'ALREADY_VOTED' });
    await node.result('svc_daoVote', [dao, id, true, carol]);
    let p = await getProposal(id);
    expect(p).toMatchObject({ status: 'voting', yes: '5000', no: '0', voters: 2 });
    // borrowed tokens: an allowance from Alice gives Dave no weight
    await node.result('svc_approve', [mint, dave, '5000', alice]);
    expect((await node.rpcError('svc_daoVote', [dao, id, 'yes', dave])).data).toMatchObject({ status: 'NO_VOTING_POWER' });
    expect((await node.rpcError('svc_daoUnlock', [dao, id, bob])).data).toMatchObject({ status: 'VOTE_STILL_LOCKED' });
    expect((await node.rpcError('svc_daoExecute', [dao, id, dave])).data).toMatchObject({ status: 'VOTING_NOT_ENDED' });
    expect((await node.rpcError('svc_daoCancel', [dao, id, bob])).data).toMatchObject({ status: 'NOT_PROPOSER' });
    await node.waitForHeight(p.end_height + 1, 30_000);
    expect((await node.rpcError('svc_daoVote', [dao, id, 'no', alice])).data).toMatchObject({ status: 'VOTING_CLOSED' });
    p = await getProposal(id);
    expect(p.status).toBe('passed');
    const head = await node.result<number>('svc_blockNumber').catch(() => 0);
    if (head < p.executable_height - 1) {
      expect((await node.rpcError('svc_daoExecute', [dao, id, dave])).data).toMatchObject({ status: 'EXECUTION_DELAY_PENDING' });
    }
    await node.waitForHeight(p.executable_height, 30_000);
    const before = await balance(dave, 'NTV');
    const ex = await node.result<Receipt>('svc_daoExecute', [dao, id, carol]);
    expect(ex.events.find((e) => e.type === 'Transfer' && e.amount === (20n * NTV).toString())).toBeDefined();
    expect(await balance(dave, 'NTV')).toBe(before + 20n * NTV);
    expect(await balance(account(dao), 'NTV')).toBe(30n * NTV);
    expect((await getProposal(id)).status).toBe('executed');
    expect((await node.rpcError('svc_daoExecute', [dao, id, carol])).data).toMatchObject({ status: 'PROPOSAL_NOT_EXECUTABLE' });
    await node.result('svc_daoUnlock', [dao, id, bob]);
    expect(await balance(bob, mint)).toBe(3000n);
    expect((await node.rpcError('svc_daoUnlock', [dao, id, bob])).data).toMatchObject({ status: 'NO_LOCKED_VOTE' });
    await node.result('svc_daoUnlock', [dao, id, carol]);
  }, 60_000);

  it('bad input: clear errors, nothing changes', async () => {
    const unknown = 'Nx7' + 'z'.repeat(10);
    expect((await node.rpcError('svc_getDao', [unknown])).code).toBe(-32602);
    const other = (await node.result<Array<{ dao_address: string }>>('svc_listDaos', [])).length;
    const absent = encodeDao(daoAddress(999n)); // well-formed, never created
    const e = await node.rpcError('svc_getDao', [absent]);
    expect(e.code).toBe(-32003);
    expect((await node.rpcError('svc_daoVote', [absent, '1', 'yes', bob])).data).toMatchObject({ status: 'DAO_NOT_FOUND' });
    expect((await node.rpcError('svc_daoExecute', [absent, '1', bob])).data).toMatchObject({ status: 'DAO_NOT_FOUND' });
    expect((await node.rpcError('svc_getDaoProposal', [absent, '1'])).code).toBe(-32003);
    expect((await node.rpcError('svc_getDaoProposal', [dao, '99'])).code).toBe(-32003);
    expect((await node.rpcError('svc_getDaoProposal', [dao, '0'])).code).toBe(-32602);
    expect((await node.rpcError('svc_daoVote', [dao, '99', 'yes', bob])).data).toMatchObject({ status: 'PROPOSAL_NOT_FOUND' });
    expect((await node.rpcError('svc_daoVote', [dao, '1', 'maybe', bob])).code).toBe(-32602);
    expect((await node.rpcError('svc_createDao', ['X', 'NTV', config, alice])).data).toMatchObject({ status: 'INVALID_DAO_CONFIG' });
    expect((await node.rpcError('svc_createDao', ['X', mint, { ...config, threshold_bps: 4000 }, alice])).data).toMatchObject({ status: 'INVALID_DAO_CONFIG' });
    expect((await node.rpcError('svc_createDao', ['X', 'NOPE', config, alice])).message).toMatch(/unknown token/);
    expect((await node.rpcError('svc_daoPropose', [dao, 't', 'd', 'spend', alice])).message).toMatch(/proposal_type/);
    expect((await node.rpcError('svc_daoPropose', [dao, 't', 'd', 'operations', alice])).message).toMatch(/operations/);
    expect((await node.rpcError('svc_daoPropose', [dao, 't', 'd', 'text', dave])).data).toMatchObject({ status: 'BELOW_PROPOSAL_THRESHOLD' });
    // a text proposal the proposer cancels; then the vote is closed and the voter unlocks at once
    const r = await node.result<Receipt>('svc_daoPropose', [dao, 'Signal', 'd', 'text', alice]);
    const id = String(r.events.find((e) => e.type === 'DaoProposal')!.proposal_id);
    await node.result('svc_daoVote', [dao, id, 'no', carol]);
    expect((await node.rpcError('svc_daoCancel', [dao, id, bob])).data).toMatchObject({ status: 'NOT_PROPOSER' });
    await node.result('svc_daoCancel', [dao, id, alice]);
    expect((await getProposal(id)).status).toBe('cancelled');
    expect((await node.rpcError('svc_daoVote', [dao, id, 'yes', bob])).data).toMatchObject({ status: 'VOTING_CLOSED' });
    await node.result('svc_daoUnlock', [dao, id, carol]);
    expect(await balance(carol, mint)).toBe(2000n);
    expect((await node.result<Array<unknown>>('svc_listDaos', [])).length).toBe(other);
  }, 60_000);

  it('is refused on mainnet as an unsigned convenience method', async () => {
    const main = await TestNode.start({ args: ['--network', 'mainnet'] });
    try {
      const e = await main.call('svc_createDao', ['Grants', 'NTV', config, alice]);
      expect(e.error?.code).toBe(-32004);
    } finally {
      await main.stop();
    }
  }, 60_000);
});
