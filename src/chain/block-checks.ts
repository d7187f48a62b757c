import type { BlockContext } from '../core/core.js';
import type { BundleScan } from '../core/scan.js';
import { decodeBundle } from '../codec/bundle.js';
import { toHex } from '../codec/hash.js';
import { keyHashOf } from '../codec/address.js';
import { verifyBundleSignature, verifyEd25519 } from '../codec/keys.js';
import { looksLikeEvmTransaction } from './evm/transaction.js';
import { headerHash, type BlockHeader } from './block.js';
import type { BundleAuth } from './mempool.js';
import type { AccountKey } from './account-keys.js';
import type { ValidatorInfo } from './validator-set.js';
import { decodeCertificate, verifyCertificate } from './votes.js';
import {
  AUTH_ED25519, AUTH_EVM, AUTH_ML_DSA_65, AUTH_UNSIGNED, ED25519_PUBLIC_KEY_BYTES, ED25519_SIGNATURE_BYTES, KEY_TYPE_ED25519, KEY_TYPE_ML_DSA_65, ML_DSA_65_SIGNATURE_BYTES,
} from '../abi/constants.js';

/**
 * The checks a certified block of another validator passes before and around its execution, shared
 * by block import (import.ts: sync and consensus) and replay (replay.ts: the auditor's command and
 * the browser build), so an auditor applies exactly the rules a validator applies.
 */

/** The core's block context from a header (docs/core-abi.md BlockInput). */
export function blockContextOf(header: BlockHeader, allowUnsigned: boolean): BlockContext & { missed: Uint8Array[] } {
  return {
    height: BigInt(header.height),
    timestamp: BigInt(header.timestamp),
    proposer: header.proposer,
    gasPrice: BigInt(header.baseFee),
    chainId: BigInt(header.chainId),
    allowUnsigned,
    blockGasLimit: BigInt(header.gasLimit),
    missed: header.missed ?? [],
  };
}

/**
 * Why a block's finality certificate does not hold, or undefined when it does: votes of > 2/3 of
 * the stake of the set at the parent. A block without one is accepted only when its proposer alone
 * holds > 2/3 of that stake: its header signature is then the supermajority (a single-validator
 * network, docs/p2p.md).
 */
export function certificateProblem(certificate: Uint8Array, header: BlockHeader, validators: ValidatorInfo[], proposer: ValidatorInfo, epochLength: number): string | undefined {
  if (certificate.length === 0) {
    let total = 0n;
    for (const v of validators) if (v.active && !v.jailed) total += v.stake;
    if (proposer.active && total > 0n && proposer.stake * 3n > total * 2n) return undefined;
    return 'block has no finality certificate and its proposer holds no 2/3 of the stake';
  }
  let check;
  try {
    check = verifyCertificate(decodeCertificate(certificate), { height: header.height, hash: header.hash }, validators, epochLength);
  } catch (error) {
    return `certificate does not decode: ${(error as Error).message}`;
  }
  return check.ok ? undefined : check.reason;
}

/**
 * Why a header with its certificate is not final for `validators` (the set at its parent, or the
 * newest set a light node has proven), or undefined when it is: the header hashes to its block
 * hash, its proposer signed that hash, the proposer is a validator of the set with the header's
 * staking account, and the certificate holds (`certificateProblem`). Shared by a snapshot's head
 * check (src/operator/snapshots.ts) and the `--light` follower (src/light/), which see headers only.
 */
export function certifiedHeaderProblem(header: BlockHeader, certificate: Uint8Array, validators: ValidatorInfo[], epochLength: number, whichSet = 'the set'): string | undefined {
  if (Buffer.compare(headerHash(header), header.hash) !== 0) return 'the header does not hash to its block hash';
  if (!verifyEd25519(header.proposerPubkey, header.hash, header.signature)) return 'the proposer signature of the header does not verify';
  const proposer = validators.find((v) => Buffer.compare(v.consensusKey, header.proposerPubkey) === 0);
  if (!proposer || Buffer.compare(proposer.address, header.proposer) !== 0) return `its proposer ${toHex(header.proposerPubkey)} is not a validator of ${whichSet}`;
  const problem = certificateProblem(certificate, header, validators, proposer, epochLength);
  return problem === undefined ? undefined : `the finality certificate does not hold: ${problem}`;
}

/** The keys an account may have signed with: registered in state, and revealed by bundles not yet in state. */
export interface KeySource {
  registered(account: Uint8Array): AccountKey[];
  revealed(account: Uint8Array): BundleAuth[];
}

/** Shared by every unsigned bundle of every imported block (thousands per block): read-only. */
const NO_PUBKEY = new Uint8Array(0);
export const UNSIGNED_AUTH: BundleAuth = { kind: AUTH_UNSIGNED, keyHash: new Uint8Array(32), pubkey: NO_PUBKEY };

/**
 * A bundle's authorization input (docs/core-abi.md BundleInput.auth) derived from the bundle and
 * state, without verifying its signature (docs/p2p.md "Import"): the key it reveals, the account's
 * only key of the signature's scheme, or, when the account holds several, the one whose signature
 * verifies.
 */
export function deriveAuth(bytes: Uint8Array, i: number, scan: BundleScan, keys: KeySource): BundleAuth {
  const length = scan.signatureLength(i);
  if (length === 0) return UNSIGNED_AUTH;
  const account = bytes.subarray(0, 32);
  if (length !== ED25519_SIGNATURE_BYTES && length !== ML_DSA_65_SIGNATURE_BYTES) {
    // docs/eth.md: an EVM transaction; its recovered sender is the account itself.
    return looksLikeEvmTransaction(scan.signature(i, bytes)) ? { kind: AUTH_EVM, keyHash: account, pubkey: NO_PUBKEY } : UNSIGNED_AUTH;
  }
  const kind = length === ED25519_SIGNATURE_BYTES ? AUTH_ED25519 : AUTH_ML_DSA_65;
  const pubkey = scan.pubkey(i, bytes);
  if (pubkey !== undefined) return { kind, keyHash: keyHashOf(pubkey), pubkey };
  const keyType = kind === AUTH_ED25519 ? KEY_TYPE_ED25519 : KEY_TYPE_ML_DSA_65;
  const candidates = new Map<string, Uint8Array>();
  const registered = keys.registered(account);
  const revealed = keys.revealed(account);
  for (const k of registered) if (k.keyType === keyType) candidates.set(toHex(k.keyHash), k.keyHash);
  for (const a of revealed) if (a.kind === kind) candidates.set(toHex(a.keyHash), a.keyHash);
  // One key (the usual case) or none: the core decides (KEY_NOT_AUTHORIZED would make the block invalid).
  if (candidates.size <= 1) return { kind, keyHash: candidates.values().next().value ?? new Uint8Array(32), pubkey: NO_PUBKEY };
  // Several registered keys of the scheme: the signature tells which one signed.
  const bundle = decodeBundle(bytes);
  for (const pubkey of [...registered.map((k) => k.pubkey), ...revealed.map((a) => a.pubkey)]) {
    if ((kind === AUTH_ED25519) === (pubkey.length === ED25519_PUBLIC_KEY_BYTES) && verifyBundleSignature(bundle, pubkey)) {
      return { kind, keyHash: keyHashOf(pubkey), pubkey: NO_PUBKEY };
    }
  }
  return { kind, keyHash: [...candidates.values()][0]!, pubkey: NO_PUBKEY };
}
