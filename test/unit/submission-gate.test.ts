import { describe, expect, it } from 'vitest';
import { SubmissionGate, type AdmissionContext } from '../../src/chain/admission/gate.js';
import { AccountKeys } from '../../src/chain/account-keys.js';
import { StateView } from '../../src/chain/state-view.js';
import { ChainError } from '../../src/chain/errors.js';
import { encodeBundle, type Bundle } from '../../src/codec/bundle.js';
import { deriveAccount } from '../../src/codec/address.js';
import { sha256 } from '../../src/codec/hash.js';
import { generateEd25519, signBundle, verifySignature } from '../../src/codec/keys.js';
import { keyRecordKey } from '../../src/abi/state.js';
import type { SignatureVerifierPool } from '../../src/codec/verify-pool.js';

// Which key admission checks a signature against (spec §5.3, docs/accounts.md): the bundle's own
// sender_pubkey; else the account's registered keys of the scheme, then the keys revealed by its
// bundles still waiting. The waiting ones are only listed when no registered key verifies.

const verifier = { verify: async (m: Uint8Array, s: Uint8Array, p: Uint8Array) => verifySignature(p, m, s) } as unknown as SignatureVerifierPool;

function keyRecord(pubkey: Uint8Array): Uint8Array {
  // docs/core-abi.md "State layout": key_type u8, role u8, pubkey vec, added_height u64, added_at u64
  const out = new Uint8Array(2 + 4 + pubkey.length + 16);
  new DataView(out.buffer).setUint32(2, pubkey.length, true);
  out.set(pubkey, 6);
  return out;
}

function context(pendingKeys: Uint8Array[], asked: { count: number }): AdmissionContext {
  return {
    allowUnsigned: false,
    chainId: 1,
    nowSeconds: 1_000n,
    stateNonce: () => 0n,
    pendingKeys: () => {
      asked.count++;
      return pendingKeys;
    },
  };
}

function bundleOf(account: Uint8Array, seed: Uint8Array, nonce: bigint, senderPubkey?: Uint8Array): Uint8Array {
  const bundle: Bundle = {
    userAccount: account, operations: [{ type: 'Transfer', to: new Uint8Array(32).fill(9), token: new Uint8Array(32), amount: 5n }],
    maxGas: 100_000n, maxPriorityFee: 0n, validUntil: 2_000n, nonce, signature: new Uint8Array(0), senderPubkey,
  };
  return encodeBundle(signBundle(bundle, seed));
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ChainError);
    return String((error as ChainError).data.status);
  }
  throw new Error('admitted');
}

describe('SubmissionGate: the key a signature is checked against', () => {
  const owner = generateEd25519();
  const account = deriveAccount(owner.publicKey);
  const other = generateEd25519();

  it('sender_pubkey: verified with it, carried in the auth for the core to register', async () => {
    const gate = new SubmissionGate(verifier, new AccountKeys(new StateView()));
    const asked = { count: 0 };
    const entry = await gate.admit(bundleOf(account, owner.seed, 0n, owner.publicKey), context([], asked));
    expect(entry.auth.pubkey).toEqual(owner.publicKey);
    expect(entry.auth.keyHash).toEqual(sha256(owner.publicKey));
    expect(asked.count).toBe(0);
  });

  /** A gate over state where `account` has `pubkey` registered. */
  function gateWithRegistered(pubkey: Uint8Array): SubmissionGate {
    const state = new StateView();
    const keys = new AccountKeys(state);
    state.apply([{ key: keyRecordKey(account, sha256(pubkey)), value: keyRecord(pubkey) }]);
    return new SubmissionGate(verifier, keys);
  }

  it('a registered key verifies without listing the waiting bundles', async () => {
    const gate = gateWithRegistered(owner.publicKey);
    const asked = { count: 0 };
    const entry = await gate.admit(bundleOf(account, owner.seed, 1n), context([other.publicKey], asked));
    expect(entry.auth.pubkey.length).toBe(0);
    expect(entry.auth.keyHash).toEqual(sha256(owner.publicKey));
    expect(asked.count).toBe(0);
  });

  it('a key revealed by a waiting bundle, after the registered ones fail', async () => {
    const gate = gateWithRegistered(other.publicKey);
    const asked = { count: 0 };
    const entry = await gate.admit(bundleOf(account, owner.seed, 1n), context([owner.publicKey], asked));
    expect(entry.auth.keyHash).toEqual(sha256(owner.publicKey));
    expect(entry.auth.pubkey.length).toBe(0);
    expect(asked.count).toBe(1);
  });

  it('one registered key that does not verify, and no waiting key, is BAD_SIGNATURE; of several registered keys the one that verifies', async () => {
    // One key of the scheme is checked with one continuation, several in turn (./gate.ts authenticateByKeys).
    const asked = { count: 0 };
    expect(await refusal(gateWithRegistered(other.publicKey).admit(bundleOf(account, owner.seed, 1n), context([], asked)))).toBe('BAD_SIGNATURE');
    expect(asked.count).toBe(1);
    const state = new StateView();
    const keys = new AccountKeys(state);
    const third = generateEd25519();
    state.apply([other.publicKey, owner.publicKey, third.publicKey].map((pubkey) => ({ key: keyRecordKey(account, sha256(pubkey)), value: keyRecord(pubkey) })));
    const several = { count: 0 };
    const entry = await new SubmissionGate(verifier, keys).admit(bundleOf(account, owner.seed, 1n), context([], several));
    expect(entry.auth.keyHash).toEqual(sha256(owner.publicKey));
    expect(entry.auth.pubkey.length).toBe(0);
    expect(several.count).toBe(0);
    expect(await refusal(new SubmissionGate(verifier, keys).admit(bundleOf(account, generateEd25519().seed, 1n), context([], several)))).toBe('BAD_SIGNATURE');
    expect(several.count).toBe(1);
  });

  it('no key at all is KEY_NOT_AUTHORIZED; keys that do not verify are BAD_SIGNATURE', async () => {
    const gate = new SubmissionGate(verifier, new AccountKeys(new StateView()));
    expect(await refusal(gate.admit(bundleOf(account, owner.seed, 1n), context([], { count: 0 })))).toBe('KEY_NOT_AUTHORIZED');
    expect(await refusal(gate.admit(bundleOf(account, owner.seed, 1n), context([other.publicKey], { count: 0 })))).toBe('BAD_SIGNATURE');
    expect(await refusal(gate.admit(bundleOf(account, owner.seed, 0n, other.publicKey), context([], { count: 0 })))).toBe('BAD_SIGNATURE');
  });
});

describe('SubmissionGate: the key rule at admission (issue 46 item 8, docs/mempool.md "Keys")', () => {
  const owner = generateEd25519();
  const account = deriveAccount(owner.publicKey);
  const attacker = generateEd25519();
  const added = generateEd25519();
  const keyed = (asked = { count: 0 }) => ({ ...context([], asked), keyRule: true });

  function gateWith(registered: Uint8Array[]): SubmissionGate {
    const state = new StateView();
    const keys = new AccountKeys(state);
    state.apply(registered.map((pubkey) => ({ key: keyRecordKey(account, sha256(pubkey)), value: keyRecord(pubkey) })));
    return new SubmissionGate(verifier, keys);
  }

  it('a key that is neither registered nor the account\'s own first reveal is refused, at any nonce', async () => {
    // an account with no key yet: only its own key may reveal itself
    const fresh = gateWith([]);
    for (const nonce of [0n, 5n, 200n]) {
      expect(await refusal(fresh.admit(bundleOf(account, attacker.seed, nonce, attacker.publicKey), keyed()))).toBe('PUBKEY_MISMATCH');
    }
    // an account with its key registered: another key is not authorized
    const held = gateWith([owner.publicKey]);
    expect(await refusal(held.admit(bundleOf(account, attacker.seed, 7n, attacker.publicKey), keyed()))).toBe('KEY_NOT_AUTHORIZED');
  });

  it('the first reveal, a registered key revealed again, and an added key once registered are admitted', async () => {
    expect((await gateWith([]).admit(bundleOf(account, owner.seed, 3n, owner.publicKey), keyed())).auth.pubkey).toEqual(owner.publicKey);
    expect((await gateWith([owner.publicKey]).admit(bundleOf(account, owner.seed, 4n, owner.publicKey), keyed())).nonce).toBe(4n);
    expect((await gateWith([owner.publicKey, added.publicKey]).admit(bundleOf(account, added.seed, 5n, added.publicKey), keyed())).nonce).toBe(5n);
  });

  it('without the rule (a proposal\'s bundles, the core rules) such a bundle still passes the gate', async () => {
    const entry = await gateWith([owner.publicKey]).admit(bundleOf(account, attacker.seed, 7n, attacker.publicKey), context([], { count: 0 }));
    expect(entry.auth.pubkey).toEqual(attacker.publicKey);
  });
});
