// Names over JSON-RPC against a running node (spec §4.12, docs/names.md): registration (unsigned
// convenience and a signed RegisterName bundle), resolution in any spelling, reverse resolution,
// the name record, first come first served, and clear errors that change no state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Signer } from '../../src/codec/keys.js';
import { bundleFor, signedHex, systemAddressHex } from './bundles.js';
import { TestNode } from './harness.js';

const NTV = 1_000_000_000n;
const alice = Signer.generate();
const bob = Signer.generate();
const carol = Signer.generate();

interface Receipt { status: string; status_name?: string; block_height: number }
interface NameInfo {
  name: string; label: string; id: string; owner: string; owner_evm: string;
  registered_height: number; registered_at: number; is_primary: boolean;
}

let node: TestNode;

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
  for (const who of [alice, bob, carol]) await node.result('svc_transfer', [systemAddressHex(7), who.address, 'NTV', (10n * NTV).toString()]);
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

describe('names (spec §4.12)', () => {
  it('svc_registerName registers for the sender; svc_resolveName answers in any spelling; svc_getNameInfo shows the record', async () => {
    const receipt = await node.result<Receipt>('svc_registerName', ['Alice.VEX', alice.address]);
    expect(receipt.status).toBe('success');
    for (const spelling of ['alice', 'ALICE', 'alice.vex', 'Alice.Vex']) {
      expect(await node.result<string>('svc_resolveName', [spelling])).toBe(alice.address);
    }
    const info = await node.result<NameInfo>('svc_getNameInfo', ['alice']);
    expect(info).toMatchObject({ name: 'alice.vex', label: 'alice', owner: alice.address, is_primary: true });
    expect(info.id).toMatch(/^Nx9[1-9A-HJ-NP-Za-km-z]+$/);
    expect(info.owner_evm).toMatch(/^0x[0-9a-f]{40}$/);
    expect(info.registered_height).toBe(receipt.block_height);
    expect(Math.abs(info.registered_at - Date.now() / 1000)).toBeLessThan(120);
    expect(await node.result<string | null>('svc_reverseResolve', [alice.address])).toBe('alice.vex');
  });

  it('keeps the first name as primary; a second name resolves but is not primary', async () => {
    await node.result('svc_registerName', ['alice-2', alice.address]);
    expect(await node.result<string>('svc_resolveName', ['alice-2.vex'])).toBe(alice.address);
    expect((await node.result<NameInfo>('svc_getNameInfo', ['alice-2'])).is_primary).toBe(false);
    expect(await node.result<string | null>('svc_reverseResolve', [alice.address])).toBe('alice.vex');
  });

  it('is first come, first served: a taken name fails NAME_TAKEN and the owner does not change', async () => {
    const taken = await node.call('svc_registerName', ['ALICE', bob.address]);
    expect(taken.error?.code).toBe(-32002);
    expect(taken.error?.data?.status).toBe('NAME_TAKEN');
    expect(taken.error?.message).toMatch(/already registered/);
    expect(await node.result<string>('svc_resolveName', ['alice'])).toBe(alice.address);
    expect(await node.result<string | null>('svc_reverseResolve', [bob.address])).toBeNull();
  });

  it('accepts a signed RegisterName bundle (disc. 32) through svc_submitBundle', async () => {
    const bundle = bundleFor(carol, 0n, [{ type: 'RegisterName', name: 'carol-signed' }], { senderPubkey: carol.publicKey });
    const receipt = await node.result<Receipt>('svc_submitBundle', [signedHex(carol, bundle)]);
    expect(receipt.status).toBe('success');
    expect(await node.result<string>('svc_resolveName', ['carol-signed'])).toBe(carol.address);
    expect(await node.result<string | null>('svc_reverseResolve', [carol.address])).toBe('carol-signed.vex');
  });

  it('refuses malformed names with -32602 naming the param and the rule, and registers nothing', async () => {
    for (const [bad, reason] of [['ab', /shorter than 3/], ['x'.repeat(65), /longer than 64/], ['bad_name', /"_"/], ['name.eth', /"\."/], ['émile', /"é"/]] as const) {
      const res = await node.call('svc_registerName', [bad, bob.address]);
      expect(res.error?.code, bad).toBe(-32602);
      expect(res.error?.data?.param).toBe('name');
      expect(String(res.error?.data?.reason)).toMatch(reason);
    }
    const badSender = await node.call('svc_registerName', ['bobby', 'not-an-address']);
    expect(badSender.error?.code).toBe(-32602);
    expect(badSender.error?.data?.param).toBe('sender');
    const missing = await node.call('svc_registerName', ['bobby']);
    expect(missing.error?.code).toBe(-32602);
    expect((await node.call('svc_resolveName', ['bobby'])).error?.code).toBe(-32003);
    expect((await node.call('svc_resolveName', ['a b'])).error?.code).toBe(-32602);
    expect((await node.call('svc_reverseResolve', ['nope'])).error?.code).toBe(-32602);
    expect((await node.call('svc_resolveName', [42])).error?.code).toBe(-32602);
  });

  it('answers NOT_FOUND for unregistered names and null for an address without a name', async () => {
    const res = await node.call('svc_getNameInfo', ['nobody-here']);
    expect(res.error?.code).toBe(-32003);
    expect(res.error?.message).toMatch(/nobody-here\.vex is not registered/);
    expect(await node.result<string | null>('svc_reverseResolve', [Signer.generate().address])).toBeNull();
  });
});
