import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Signer } from '../../src/codec/keys.js';
import { TestNode } from './harness.js';
import { bundleFor, signedHex, systemAddressHex, transferOp, unsignedHex } from './bundles.js';

let node: TestNode;

beforeAll(async () => {
  node = await TestNode.start({ args: ['--network', 'mainnet', '--block-time', '1'] });
});

afterAll(async () => {
  await node?.stop();
});

describe('mainnet (spec §5.6: signatures enforced, convenience methods refused)', () => {
  it('identifies as chain 1618033', async () => {
    expect(await node.result('eth_chainId')).toBe('0x18b071');
    expect(await node.result('net_version')).toBe('1618033');
  });

  it('refuses the unsigned convenience methods, the faucet and svc_generateKeypair', async () => {
    const someone = Signer.generate().address;
    for (const [method, params] of [
      ['svc_transfer', [systemAddressHex(1), someone, 'NTV', '1']],
      ['svc_createToken', ['T', 'TTT', 6, '1', someone]],
      ['svc_approve', ['USDC', someone, '1', systemAddressHex(1)]],
      ['svc_transferFrom', ['USDC', systemAddressHex(1), someone, '1', someone]],
      ['svc_faucet', [someone]],
      ['svc_generateKeypair', []],
    ] as const) {
      const res = await node.call(method, [...params]);
      expect(res.error, method).toMatchObject({ code: -32004 });
    }
    expect(await node.result('svc_getBalance', [systemAddressHex(1), 'NTV'])).toBe('614840000000000000');
  });

  it('refuses an unsigned bundle and a bad signature; accepts a good one', async () => {
    const signer = Signer.generate();
    const bundle = bundleFor(signer, 0n, [transferOp(Signer.generate().address, 1n)], { senderPubkey: signer.publicKey });
    const unsigned = await node.call('svc_submitBundle', [unsignedHex(bundle)]);
    expect(unsigned.error).toMatchObject({ code: -32001, data: { status: 'UNSIGNED_NOT_ALLOWED' } });

    const other = Signer.generate();
    const forged = await node.call('svc_submitBundle', [signedHex(other, bundle)]);
    expect(forged.error).toMatchObject({ code: -32001, data: { status: 'BAD_SIGNATURE' } });

    // A good signature passes the host's key check; the account holds nothing, so admission refuses
    // it for the fee it cannot pay, as geth's txpool does (docs/mempool.md "Funds").
    const good = await node.call('svc_submitBundle', [signedHex(signer, bundle)]);
    expect(good.error).toMatchObject({ code: -32010, data: { status: 'INSUFFICIENT_FUNDS' } });
  });

  it('says at start which library verifies Ed25519: libsodium first, node:crypto for its refusals', () => {
    // docs/addresses-and-keys.md "Two libraries, one verdict": the prebuilt addon loads on the
    // project's machines; without it the log names node:crypto and warns.
    expect(node.logs).toContain('"ed25519":"libsodium, node:crypto for its refusals"');
    expect(node.logs).not.toContain('the sodium-native addon did not load');
  });

  it('refuses a key that does not hash to the account (spec §5.3)', async () => {
    const signer = Signer.generate();
    const impostor = Signer.generate();
    const bundle = bundleFor(signer, 0n, [transferOp(impostor.address, 1n)], { senderPubkey: impostor.publicKey });
    const res = await node.call('svc_submitBundle', [signedHex(impostor, bundle)]);
    expect(res.error?.code).toBe(-32001);
    expect(['PUBKEY_MISMATCH', 'KEY_NOT_AUTHORIZED']).toContain(res.error!.data!.status);
  });

  it('refuses that key behind a nonce gap too, where it used to wait as queued (issue 46 item 8)', async () => {
    const signer = Signer.generate();
    const impostor = Signer.generate();
    for (const nonce of [3n, 200n]) {
      const bundle = bundleFor(signer, nonce, [transferOp(impostor.address, 1n)], { senderPubkey: impostor.publicKey });
      const res = await node.call('svc_submitBundle', [signedHex(impostor, bundle)]);
      expect(res.error, `nonce ${nonce}`).toMatchObject({ code: -32001, data: { status: 'PUBKEY_MISMATCH' } });
    }
    expect((await node.result<{ mempoolSize: number }>('svc_getNetworkStats')).mempoolSize).toBe(0);
  });
});
