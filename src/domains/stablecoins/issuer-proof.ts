// Issuer onboarding, the admin-signature proof (spec §4.16; docs/stablecoins.md "Issuer
// onboarding"): the origin-chain admin signs a documented message with EVM `personal_sign`, and
// the host recovers the secp256k1 signer and checks it is the admin address the proof names. The
// core cannot run secp256k1, so, as with double-sign evidence (../staking/double-sign-evidence.ts), a
// proof whose signature does not verify is refused at admission — of a submitted bundle and of every
// bundle of a proposal from a peer (src/chain/admission/host-proofs.ts) — and never reaches a block; the core
// checks the proof's shape and applies the "two of three" rule.

import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { encodeMint } from '../../codec/address.js';
import type { StableIssuerProofOp } from '../../abi/operations.js';
import type { ProofCheck } from '../module.js';

/** The signature's length: r ‖ s ‖ v, v 27/28 (or 0/1), as `personal_sign` and viem's signMessage give it. */
export const EVM_SIGNATURE_BYTES = 65;

/**
 * The message the origin-chain admin signs (docs/stablecoins.md "Issuer onboarding"). It names the
 * token's canonical mint (so it cannot be used for another token), the origin chain's EVM chain id
 * (so it cannot be used for another origin) and this network's chain id (so a testnet proof cannot
 * be replayed on mainnet). Lines are joined with "\n", no trailing newline.
 */
export function issuerOnboardingMessage(mint: Uint8Array, originChainId: bigint, networkChainId: number): string {
  return [
    'NTV STD-8 issuer onboarding',
    'I control the admin address of this stablecoin on its origin chain.',
    `token: ${encodeMint(mint)}`,
    `origin chain id: ${originChainId}`,
    `network chain id: ${networkChainId}`,
  ].join('\n');
}

/** EIP-191 `personal_sign` digest: keccak256("\x19Ethereum Signed Message:\n" ‖ len ‖ message). */
export function personalSignHash(message: string): Uint8Array {
  const body = new TextEncoder().encode(message);
  const prefix = new TextEncoder().encode(`\x19Ethereum Signed Message:\n${body.length}`);
  const all = new Uint8Array(prefix.length + body.length);
  all.set(prefix);
  all.set(body, prefix.length);
  return keccak_256(all);
}

/** The 20-byte EVM address that signed `hash` with the 65-byte r‖s‖v signature, or undefined. */
export function recoverEvmSigner(hash: Uint8Array, signature: Uint8Array): Uint8Array | undefined {
  if (signature.length !== EVM_SIGNATURE_BYTES) return undefined;
  const v = signature[64]!;
  const recovery = v >= 27 ? v - 27 : v;
  if (recovery !== 0 && recovery !== 1) return undefined;
  // noble's 'recovered' format: the recovery byte first, then r ‖ s.
  const sig = new Uint8Array(EVM_SIGNATURE_BYTES);
  sig[0] = recovery;
  sig.set(signature.subarray(0, 64), 1);
  try {
    const pub = secp256k1.recoverPublicKey(sig, hash, { prehash: false });
    const point = secp256k1.Point.fromBytes(pub).toBytes(false);
    return keccak_256(point.subarray(1)).subarray(12);
  } catch {
    return undefined;
  }
}

/**
 * Why a StableIssuerProof cannot be admitted, or undefined. Only the admin signature is checked
 * here (the shape rules are the core's, INVALID_ISSUER_PROOF): a signature that does not recover
 * to the admin address named in `subject`'s last 20 bytes, over the message for this token, origin
 * chain id and network.
 */
export function checkIssuerProof(op: StableIssuerProofOp, networkChainId: number): string | undefined {
  if (op.method !== 'admin_signature') return undefined;
  if (op.signature.length !== EVM_SIGNATURE_BYTES) return `the admin signature must be ${EVM_SIGNATURE_BYTES} bytes (r ‖ s ‖ v), not ${op.signature.length}`;
  const admin = op.subject.subarray(12);
  const signer = recoverEvmSigner(personalSignHash(issuerOnboardingMessage(op.token, op.chainId, networkChainId)), op.signature);
  if (!signer) return 'the admin signature is not a valid secp256k1 signature';
  if (Buffer.compare(signer, admin) !== 0) {
    return `the admin signature was made by 0x${Buffer.from(signer).toString('hex')}, not the admin address 0x${Buffer.from(admin).toString('hex')} `
      + '(sign the message of svc_stableIssuerOnboardingMessage with personal_sign)';
  }
  return undefined;
}

/** The admin-signature proof of a StableIssuerProof, also inside a proposal (the keyless foundation acts through one on mainnet). */
export const issuerProof: ProofCheck<StableIssuerProofOp> = {
  operation: 'StableIssuerProof',
  position: 'nested',
  checked: 'admission',
  status: 'INVALID_ISSUER_PROOF',
  what: 'invalid issuer-onboarding proof',
  problem: (op, chainId) => checkIssuerProof(op, chainId),
};
