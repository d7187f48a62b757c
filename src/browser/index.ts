/**
 * The browser build (dist/browser/ntv.js, ESM; scripts/build-browser.mjs): the node's own codecs,
 * the WebAssembly core and its replay, state proofs and the light client, for light embedders
 * (docs/replay.md "In the browser"). core.wasm is loaded next to the bundle.
 */
export { LightClient, type LightClientOptions } from './light-client.js';
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
