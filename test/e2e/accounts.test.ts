// Accounts over JSON-RPC against a running node (docs/accounts.md): several keys per account signed
// end to end (an added ML-DSA-65 key signs; a rotated Ed25519 key is refused), operator keys,
// guardian recovery after the timelock and a recovery cancelled by the owner, a 2-of-3 multi-sig
// that pays out only on the second approval and reverts whole when one of its operations fails,
// every refusal a clear error that changes no state, and mainnet refusing the convenience methods.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Signer } from '../../src/codec/keys.js';
import { sha256 } from '../../src/codec/hash.js';
import { Wallet } from '../../src/client/wallet.js';
import { RpcClientError } from '../../src/client/rpc-client.js';
import { systemAddressHex } from './bundles.js';
import { TestNode, sleep } from './harness.js';

const NTV = 1_000_000_000n;
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
interface Key { key_hash: string; key_type: string; role: number; role_name: string; added_height: number; added_at: number }
interface Account { keys: Key[]; recovery: null | { guardians: string[]; threshold: number; timelock: number; pending: null | { key_hash: string; approvals: string[]; executable_at: number } } }
interface Receipt { status: string; block_height: number; events: Array<Record<string, unknown>>; created?: { multisig?: string } }

let node: TestNode;

async function funded(signer = Signer.generate()): Promise<Wallet> {
  await node.result('svc_transfer', [systemAddressHex(7), signer.address, 'NTV', (50n * NTV).toString()]);
  return new Wallet(signer, node.url);
}

async function refused(p: Promise<unknown>): Promise<{ code: number; status?: string; message: string }> {
  try {
    await p;
  } catch (error) {
    if (error instanceof RpcClientError) return { code: error.code, status: (error.data as { status?: string } | undefined)?.status, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

describe('keys (AddKey, RemoveKey, RotateKey)', () => {
  it('an added ML-DSA-65 key signs for the account; svc_getAccount lists type, hash, role and when added', async () => {
    const alice = await funded();
    await alice.transfer(systemAddressHex(7), 'NTV', 1n); // reveals the Ed25519 key (spec §5.3)
    const pq = Signer.generate('ML-DSA-65');
    const added = (await alice.addKey(pq.publicKey, 'ML-DSA-65', 'owner')).receipt as Receipt;
    expect(added.status).toBe('success');
    expect(added.events.find((e) => e.type === 'KeyAdded')).toMatchObject({ key_hash: hex(sha256(pq.publicKey)), key_type: 'ML-DSA-65', role: 'owner' });
    const acct = await node.result<Account>('svc_getAccount', [alice.address]);
    expect(acct.keys.map((k) => [k.key_type, k.role_name]).sort()).toEqual([['Ed25519', 'owner'], ['ML-DSA-65', 'owner']]);
    expect(acct.keys.find((k) => k.key_type === 'ML-DSA-65')).toMatchObject({ key_hash: hex(sha256(pq.publicKey)), added_height: added.block_height });
    // the ML-DSA-65 key signs a transfer for alice's account
    const pqWallet = Wallet.forAccount(pq, node.url, alice.address);
    const before = BigInt(await node.result<string>('svc_getBalance', [systemAddressHex(8)]));
    expect(((await pqWallet.transfer(systemAddressHex(8), 'NTV', 7n)).receipt as Receipt).status).toBe('success');
    expect(BigInt(await node.result<string>('svc_getBalance', [systemAddressHex(8)])) - before).toBe(7n);
    // the same key twice: KEY_EXISTS, nothing changes
    expect(await refused(alice.addKey(pq.publicKey, 'ML-DSA-65', 'owner'))).toMatchObject({ code: -32002, status: 'KEY_EXISTS' });
    expect((await node.result<Account>('svc_getAccount', [alice.address])).keys).toHaveLength(2);
  }, 60_000);

  it('rotating the Ed25519 key: the old key is refused, the new one signs', async () => {
    const bob = await funded();
    await bob.transfer(systemAddressHex(7), 'NTV', 1n);
    const next = Signer.generate();
    expect(((await bob.rotateKey(sha256(bob.publicKey), next.publicKey, 'Ed25519')).receipt as Receipt).status).toBe('success');
    const old = await refused(bob.transfer(systemAddressHex(7), 'NTV', 1n));
    expect(old.code).toBe(-32001); // the bundle is invalid: no registered key of the account verifies it
    const rotated = Wallet.forAccount(next, node.url, bob.address);
    expect(((await rotated.transfer(systemAddressHex(7), 'NTV', 1n)).receipt as Receipt).status).toBe('success');
    const keys = (await node.result<Account>('svc_getAccount', [bob.address])).keys;
    expect(keys.map((k) => k.key_hash)).toEqual([hex(sha256(next.publicKey))]);
    // the last owner key cannot go; a key that is not registered cannot be removed
    expect(await refused(rotated.removeKey(sha256(next.publicKey)))).toMatchObject({ code: -32002, status: 'LAST_OWNER_KEY' });
    expect(await refused(rotated.removeKey(sha256(bob.publicKey)))).toMatchObject({ code: -32002, status: 'KEY_NOT_FOUND' });
  }, 60_000);

  it('an operator key sends transfers but not key management (KEY_ROLE_NOT_ALLOWED); bad keys are -32602', async () => {
    const carol = await funded();
    await carol.transfer(systemAddressHex(7), 'NTV', 1n);
    const op = Signer.generate();
    await carol.addKey(op.publicKey, 'Ed25519', 'operator');
    const opWallet = Wallet.forAccount(op, node.url, carol.address);
    expect(((await opWallet.transfer(systemAddressHex(7), 'NTV', 1n)).receipt as Receipt).status).toBe('success');
    const denied = await refused(opWallet.addKey(Signer.generate().publicKey, 'Ed25519', 'owner'));
    expect(denied).toMatchObject({ status: 'KEY_ROLE_NOT_ALLOWED' });
    // the owner removes it; then its bundles are refused
    await carol.removeKey(sha256(op.publicKey));
    expect((await refused(opWallet.transfer(systemAddressHex(7), 'NTV', 1n))).code).toBe(-32001);
    // svc_addKey: a key of the wrong length for its type
    const short = await node.call('svc_addKey', ['ab'.repeat(31), 'Ed25519', 'owner', carol.address]);
    expect(short.error?.code).toBe(-32602);
    expect(short.error?.message).toMatch(/public_key/);
    const wrongType = await node.call('svc_addKey', ['ab'.repeat(32), 'RSA', 'owner', carol.address]);
    expect(wrongType.error?.code).toBe(-32602);
    expect((await node.result<Account>('svc_getAccount', [carol.address])).keys).toHaveLength(1);
  }, 60_000);
});

describe('guardian recovery', () => {
  it('2-of-3 guardians recover an account whose keys are lost, after the timelock; a cancelled recovery changes nothing', async () => {
    const owner = await funded();
    const [g1, g2, g3] = await Promise.all([funded(), funded(), funded()]);
    const stranger = await funded();
    await owner.transfer(systemAddressHex(7), 'NTV', 1n);
    // guardian list and threshold refused before any bundle
    expect((await node.call('svc_setRecovery', [[g1.address, g1.address], 1, 60, owner.address])).error?.code).toBe(-32602);
    expect((await node.call('svc_setRecovery', [[g1.address], 2, 60, owner.address])).error?.code).toBe(-32602);
    expect((await node.call('svc_setRecovery', [Array.from({ length: 11 }, () => Signer.generate().address), 1, 60, owner.address])).error?.code).toBe(-32602);
    expect(await refused(owner.setRecovery([g1.address], 1, 5))).toMatchObject({ status: 'INVALID_TIMELOCK' });
    expect(((await owner.setRecovery([g1.address, g2.address, g3.address], 2, 10)).receipt as Receipt).status).toBe('success');
    expect((await node.result<Account>('svc_getAccount', [owner.address])).recovery).toMatchObject({ threshold: 2, timelock: 10, pending: null });

    // a recovery the owner cancels during the timelock
    const thief = Signer.generate();
    expect(await refused(stranger.initiateRecovery(owner.address, thief.publicKey, 'Ed25519'))).toMatchObject({ status: 'NOT_GUARDIAN' });
    await g3.initiateRecovery(owner.address, thief.publicKey, 'Ed25519');
    expect(((await owner.cancelRecovery()).receipt as Receipt).status).toBe('success');
    expect(await refused(g1.approveRecovery(owner.address, sha256(thief.publicKey)))).toMatchObject({ status: 'NO_PENDING_RECOVERY' });
    expect(await refused(g1.finalizeRecovery(owner.address))).toMatchObject({ status: 'NO_PENDING_RECOVERY' });

    // every key lost: the guardians move the account to a new key
    const fresh = Signer.generate('ML-DSA-65');
    await g1.initiateRecovery(owner.address, fresh.publicKey, 'ML-DSA-65');
    expect(await refused(g1.approveRecovery(owner.address, sha256(fresh.publicKey)))).toMatchObject({ status: 'RECOVERY_ALREADY_APPROVED' });
    expect(await refused(g2.approveRecovery(owner.address, sha256(thief.publicKey)))).toMatchObject({ status: 'RECOVERY_KEY_MISMATCH' });
    expect(await refused(stranger.finalizeRecovery(owner.address))).toMatchObject({ status: 'RECOVERY_TIMELOCK_ACTIVE' });
    await g2.approveRecovery(owner.address, sha256(fresh.publicKey));
    const pending = (await node.result<Account>('svc_getAccount', [owner.address])).recovery!.pending!;
    expect(pending).toMatchObject({ key_hash: hex(sha256(fresh.publicKey)), approvals: [g1.address, g2.address] });
    await sleep(Math.max(0, pending.executable_at * 1000 - Date.now()) + 1500);
    const done = (await stranger.finalizeRecovery(owner.address)).receipt as Receipt;
    expect(done.events.find((e) => e.type === 'RecoveryFinalized')).toMatchObject({ account: owner.address, key_hash: hex(sha256(fresh.publicKey)) });
    expect(await refused(stranger.finalizeRecovery(owner.address))).toMatchObject({ status: 'NO_PENDING_RECOVERY' });
    const acct = await node.result<Account>('svc_getAccount', [owner.address]);
    expect(acct.keys.map((k) => [k.key_hash, k.key_type, k.role_name])).toEqual([[hex(sha256(fresh.publicKey)), 'ML-DSA-65', 'owner']]);
    expect(acct.recovery!.pending).toBeNull();
    // the old key is refused, the recovery key signs
    expect((await refused(owner.transfer(systemAddressHex(7), 'NTV', 1n))).code).toBe(-32001);
    const recovered = Wallet.forAccount(fresh, node.url, owner.address);
    expect(((await recovered.transfer(systemAddressHex(7), 'NTV', 1n)).receipt as Receipt).status).toBe('success');
  }, 90_000);
});

describe('multi-sig accounts (spec §4.14)', () => {
  it('a 2-of-3 multi-sig pays out only on the second approval and reverts whole when an operation fails', async () => {
    const [s1, s2, s3] = await Promise.all([funded(), funded(), funded()]);
    const outsider = await funded();
    const payee = Signer.generate();
    expect((await node.call('svc_createMultiSig', [s1.address, [s1.address, s1.address], 1, 'dup'])).error?.code).toBe(-32602);
    expect((await node.call('svc_createMultiSig', [s1.address, [s1.address, s2.address], 3, 'too high'])).error?.code).toBe(-32602);
    const created = await node.result<Receipt>('svc_createMultiSig', [s1.address, [s1.address, s2.address, s3.address], 2, 'treasury']);
    const ms = created.created!.multisig!;
    expect(ms).toMatch(/^Nx5/);
    await node.result('svc_transfer', [systemAddressHex(7), ms, 'NTV', (10n * NTV).toString()]);
    expect(await node.result('svc_getMultiSig', [ms])).toMatchObject({ address: ms, label: 'treasury', threshold: 2, signers: [s1.address, s2.address, s3.address], proposals: 0, balance: (10n * NTV).toString() });

    const pay = JSON.stringify([{ type: 'Transfer', to: payee.address, token: 'NTV', amount: (3n * NTV).toString() }]);
    const proposed = await node.result<Receipt>('svc_proposeMultiSigTx', [s1.address, ms, pay, 'pay the payee']);
    expect(proposed.events.find((e) => e.type === 'MultiSigTxUpdated')).toMatchObject({ tx_id: '0', action: 'proposed', approvals: 1 });
    expect(await node.result('svc_getBalance', [payee.address])).toBe('0');
    // refusals: a non-signer, a second approval by the proposer
    expect((await node.call('svc_approveMultiSigTx', [outsider.address, ms, '0'])).error?.data).toMatchObject({ status: 'NOT_MULTISIG_SIGNER' });
    expect((await node.call('svc_approveMultiSigTx', [s1.address, ms, '0'])).error?.data).toMatchObject({ status: 'ALREADY_APPROVED' });
    expect((await node.call('svc_approveMultiSigTx', [s2.address, ms, '9'])).error?.data).toMatchObject({ status: 'MULTISIG_TX_NOT_FOUND' });
    expect(await node.result('svc_getBalance', [payee.address])).toBe('0');
    // the second approval (a signed bundle through the wallet helper) executes it
    const approved = (await s2.approveMultiSigTx(ms, 0n)).receipt as Receipt;
    expect(approved.events.find((e) => e.type === 'MultiSigTxExecuted')).toMatchObject({ tx_id: '0', status_name: 'OK' });
    expect(approved.events.find((e) => e.type === 'Transfer')).toMatchObject({ from: expect.any(String), to: payee.address, amount: (3n * NTV).toString() });
    expect(await node.result('svc_getBalance', [payee.address])).toBe((3n * NTV).toString());
    expect((await node.call('svc_approveMultiSigTx', [s3.address, ms, '0'])).error?.data).toMatchObject({ status: 'MULTISIG_TX_NOT_PENDING' });

    // one of two transfers cannot be paid: neither happens, the proposal is marked failed
    const both = JSON.stringify([
      { type: 'Transfer', to: payee.address, token: 'NTV', amount: NTV.toString() },
      { type: 'Transfer', to: payee.address, token: 'NTV', amount: (1000n * NTV).toString() },
    ]);
    await node.result('svc_proposeMultiSigTx', [s3.address, ms, both, 'too much']);
    // a revoked approval no longer counts
    await node.result('svc_revokeMultiSigApproval', [s3.address, ms, '1']);
    expect((await node.call('svc_revokeMultiSigApproval', [s3.address, ms, '1'])).error?.data).toMatchObject({ status: 'NOT_APPROVED' });
    await node.result('svc_approveMultiSigTx', [s1.address, ms, '1']);
    const failed = await node.result<Receipt>('svc_approveMultiSigTx', [s3.address, ms, '1']);
    expect(failed.status).toBe('success'); // the approval stands; the execution it triggered reverted
    expect(failed.events.find((e) => e.type === 'MultiSigTxExecuted')).toMatchObject({ tx_id: '1', status_name: 'INSUFFICIENT_BALANCE' });
    expect(failed.events.filter((e) => e.type === 'Transfer')).toEqual([]);
    expect(await node.result('svc_getBalance', [payee.address])).toBe((3n * NTV).toString());
    expect(await node.result('svc_getBalance', [ms])).toBe((7n * NTV).toString());
    const txs = await node.result<Array<Record<string, unknown>>>('svc_listMultiSigTxs', [ms]);
    expect(txs.map((t) => [t.tx_id, t.state, t.status_name])).toEqual([['1', 'failed', 'INSUFFICIENT_BALANCE'], ['0', 'executed', 'OK']]);
    expect(txs[1]!.operations).toEqual([{ type: 'Transfer', to: payee.address, token: expect.stringMatching(/^Nx1/), amount: (3n * NTV).toString() }]);
    // bad operations_json and an unknown multi-sig
    expect((await node.call('svc_proposeMultiSigTx', [s1.address, ms, '[{"type":"Teleport"}]', 'x'])).error?.code).toBe(-32602);
    expect((await node.call('svc_proposeMultiSigTx', [s1.address, ms, '[{"type":"AddKey","pubkey":"00","key_type":0,"role":0}]', 'x'])).error?.code).toBe(-32602);
    expect((await node.call('svc_getMultiSig', [Signer.generate().address])).error?.code).toBe(-32003);
  }, 90_000);
});

describe('mainnet', () => {
  it('refuses the convenience methods (-32004); a signed AddKey bundle is accepted', async () => {
    const main = await TestNode.start({ args: ['--network', 'mainnet', '--block-time', '1', '--gas-price', '0'] });
    try {
      const w = new Wallet(Signer.generate(), main.url);
      const pq = Signer.generate('ML-DSA-65');
      expect((await main.call('svc_addKey', [hex(pq.publicKey), 'ML-DSA-65', 'owner', w.address])).error?.code).toBe(-32004);
      expect((await main.call('svc_createMultiSig', [w.address, [w.address], 1, 'x'])).error?.code).toBe(-32004);
      expect(((await w.addKey(pq.publicKey, 'ML-DSA-65', 'operator')).receipt as Receipt).status).toBe('success');
      const pqWallet = Wallet.forAccount(pq, main.url, w.address);
      expect(((await pqWallet.createMultiSig([w.address, pq.address], 1, 'solo')).receipt as Receipt).status).toBe('success');
      expect((await main.result<Account>('svc_getAccount', [w.address])).keys.map((k) => k.role_name).sort()).toEqual(['operator', 'owner']);
    } finally {
      await main.stop();
    }
  }, 90_000);
});
