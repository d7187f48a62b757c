/**
 * The browser build (dist/browser/ntv.js, ESM; scripts/build-browser.mjs; `ntv-node/browser`): the
 * node's own codecs, the light client (checkpoint sync by certificates, or replay through the
 * WebAssembly core), the verifying EIP-1193 provider, state proofs, for light embedders
 * (docs/light-client.md, docs/replay.md "In the browser"). core.wasm, needed by replay only, is
 * loaded next to this module unless given.
 */
export { LightClient, type LightClientOptions, type LightSyncSummary } from './light-client.js';
export { VerifyingProvider, ProviderRpcError, UNSUPPORTED_METHOD, VERIFICATION_FAILED, type RequestArguments } from './provider.js';
export { HeaderTrust, LightVerifyError, parseCheckpoint, type Checkpoint, type TrustedSet } from '../light/header-trust.js';
export { decodeEpochRecord, type EpochRecord } from '../chain/epoch-record.js';
export {
  Replayer, ReplayDivergence, rawBlockFromJson, replayBlocks,
  type Divergence, type DivergentKey, type RawBlock, type RawBlockJson, type ReplayedBlock, type ReplayProgress, type ReplaySummary,
} from '../chain/replay.js';
export { decodeStoredBlock, headerHash, transactionsRoot, type BlockHeader } from '../chain/block.js';
export { readValidatorSet, type ValidatorInfo } from '../chain/validator-set.js';
export { bundleHash, decodeBundle, type Bundle } from '../codec/bundle.js';
export { NATIVE_MINT, encodeAccount, encodeHash, encodeMint, parseAddress, parseHash } from '../codec/address.js';
export { fromHex, toHex } from '../codec/hash.js';
export { verifyEd25519Noble } from '../codec/ed25519-noble.js';
export { balanceKey, accountKey, decodeBalance } from '../core/records.js';
export { Core } from '../core/core.js';
export { compileCore } from '../core/loader.js';
export { ProofError, proveState, stateProofFromJson, verifyBalanceProof, verifyProofResult, verifyStateProof, type GetProofResult, type StateProof } from '../client/proof.js';
export { RpcClient } from '../client/rpc-client.js';
