/**
 * Multicall3 at its canonical address (issue 42 item 8; docs/eth.md "Multicall3"): viem's
 * `multicall`, ethers' multicall providers and most dApp frameworks batch their reads through it.
 * No EVM runs here either: `eth_call` to the address decodes Multicall3's functions and runs each
 * inner call through the same `eth_call` dispatch as a direct call (with Multicall3 as the caller,
 * as msg.sender is on Ethereum), then encodes the answers as the contract would. An inner revert is
 * `(false, revert data)` where the function allows failure, else Multicall3's own revert.
 * ABI coding is viem's.
 */
import { decodeFunctionData, encodeFunctionResult, parseAbi, type Hex } from 'viem';
import type { ChainApi } from '../chain/interface.js';
import type { BlockHeader } from '../chain/block.js';
import { accountOfEvm, evmOf, WEI_PER_NANO } from '../chain/evm/units.js';
import { EthCallError, executionReverted, noSuchFunction } from './errors.js';

/** The address Multicall3 is deployed at on every chain (mds1/multicall3). */
export const MULTICALL3_ADDRESS = '0xca11bde05977b3631167028862be2a173976ca11';
/** Code shown at the address (eth_getCode): 0xfe (INVALID) then "ntv-multicall3"; libraries only test for non-empty code. */
export const MULTICALL3_CODE_STUB: Hex = `0xfe${Buffer.from('ntv-multicall3').toString('hex')}`;
/** Inner calls per Multicall3 call at most: each is a full eth_call. */
export const MAX_MULTICALL_CALLS = 1024;

export const multicall3Abi = parseAbi([
  'struct Call { address target; bytes callData; }',
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Call3Value { address target; bool allowFailure; uint256 value; bytes callData; }',
  'struct Result { bool success; bytes returnData; }',
  'function aggregate(Call[] calls) payable returns (uint256 blockNumber, bytes[] returnData)',
  'function aggregate3(Call3[] calls) payable returns (Result[] returnData)',
  'function aggregate3Value(Call3Value[] calls) payable returns (Result[] returnData)',
  'function blockAndAggregate(Call[] calls) payable returns (uint256 blockNumber, bytes32 blockHash, Result[] returnData)',
  'function tryAggregate(bool requireSuccess, Call[] calls) payable returns (Result[] returnData)',
  'function tryBlockAndAggregate(bool requireSuccess, Call[] calls) payable returns (uint256 blockNumber, bytes32 blockHash, Result[] returnData)',
  'function getEthBalance(address addr) view returns (uint256 balance)',
  'function getBlockNumber() view returns (uint256 blockNumber)',
  'function getCurrentBlockTimestamp() view returns (uint256 timestamp)',
  'function getChainId() view returns (uint256 chainid)',
  'function getBasefee() view returns (uint256 basefee)',
  'function getBlockHash(uint256 blockNumber) view returns (bytes32 blockHash)',
  'function getLastBlockHash() view returns (bytes32 blockHash)',
  'function getCurrentBlockCoinbase() view returns (address coinbase)',
  'function getCurrentBlockGasLimit() view returns (uint256 gaslimit)',
  'function getCurrentBlockDifficulty() view returns (uint256 difficulty)',
]);

/** One inner call: its return data, or the revert error it raised. */
export type InnerCall = (target: string, data: Hex) => Promise<Hex>;

const hex32 = (bytes: Uint8Array): Hex => `0x${Buffer.from(bytes).toString('hex')}`;
const ZERO_HASH: Hex = `0x${'00'.repeat(32)}`;

/**
 * The block a Multicall3 call runs at (docs/eth.md "Block parameters"): its header answers the block
 * helpers (number, timestamp, base fee, BLOCKHASH window, …) and `balance` the NTV balances of
 * `getEthBalance`, both as of that block, as the contract read at that block would.
 */
export interface MulticallBlock {
  readonly header: BlockHeader;
  balance(account: Uint8Array): bigint | Promise<bigint>;
}

/** The head as Multicall3's block: what an `eth_call` without a past block reads. */
export function headBlock(chain: ChainApi): MulticallBlock {
  return { header: chain.headHeader, balance: (account) => chain.balance(account, new Uint8Array(32)) };
}

/**
 * The answer to `eth_call` at MULTICALL3_ADDRESS at `block` (the head unless a past block was named).
 * `call` runs an inner call as eth_call at the same block would.
 */
export async function callMulticall(chain: ChainApi, data: Hex, call: InnerCall, block: MulticallBlock = headBlock(chain)): Promise<Hex> {
  let decoded;
  try {
    decoded = decodeFunctionData({ abi: multicall3Abi, data });
  } catch {
    throw noSuchFunction(data.slice(0, 10), 'Multicall3 has aggregate, aggregate3, aggregate3Value, blockAndAggregate, tryAggregate, tryBlockAndAggregate and the get* helpers; or malformed arguments');
  }
  const header = block.header;
  const run = async (calls: ReadonlyArray<{ target: string; callData: Hex; allowFailure: boolean }>) => {
    if (calls.length > MAX_MULTICALL_CALLS) throw executionReverted(`Multicall3: at most ${MAX_MULTICALL_CALLS} calls`);
    const out: Array<{ success: boolean; returnData: Hex }> = [];
    for (const c of calls) {
      try {
        out.push({ success: true, returnData: await call(c.target, c.callData) });
      } catch (error) {
        if (!(error instanceof EthCallError) || error.reason !== 'EXECUTION_REVERTED') throw error;
        // Multicall3's own wording for a call that may not fail (Multicall3.sol).
        if (!c.allowFailure) throw executionReverted(`Multicall3: call failed`);
        out.push({ success: false, returnData: typeof error.data === 'string' ? (error.data as Hex) : '0x' });
      }
    }
    return out;
  };
  const strict = (calls: ReadonlyArray<{ target: string; callData: Hex }>, allowFailure = false) => run(calls.map((c) => ({ ...c, allowFailure })));
  const f = decoded.functionName;
  switch (f) {
    case 'aggregate': {
      const results = await strict(decoded.args[0]);
      return encodeFunctionResult({ abi: multicall3Abi, functionName: f, result: [BigInt(header.height), results.map((r) => r.returnData)] });
    }
    case 'aggregate3':
      return encodeFunctionResult({ abi: multicall3Abi, functionName: f, result: await run(decoded.args[0]) });
    case 'aggregate3Value': {
      // No value moves in a read: a call carrying one reverts, as with too little msg.value.
      if (decoded.args[0].some((c) => c.value !== 0n)) throw executionReverted('Multicall3: value mismatch');
      return encodeFunctionResult({ abi: multicall3Abi, functionName: f, result: await run(decoded.args[0]) });
    }
    case 'tryAggregate':
      return encodeFunctionResult({ abi: multicall3Abi, functionName: f, result: await strict(decoded.args[1], !decoded.args[0]) });
    case 'blockAndAggregate':
    case 'tryBlockAndAggregate': {
      const results = f === 'blockAndAggregate' ? await strict(decoded.args[0]) : await strict(decoded.args[1], !decoded.args[0]);
      return encodeFunctionResult({ abi: multicall3Abi, functionName: f, result: [BigInt(header.height), hex32(header.hash), results] });
    }
    case 'getEthBalance':
      return encodeFunctionResult({ abi: multicall3Abi, functionName: f, result: (await block.balance(accountOfEvm(decoded.args[0]))) * WEI_PER_NANO });
    case 'getBlockNumber':
      return encodeFunctionResult({ abi: multicall3Abi, functionName: f, result: BigInt(header.height) });
    case 'getCurrentBlockTimestamp':
      return encodeFunctionResult({ abi: multicall3Abi, functionName: f, result: BigInt(header.timestamp) });
    case 'getChainId':
      return encodeFunctionResult({ abi: multicall3Abi, functionName: f, result: BigInt(chain.chainId) });
    case 'getBasefee':
      return encodeFunctionResult({ abi: multicall3Abi, functionName: f, result: BigInt(header.baseFee) * WEI_PER_NANO });
    case 'getBlockHash':
    case 'getLastBlockHash': {
      // BLOCKHASH: the 256 blocks before the current one, else zero.
      const n = f === 'getBlockHash' ? decoded.args[0] : BigInt(header.height) - 1n;
      const known = n >= 0n && n < BigInt(header.height) && BigInt(header.height) - n <= 256n;
      const earlier = known ? await chain.blockByHeight(Number(n)) : undefined;
      return encodeFunctionResult({ abi: multicall3Abi, functionName: f, result: earlier ? hex32(earlier.header.hash) : ZERO_HASH });
    }
    case 'getCurrentBlockCoinbase':
      return encodeFunctionResult({ abi: multicall3Abi, functionName: f, result: evmOf(header.proposer) });
    case 'getCurrentBlockGasLimit':
      return encodeFunctionResult({ abi: multicall3Abi, functionName: f, result: BigInt(header.gasLimit) });
    case 'getCurrentBlockDifficulty':
      return encodeFunctionResult({ abi: multicall3Abi, functionName: f, result: 0n });
  }
}
