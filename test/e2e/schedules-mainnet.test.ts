// Schedules are chain state (docs/schedules.md): on mainnet svc_submitIntent
// refuses a Recurring intent (it would send an unsigned CreateSchedule bundle); the wallet signs the
// CreateSchedule bundle svc_getExecutionPlan shows (test/e2e/intents.test.ts; this chain has no
// pools) or builds it with the client helper, and sends it with svc_submitBundle; the core runs it, svc_getIntentStatus reads the record and its runs,
// and CancelSchedule is owner-only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Signer } from '../../src/codec/keys.js';
import { cancelScheduleOp, createScheduleGas, createScheduleOp } from '../../src/client/wallet.js';
import { TestNode } from './harness.js';
import { bundleFor, signedHex, systemAddressHex, unsignedHex } from './bundles.js';

// Gas price 0: the fresh signing accounts hold nothing, and mainnet has no faucet.
const ARGS = ['--network', 'mainnet', '--block-time', '1', '--gas-price', '0'];
let node: TestNode;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'ntv-schedules-'));
  node = await TestNode.start({ dataDir, args: ARGS });
});

afterAll(async () => {
  await node?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

type Receipt = { status: string; block_height: number; events: Array<Record<string, unknown>> };
type ScheduleStatus = {
  status: string; schedule_state: string; kind: string; sender: string; runs_done: number; runs_left: number; next_due: number | null;
  runs: Array<{ run: number; status: string; block_height: number; gas_used: number }>; operations: Array<{ type: string }>;
};
const recurring = JSON.stringify({ goal: 'Recurring', interval_seconds: 3600, runs: 2, then: { goal: 'Swap', amount_in: '1', token_in: 'NTV', token_out: 'USDC' } });

describe('schedules on mainnet (signed CreateSchedule bundles only)', () => {
  const owner = Signer.generate();
  const other = Signer.generate();

  it('svc_submitIntent refuses a Recurring intent (an unsigned CreateSchedule); an unsigned CreateSchedule bundle is refused too', async () => {
    const res = await node.call('svc_submitIntent', [recurring, systemAddressHex(1)]);
    expect(res.error).toMatchObject({ code: -32004 });
    expect(res.error!.message).toMatch(/svc_submitBundle/);
    const op = createScheduleOp({ kind: 'Recurring', intervalSeconds: 60n, runs: 1, firstRun: 0n }, [{ type: 'RegisterName', name: 'sched-unsigned' }]);
    const unsigned = await node.call('svc_submitBundle', [unsignedHex(bundleFor(owner, 0n, [op], { maxGas: createScheduleGas(op), senderPubkey: owner.publicKey }))]);
    expect(unsigned.error).toMatchObject({ code: -32001, data: { status: 'UNSIGNED_NOT_ALLOWED' } });
  });

  it('a signed CreateSchedule runs in its own block on chain; status reads the record and its runs', async () => {
    const op = createScheduleOp({ kind: 'Recurring', intervalSeconds: 60n, runs: 1, firstRun: 0n }, [{ type: 'RegisterName', name: 'sched-signed' }]);
    const receipt = await node.result<Receipt>('svc_submitBundle', [signedHex(owner, bundleFor(owner, 0n, [op], { maxGas: createScheduleGas(op), senderPubkey: owner.publicKey }))]);
    expect(receipt.status).toBe('success');
    const created = receipt.events.find((e) => e.type === 'ScheduleCreated')!;
    expect(created).toMatchObject({ owner: owner.address, kind: 'Recurring' });
    const status = await node.result<ScheduleStatus>('svc_getIntentStatus', [created.schedule_id]);
    expect(status).toMatchObject({ status: 'completed', schedule_state: 'completed', kind: 'Recurring', sender: owner.address, runs_done: 1, runs_left: 0, next_due: null });
    expect(status.runs).toEqual([expect.objectContaining({ run: 1, status: 'completed', block_height: receipt.block_height, gas_used: 45_000 })]);
    expect(status.operations.map((o) => o.type)).toEqual(['RegisterName']);
  });

  it('CancelSchedule is owner-only; a cancelled schedule shows cancelled and runs no more', async () => {
    const op = createScheduleOp({ kind: 'Recurring', intervalSeconds: 3600n, runs: 5, firstRun: 0n }, [{ type: 'RegisterName', name: 'sched-hourly' }]);
    const receipt = await node.result<Receipt>('svc_submitBundle', [signedHex(owner, bundleFor(owner, 1n, [op], { maxGas: createScheduleGas(op) }))]);
    const id = receipt.events.find((e) => e.type === 'ScheduleCreated')!.schedule_id as string;
    const stolen = await node.call('svc_submitBundle', [signedHex(other, bundleFor(other, 0n, [cancelScheduleOp(id)], { maxGas: 25_000n, senderPubkey: other.publicKey }))]);
    expect(stolen.error).toMatchObject({ code: -32002, data: { status: 'NOT_SCHEDULE_OWNER' } });
    const cancelled = await node.result<Receipt>('svc_submitBundle', [signedHex(owner, bundleFor(owner, 2n, [cancelScheduleOp(id)], { maxGas: 25_000n }))]);
    expect(cancelled.events).toContainEqual(expect.objectContaining({ type: 'ScheduleCancelled', schedule_id: id, owner: owner.address }));
    expect(await node.result<ScheduleStatus>('svc_getIntentStatus', [id])).toMatchObject({ status: 'failed', schedule_state: 'cancelled', runs_done: 1, runs_left: 0 });
  });
});
