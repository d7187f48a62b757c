import { encodeBundle, type Bundle, type Operation } from '../../src/codec/bundle.js';
import { signBundle, Signer } from '../../src/codec/keys.js';
import { parseAddress, parseMint } from '../../src/codec/address.js';

/** Helpers for tests that craft bundles by hand (wrong nonce, expired, bad signature). */

export const NATIVE = new Uint8Array(32);

export function nowSeconds(): bigint {
  return BigInt(Math.floor(Date.now() / 1000));
}

export function transferOp(to: string | Uint8Array, amount: bigint, token: Uint8Array | string = NATIVE): Operation {
  return {
    type: 'Transfer',
    to: typeof to === 'string' ? parseAddress(to) : to,
    token: typeof token === 'string' ? parseMint(token) : token,
    amount,
  };
}

export function bundleFor(signer: Signer, nonce: bigint, operations: Operation[], overrides: Partial<Bundle> = {}): Bundle {
  return {
    userAccount: signer.account,
    operations,
    maxGas: 100_000n,
    maxPriorityFee: 0n,
    validUntil: nowSeconds() + 600n,
    nonce,
    signature: new Uint8Array(0),
    expiryTimestamp: undefined,
    senderPubkey: undefined,
    ...overrides,
  };
}

/** Signed Borsh hex, ready for svc_submitBundle. */
export function signedHex(signer: Signer, bundle: Bundle): string {
  return '0x' + Buffer.from(encodeBundle(signBundle(bundle, signer.secretKeyHex, signer.keyType))).toString('hex');
}

export function unsignedHex(bundle: Bundle): string {
  return '0x' + Buffer.from(encodeBundle(bundle)).toString('hex');
}

export const systemAddressHex = (index: number) => '0x' + index.toString(16).padStart(64, '0');
