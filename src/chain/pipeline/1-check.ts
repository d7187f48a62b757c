import type { Core } from '../../core/core.js';
import type { BundleScan } from '../../core/scan.js';
import { bytesEqual, toHex } from '../../codec/hash.js';
import type { Verify, VerifyAsync } from '../../domains/module.js';
import { blockProofOperations, blockProofProblem, blockProofRefusal } from '../block-proofs.js';
import type { ProofRefusal } from '../proof-checks.js';
import { certificateProblem } from '../block-checks.js';
import { decodeStoredBlock, headerHash, type BlockHeader } from '../block.js';
import { chainParams } from '../chain-params.js';
import { readValidatorSet, type ValidatorInfo } from '../validator-set.js';

/**
 * Step 1 of the block path (docs/architecture.md "Block path"), for a block made elsewhere: a
 * certified block of another validator on import (src/chain/import.ts: sync and consensus) and
 * every block of an auditor's replay (src/chain/replay.ts: the `replay` command and the browser
 * build) pass the same checks in the same order, so an auditor applies exactly a validator's rules.
 * A block this node makes starts at step 2 with bundles admission let into the mempool
 * (src/chain/admission/); a proposal's bundles are admitted one by one before it is re-executed
 * (./3-commit.ts). The checks, in order, the cheap ones first: the block decodes; it is of this
 * chain and extends the parent; the header hashes to its hash; the bundles give its transactions
 * root; the proposer is an unjailed validator of the set at the parent; its signature verifies;
 * the finality certificate holds for that set (../block-checks.ts); every bundle's proofs of every
 * block verify (../block-proofs.ts). Then step 2 executes the bundles.
 */

export type BlockCheckFailure =
  | 'MALFORMED_BLOCK' | 'WRONG_CHAIN' | 'NOT_NEXT' | 'BAD_HASH' | 'BAD_TRANSACTIONS_ROOT' | 'BAD_SIGNATURE' | 'BAD_PROPOSER'
  | 'BAD_CERTIFICATE';

/** A check the block failed; import turns it into an ImportError, replay into a Divergence, with the same kind. */
export class BlockCheckError extends Error {
  constructor(
    readonly kind: BlockCheckFailure,
    message: string,
    /** the block's height, when its header decoded */
    readonly height: number | undefined,
    readonly detail: { bundle?: number; expected?: string; actual?: string } = {},
  ) {
    super(message);
    this.name = 'BlockCheckError';
  }
}

export interface CheckedBlock {
  header: BlockHeader;
  /** views of the bundles in the block's bytes */
  bundles: Uint8Array[];
  /** the core's scan of the bundle section: hashes, nonces, expiries, decode statuses */
  scan: BundleScan;
  /** the validator set at the parent (the core's state is the parent's) */
  validators: ValidatorInfo[];
}

export interface BlockCheckOptions {
  /** the chain id the block must name */
  chainId: number;
  /**
   * Skip the certificate: only for a caller that has already counted > 2/3 of the stake's votes for
   * this hash itself (the consensus layer's own tally). Sync and replay never set it.
   */
  certificateVerified?: boolean;
  /** the bundle hashes the source indexed for this block (replay), to name an altered bundle */
  indexedHashes?: readonly Uint8Array[];
}

/**
 * Step 1 for the encoded block `encoded` with `certificate` on top of `parent`, the core holding the
 * parent's state; throws BlockCheckError at the first check that fails. Synchronous, as import
 * needs: nothing else may run between its write slot and the core's execution of the block.
 */
export function checkBlock(encoded: Uint8Array, certificate: Uint8Array, parent: BlockHeader, core: Core, options: BlockCheckOptions & { verify: Verify }): CheckedBlock {
  const block = checkStructure(encoded, parent, core, options);
  if (!options.verify(block.header.proposerPubkey, block.header.hash, block.header.signature)) throw badProposerSignature(block.header);
  checkCertificate(block, certificate, core, options);
  for (const [i, bytes] of block.bundles.entries()) {
    const bad = blockProofProblem(bytes, block.header.chainId, options.verify);
    if (bad !== undefined) throw badProof(block.header, i, bad);
  }
  return block;
}

/** checkBlock with a verifier that may be asynchronous (the browser replay's WebCrypto); the same checks in the same order. */
export async function checkBlockAsync(encoded: Uint8Array, certificate: Uint8Array, parent: BlockHeader, core: Core, options: BlockCheckOptions & { verify: VerifyAsync }): Promise<CheckedBlock> {
  const block = checkStructure(encoded, parent, core, options);
  if (!(await options.verify(block.header.proposerPubkey, block.header.hash, block.header.signature))) throw badProposerSignature(block.header);
  checkCertificate(block, certificate, core, options);
  for (const [i, bytes] of block.bundles.entries()) {
    // one byte decides for nearly every bundle, so only a bundle that may carry a proof awaits
    const ops = blockProofOperations(bytes);
    const bad = ops && (await blockProofRefusal(ops, block.header.chainId, options.verify));
    if (bad !== undefined) throw badProof(block.header, i, bad);
  }
  return block;
}

interface StructuredBlock extends CheckedBlock {
  proposer: ValidatorInfo;
}

/** The checks without a signature: decode, chain, parent, hash, transactions root, the proposer in the set at the parent. */
function checkStructure(encoded: Uint8Array, parent: BlockHeader, core: Core, options: BlockCheckOptions): StructuredBlock {
  let stored: ReturnType<typeof decodeStoredBlock>;
  try {
    stored = decodeStoredBlock(encoded);
  } catch (error) {
    throw new BlockCheckError('MALFORMED_BLOCK', `block does not decode: ${(error as Error).message}`, undefined);
  }
  const { header, bundles } = stored;
  const height = header.height;
  if (header.chainId !== options.chainId) throw new BlockCheckError('WRONG_CHAIN', `block of chain ${header.chainId}, we are ${options.chainId}`, height);
  if (height !== parent.height + 1 || !bytesEqual(header.parentHash, parent.hash)) {
    throw new BlockCheckError('NOT_NEXT', `block ${height} (parent ${toHex(header.parentHash)}) does not extend ${parent.height} (${toHex(parent.hash)})`, height);
  }
  const problem = hashProblem(header);
  if (problem) throw problem;
  // One core call hashes every bundle, builds the transactions root and reads what execution needs
  // (docs/core-abi.md "Block scan"); the section is the block's stored bundle list.
  let scan: BundleScan;
  try {
    scan = core.scanBundles(encoded.subarray(stored.bundlesAt));
  } catch (error) {
    throw new BlockCheckError('MALFORMED_BLOCK', `the bundle list does not decode: ${(error as Error).message}`, height);
  }
  if (header.bundleCount !== bundles.length || header.bundleCount !== scan.count || !bytesEqual(scan.transactionsRoot, header.transactionsRoot)) {
    const bundle = options.indexedHashes ? alteredBundle(scan, options.indexedHashes) : undefined;
    throw new BlockCheckError('BAD_TRANSACTIONS_ROOT', `the bundles (${scan.count}, header says ${header.bundleCount}) do not give the header's transactions root`
      + (bundle === undefined ? '' : `; bundle ${bundle} is not the one the source indexed`), height, {
      expected: toHex(header.transactionsRoot), actual: toHex(scan.transactionsRoot), ...(bundle === undefined ? {} : { bundle }),
    });
  }
  const validators = readValidatorSet(core);
  const proposer = validators.find((v) => bytesEqual(v.consensusKey, header.proposerPubkey));
  if (!proposer || proposer.jailed || !bytesEqual(proposer.address, header.proposer)) {
    throw new BlockCheckError('BAD_PROPOSER', `proposer ${toHex(header.proposerPubkey)} is not a validator of the set at the parent`, height);
  }
  return { header, bundles, scan, validators, proposer };
}

function checkCertificate(block: StructuredBlock, certificate: Uint8Array, core: Core, options: BlockCheckOptions): void {
  if (options.certificateVerified) return;
  const why = certificateProblem(certificate, block.header, block.validators, block.proposer, chainParams(core).epochLength);
  if (why !== undefined) throw new BlockCheckError('BAD_CERTIFICATE', why, block.header.height);
}

function badProposerSignature(header: BlockHeader): BlockCheckError {
  return new BlockCheckError('BAD_SIGNATURE', `the proposer signature of ${toHex(header.proposerPubkey)} does not verify`, header.height);
}

/** Proofs checked on every block: unlike bundle signatures they are the authority of a state change, so a certified block is checked too. */
function badProof(header: BlockHeader, bundle: number, refusal: ProofRefusal): BlockCheckError {
  return new BlockCheckError('BAD_SIGNATURE', `bundle ${bundle}: ${refusal.message}`, header.height, { bundle });
}

/** The header does not hash to the hash it carries (also the genesis and a restored head's check in replay). */
export function hashProblem(header: BlockHeader): BlockCheckError | undefined {
  const hash = headerHash(header);
  if (bytesEqual(hash, header.hash)) return undefined;
  return new BlockCheckError('BAD_HASH', 'the header does not hash to the block hash it carries', header.height, { expected: toHex(header.hash), actual: toHex(hash) });
}

/** The first bundle whose hash is not the one the source indexed at its position. */
function alteredBundle(scan: BundleScan, indexed: readonly Uint8Array[]): number | undefined {
  for (let i = 0; i < Math.max(scan.count, indexed.length); i++) {
    if (i >= scan.count || i >= indexed.length || !bytesEqual(scan.hash(i), indexed[i]!)) return i;
  }
  return undefined;
}
