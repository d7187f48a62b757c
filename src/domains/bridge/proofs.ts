// Bridge proofs (docs/bridge.md "Digests" and "Proofs"): the domain-separated digests attesters
// sign, the proof format svc_bridgeToken / svc_autobridge take, and signing with an attester key.
// The core never sees a signature's validity: the host verifies every attester signature of a
// BridgeDeposit or AttestBridgeWithdrawal (src/domains/bridge/attestations.ts) where bundles are verified.

import type { BridgeDepositOp } from '../../abi/operations.js';
import { BorshReader, BorshWriter, CodecError } from '../../codec/borsh.js';
import { blake3 } from '../../codec/hash.js';
import { signEd25519, ed25519PublicKey, verifyEd25519 } from '../../codec/keys.js';

/** Bytes of one attester signature entry: the attester's Ed25519 public key, then its signature. */
export const ATTESTATION_BYTES = 96;
const DEPOSIT_TAG = new TextEncoder().encode('ntv-bridge-deposit-v1');
const WITHDRAWAL_TAG = new TextEncoder().encode('ntv-bridge-withdrawal-v1');
/** Bound of the proof strings before allocating; the core applies 1–128 bytes (BRIDGE_MAX_TEXT). */
const MAX_TEXT = 1024;
const MAX_SIGNATURES_BYTES = 4096;

/** What an attester observed on the origin chain (spec §4.6; issue 20 item 1): the BridgeDeposit fields it signs. */
export type DepositMessage = Omit<BridgeDepositOp, 'type' | 'signatures'>;

/** A deposit and its attester signatures (n × 96 bytes: public key ‖ signature over depositDigest): the BridgeDeposit operation's fields. */
export type DepositProof = Omit<BridgeDepositOp, 'type'>;

export interface WithdrawalMessage {
  sequence: bigint;
  chain: string;
  destination: string;
  token: Uint8Array;
  amount: bigint;
}

function writeDeposit(w: BorshWriter, m: DepositMessage): BorshWriter {
  return w.string(m.chain, 'chain').string(m.txHash, 'tx_hash').string(m.contract, 'contract').string(m.symbol, 'symbol')
    .u128(m.amount, 'amount').u8(m.decimals, 'decimals').fixedBytes(m.recipient, 32, 'recipient');
}

/**
 * Blake3("ntv-bridge-deposit-v1" ‖ network chain id u64 LE ‖ Borsh(chain, tx_hash, contract,
 * symbol, amount u128, decimals u8, recipient[32])): the chain id keeps a testnet proof off the
 * mainnet; the symbol is signed so a relayer cannot name a new bridged token.
 */
export function depositDigest(chainId: bigint | number, m: DepositMessage): Uint8Array {
  const w = new BorshWriter().raw(DEPOSIT_TAG).u64(BigInt(chainId), 'chain_id');
  return blake3(writeDeposit(w, m).finish());
}

/** Blake3("ntv-bridge-withdrawal-v1" ‖ chain id u64 LE ‖ Borsh(sequence u64, chain, destination, token[32], amount u128)). */
export function withdrawalDigest(chainId: bigint | number, m: WithdrawalMessage): Uint8Array {
  const w = new BorshWriter().raw(WITHDRAWAL_TAG).u64(BigInt(chainId), 'chain_id').u64(m.sequence, 'sequence')
    .string(m.chain, 'chain').string(m.destination, 'destination').fixedBytes(m.token, 32, 'token').u128(m.amount, 'amount');
  return blake3(w.finish());
}

/** One attester's entry (pubkey ‖ signature) for `digest`, signed with its 32-byte seed. */
export function attest(seed: Uint8Array, digest: Uint8Array): Uint8Array {
  const out = new Uint8Array(ATTESTATION_BYTES);
  out.set(ed25519PublicKey(seed), 0);
  out.set(signEd25519(seed, digest), 32);
  return out;
}

/** The entries of a signature list, or a message naming what is wrong. */
export function splitAttestations(signatures: Uint8Array): { pubkey: Uint8Array; signature: Uint8Array }[] | string {
  if (signatures.length % ATTESTATION_BYTES !== 0) return `the signature list is ${signatures.length} bytes, not a multiple of ${ATTESTATION_BYTES} (pubkey ‖ signature)`;
  const out = [];
  for (let o = 0; o < signatures.length; o += ATTESTATION_BYTES) out.push({ pubkey: signatures.subarray(o, o + 32), signature: signatures.subarray(o + 32, o + 96) });
  return out;
}

/** Why the signatures over `digest` do not all verify, or undefined when every one does. */
export function attestationProblem(signatures: Uint8Array, digest: Uint8Array, verify = verifyEd25519): string | undefined {
  const list = splitAttestations(signatures);
  if (typeof list === 'string') return list;
  for (const [i, a] of list.entries()) {
    if (!verify(a.pubkey, digest, a.signature)) return `attester signature ${i} (key ${Buffer.from(a.pubkey).toString('hex')}) does not verify over the digest`;
  }
  return undefined;
}

/** A proof as the hex the RPC methods take (docs/bridge.md "Proofs"): the BridgeDeposit fields in Borsh. */
export function encodeDepositProof(p: DepositProof): Uint8Array {
  return writeDeposit(new BorshWriter(), p).vecBytes(p.signatures, 'signatures').finish();
}

/** Decode a proof; CodecError naming the field for anything malformed. */
export function decodeDepositProof(bytes: Uint8Array): DepositProof {
  const r = new BorshReader(bytes);
  const p: DepositProof = {
    chain: r.string('chain', MAX_TEXT), txHash: r.string('tx_hash', MAX_TEXT), contract: r.string('contract', MAX_TEXT), symbol: r.string('symbol', MAX_TEXT),
    amount: r.u128('amount'), decimals: r.u8('decimals'), recipient: r.fixedBytes(32, 'recipient'), signatures: r.vecBytes('signatures', MAX_SIGNATURES_BYTES),
  };
  r.end('proof');
  const list = splitAttestations(p.signatures);
  if (typeof list === 'string') throw new CodecError('BAD_LENGTH', 'signatures', list);
  return p;
}
