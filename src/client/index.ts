// The client library wallets and tests use (spec §5): JSON-RPC transport and a signing wallet.
export { RpcClient, RpcClientError, RpcTransportError } from './rpc-client.js';
export type { RpcBatchResult, RpcCall, RpcClientOptions } from './rpc-client.js';
export { Wallet, DEFAULT_MAX_GAS, DEFAULT_VALIDITY_SECONDS, INFINITE_ALLOWANCE, cancelScheduleOp, createScheduleGas, createScheduleOp, registerProgramGas, registerProgramOp, toBigInt } from './wallet.js';
export type { AccountInfo, BundleOptions, CreatePresaleParams, CreateTokenParams, StakingPoolRef, SubmitResult } from './wallet.js';
export { GAS_BASE, bundleGasOf, gasOf } from './gas.js';
export { OPERATION_GAS } from '../abi/constants.js';
export type {
  AccountRef, Amount, BatchEntryInput, CollectionRef, CreateMultiTokenCollectionParams, CreateNftCollectionParams, PubkeyRef,
  SetPoolConfigParams, TokenMetadataFields, TokenRef, ValidatorMetadataParams,
} from './wallet.js';
export { ProofError, accountStateKey, proveState, stateProofFromJson, verifyBalanceProof, verifyProofResult, verifyStateProof } from './proof.js';
export type { GetProofResult, StateProof, StateProofCheck } from './proof.js';
