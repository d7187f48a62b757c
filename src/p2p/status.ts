import { BorshReader, BorshWriter } from '../codec/borsh.js';
import { blake3 } from '../codec/hash.js';
import { signEd25519, verifyEd25519 } from '../codec/keys.js';

/**
 * The `/ntv/status/1` handshake message (docs/p2p.md). Each side sends its chain id, genesis hash
 * and head; a peer on another chain or genesis is refused (the genesis hash covers the
 * validator list and chain params). A validator adds a proof that its consensus key vouches for
 * this libp2p peer id, which `--enforce-validator-allowlist` checks against the current set.
 */
export interface StatusMessage {
  chainId: number;
  genesisHash: Uint8Array;
  headHeight: number;
  headHash: Uint8Array;
  validator?: { publicKey: Uint8Array; signature: Uint8Array };
}

const STATUS_VERSION = 1;
const PROOF_DOMAIN = new TextEncoder().encode('ntv-p2p-validator-proof-v1');

export function encodeStatus(status: StatusMessage): Uint8Array {
  const w = new BorshWriter(160)
    .u8(STATUS_VERSION, 'version')
    .u64(BigInt(status.chainId), 'chain_id')
    .fixedBytes(status.genesisHash, 32, 'genesis_hash')
    .u64(BigInt(status.headHeight), 'head_height')
    .fixedBytes(status.headHash, 32, 'head_hash')
    .optionTag(status.validator !== undefined, 'validator');
  if (status.validator) {
    w.fixedBytes(status.validator.publicKey, 32, 'validator.public_key').fixedBytes(status.validator.signature, 64, 'validator.signature');
  }
  return w.finish();
}

/** Throws a CodecError on anything but a canonical encoding of a known version. */
export function decodeStatus(bytes: Uint8Array): StatusMessage {
  const r = new BorshReader(bytes);
  const version = r.u8('version');
  if (version !== STATUS_VERSION) throw new Error(`status version ${version} is not supported (expected ${STATUS_VERSION})`);
  const chainId = r.u64('chain_id');
  const genesisHash = r.fixedBytes(32, 'genesis_hash');
  const headHeight = r.u64('head_height');
  const headHash = r.fixedBytes(32, 'head_hash');
  let validator: StatusMessage['validator'];
  if (r.optionTag('validator')) {
    validator = { publicKey: r.fixedBytes(32, 'validator.public_key'), signature: r.fixedBytes(64, 'validator.signature') };
  }
  r.end('status');
  if (chainId > BigInt(Number.MAX_SAFE_INTEGER) || headHeight > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('status numbers out of range');
  return { chainId: Number(chainId), genesisHash, headHeight: Number(headHeight), headHash, ...(validator ? { validator } : {}) };
}

/** What a validator key signs to vouch for a peer id on one network. */
function proofMessage(genesisHash: Uint8Array, peerIdBytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(PROOF_DOMAIN.length + 32 + peerIdBytes.length);
  out.set(PROOF_DOMAIN, 0);
  out.set(genesisHash, PROOF_DOMAIN.length);
  out.set(peerIdBytes, PROOF_DOMAIN.length + 32);
  return blake3(out);
}

export function signValidatorProof(seed: Uint8Array, genesisHash: Uint8Array, peerIdBytes: Uint8Array): Uint8Array {
  return signEd25519(seed, proofMessage(genesisHash, peerIdBytes));
}

export function verifyValidatorProof(publicKey: Uint8Array, signature: Uint8Array, genesisHash: Uint8Array, peerIdBytes: Uint8Array): boolean {
  return verifyEd25519(publicKey, proofMessage(genesisHash, peerIdBytes), signature);
}
