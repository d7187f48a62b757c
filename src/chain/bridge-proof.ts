// The host's half of the bridge's attester rule (docs/bridge.md "Who checks what"): every attester
// signature of a BridgeDeposit or AttestBridgeWithdrawal verifies over its digest. Checked wherever
// bundle signatures are (admission and the convenience path in ./pipeline/verify.ts, block import
// in ./import.ts, the auditor's replay in ./replay.ts), so a block carrying a bad attester signature
// is invalid like one with a bad bundle signature. The core decides the rest from state (signers in
// the current set, distinct, at least the threshold, each (chain, tx hash) credited once).

import { OpCode } from '../abi/constants.js';
import { decodeBundle } from '../codec/bundle.js';
import { attestationProblem, depositDigest, splitAttestations, withdrawalDigest } from '../codec/bridge.js';
import { verifyEd25519 } from '../codec/keys.js';

/** Byte of a bundle's first operation's discriminant: after user_account[32] and the u32 count. */
const FIRST_OP_AT = 36;

/** The attester signatures a bundle carries and the digest they sign, or undefined when it carries none. */
export function bridgeAttestationsOf(bytes: Uint8Array, chainId: bigint | number): { what: string; digest: Uint8Array; signatures: Uint8Array } | undefined {
  const d = bytes[FIRST_OP_AT];
  if (bytes.length <= FIRST_OP_AT || (d !== OpCode.BridgeDeposit && d !== OpCode.AttestBridgeWithdrawal)) return undefined;
  let op;
  try {
    op = decodeBundle(bytes).operations[0];
  } catch {
    return undefined; // a bundle that does not decode is the core's to refuse
  }
  if (op?.type === 'BridgeDeposit') return { what: 'bridge deposit proof', digest: depositDigest(chainId, op), signatures: op.signatures };
  if (op?.type === 'AttestBridgeWithdrawal') return { what: 'withdrawal attestation', digest: withdrawalDigest(chainId, op), signatures: op.signatures };
  return undefined;
}

/**
 * Why a bundle's attester signatures do not verify, or undefined (no such operation, or all
 * verify). The core allows these operations only as a bundle's first operation and never nested,
 * so one byte tells whether a bundle has one.
 */
export function bridgeSignatureProblem(
  bytes: Uint8Array, chainId: bigint | number,
  verify: (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => boolean = verifyEd25519,
): string | undefined {
  const a = bridgeAttestationsOf(bytes, chainId);
  if (!a) return undefined;
  const problem = attestationProblem(a.signatures, a.digest, verify);
  return problem && `${a.what}: ${problem}`;
}

/** bridgeSignatureProblem with a verifier that may be asynchronous (the browser replay's). */
export async function bridgeSignatureProblemAsync(
  bytes: Uint8Array, chainId: bigint | number,
  verify: (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => boolean | Promise<boolean>,
): Promise<string | undefined> {
  const a = bridgeAttestationsOf(bytes, chainId);
  if (!a) return undefined;
  const list = splitAttestations(a.signatures);
  if (typeof list === 'string') return `${a.what}: ${list}`;
  for (const [i, e] of list.entries()) {
    if (!(await verify(e.pubkey, a.digest, e.signature))) return `${a.what}: attester signature ${i} does not verify over the digest`;
  }
  return undefined;
}
