// Intent programs are chain state (docs/intents.md "Programs on chain"): on mainnet the unsigned
// svc_registerProgram is refused and a program is registered only by a signed RegisterProgram
// bundle; the node serves it from chain state, so it survives a hard kill, and a second node
// started from a copy of the same blocks serves the same record.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Signer } from '../../src/codec/keys.js';
import { registerProgramGas, registerProgramOp } from '../../src/client/wallet.js';
import { TestNode } from './harness.js';
import { bundleFor, signedHex, systemAddressHex, unsignedHex } from './bundles.js';

// Gas price 0: the fresh signing accounts hold nothing, and mainnet has no faucet.
const ARGS = ['--network', 'mainnet', '--block-time', '1', '--gas-price', '0'];
let node: TestNode;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'ntv-programs-'));
  node = await TestNode.start({ dataDir, args: ARGS });
});

afterAll(async () => {
  await node?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const program = {
  name: 'pay-rent',
  description: 'send NTV to an address',
  params: [{ name: 'amount', type: 'amount', default: '2' }, { name: 'to', type: 'address' }],
  steps: ['send ${amount} NTV to ${to}'],
};
type Program = { name: string; owner: string; version: number; valid: boolean; program_hash: string; registered_height: number; steps: Array<{ intent: string }> };
type Receipt = { status: string; block_height: number; events: Array<Record<string, unknown>> };

describe('programs on mainnet (chain state, signed bundles only)', () => {
  const owner = Signer.generate();
  const other = Signer.generate();
  const payee = Signer.generate().address;

  it('refuses the unsigned svc_registerProgram and an unsigned RegisterProgram bundle', async () => {
    const res = await node.call('svc_registerProgram', [program, owner.address]);
    expect(res.error).toMatchObject({ code: -32004 });
    expect(res.error!.message).toMatch(/svc_submitBundle/);
    const bundle = bundleFor(owner, 0n, [registerProgramOp(program)], { maxGas: registerProgramGas(program), senderPubkey: owner.publicKey });
    const unsigned = await node.call('svc_submitBundle', [unsignedHex(bundle)]);
    expect(unsigned.error).toMatchObject({ code: -32001, data: { status: 'UNSIGNED_NOT_ALLOWED' } });
    expect((await node.call('svc_getProgram', [program.name])).error).toMatchObject({ code: -32003 });
  });

  it('registers a program by a signed bundle; get, list and simulate read it from chain state', async () => {
    const bundle = bundleFor(owner, 0n, [registerProgramOp(program)], { maxGas: registerProgramGas(program), senderPubkey: owner.publicKey });
    const receipt = await node.result<Receipt>('svc_submitBundle', [signedHex(owner, bundle)]);
    expect(receipt.status).toBe('success');
    expect(receipt.events).toContainEqual(expect.objectContaining({ type: 'ProgramRegistered', name: program.name, owner: owner.address, revision: 1 }));
    const stored = await node.result<Program>('svc_getProgram', [program.name]);
    expect(stored).toMatchObject({ name: program.name, owner: owner.address, version: 1, valid: true, registered_height: receipt.block_height });
    expect(stored.steps).toEqual([{ intent: 'send ${amount} NTV to ${to}' }]);
    expect((await node.result<Program[]>('svc_listPrograms', [10])).map((p) => p.name)).toEqual([program.name]);
    // runnable: planned and executed on a scratch core for a sender that holds NTV
    const sim = await node.result<{ success: boolean; intents: string[]; operations: Array<{ type: string }> }>('svc_simulateProgram', [program.name, { to: payee }, systemAddressHex(1)]);
    expect(sim).toMatchObject({ success: true, intents: [`send 2 NTV to ${payee}`] });
    expect(sim.operations.map((o) => o.type)).toEqual(['Transfer']);
    // executing is the unsigned convenience: refused on mainnet
    expect((await node.call('svc_executeProgram', [program.name, { to: payee }, systemAddressHex(1)])).error).toMatchObject({ code: -32004 });
  });

  it('lets only the owner replace it: another signer fails NOT_PROGRAM_OWNER, the owner gets revision 2', async () => {
    const stolen = bundleFor(other, 0n, [registerProgramOp({ ...program, description: 'mine now' })], { maxGas: 200_000n, senderPubkey: other.publicKey });
    const res = await node.call('svc_submitBundle', [signedHex(other, stolen)]);
    expect(res.error).toMatchObject({ code: -32002, data: { status: 'NOT_PROGRAM_OWNER' } });
    const v2 = bundleFor(owner, 1n, [registerProgramOp({ ...program, description: 'v2' })], { maxGas: 200_000n });
    expect((await node.result<Receipt>('svc_submitBundle', [signedHex(owner, v2)])).status).toBe('success');
    expect(await node.result<Program>('svc_getProgram', [program.name])).toMatchObject({ owner: owner.address, version: 2, description: 'v2' });
  });

  it('shows a record whose JSON does not validate as invalid, and refuses to run it', async () => {
    const junk = Signer.generate();
    const bundle = bundleFor(junk, 0n, [{ type: 'RegisterProgram', name: 'not-a-program', program: '{"name":"not-a-program","steps":[]}' }], { senderPubkey: junk.publicKey });
    expect((await node.result<Receipt>('svc_submitBundle', [signedHex(junk, bundle)])).status).toBe('success');
    const shown = await node.result<Program & { invalid_reason: string }>('svc_getProgram', ['not-a-program']);
    expect(shown).toMatchObject({ valid: false, owner: junk.address });
    expect(shown.invalid_reason).toMatch(/steps/);
    const run = await node.call('svc_simulateProgram', ['not-a-program', {}, systemAddressHex(1)]);
    expect(run.error).toMatchObject({ code: -32012 });
  });

  it('survives kill -9, and a second node started from a copy of the same blocks serves the same records', async () => {
    const before = await node.result<Program[]>('svc_listPrograms', [10]);
    expect(before.map((p) => p.name)).toEqual([program.name, 'not-a-program']);
    await node.kill9();
    const copy = await mkdtemp(join(tmpdir(), 'ntv-programs-copy-'));
    await cp(dataDir, copy, { recursive: true });
    await node.launch();
    const second = await TestNode.start({ dataDir: copy, args: ARGS });
    try {
      for (const n of [node, second]) {
        expect(await n.result<Program[]>('svc_listPrograms', [10])).toEqual(before);
        expect((await n.result<{ success: boolean }>('svc_simulateProgram', [program.name, { to: payee }, systemAddressHex(1)])).success).toBe(true);
      }
    } finally {
      await second.stop();
      await rm(copy, { recursive: true, force: true });
    }
  }, 60_000);
});
