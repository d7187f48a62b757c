/**
 * eth_call on token addresses (spec §4.18; docs/eth.md "eth_call"): the read selectors of ERC-20
 * (and the ERC-165 probe wallets use to tell ERC-20 from ERC-721/1155) answered from native state.
 * ABI decoding and encoding are viem's.
 */
import { decodeFunctionData, encodeFunctionResult, erc20Abi, parseAbi, toFunctionSelector, type Hex } from 'viem';
import type { ChainApi } from '../chain/interface.js';
import type { RegisteredToken } from '../chain/token-registry.js';
import { executionReverted, noSuchFunction, type EthCallError } from './errors.js';
import { accountOfEvm, allowanceOfEvm, evmAllowance } from '../chain/evm/units.js';
import type { EvmAction } from '../chain/evm/transaction.js';
import { allowanceOf } from '../chain/allowances.js';
import { isBlacklisted, isPausedNow, stableProfile, stableRecord } from '../chain/stablecoins.js';

/**
 * Circle FiatToken's views, answered on STD-8 tokens (docs/stablecoins.md "EVM wallets"): the roles
 * as their EVM-form addresses (the account's last 20 bytes, facts.md "Addresses").
 */
const fiatTokenAbi = parseAbi([
  'function paused() view returns (bool)',
  'function isBlacklisted(address account) view returns (bool)',
  'function isMinter(address account) view returns (bool)',
  'function minterAllowance(address minter) view returns (uint256)',
  'function owner() view returns (address)',
  'function masterMinter() view returns (address)',
  'function pauser() view returns (address)',
  'function blacklister() view returns (address)',
  'function currency() view returns (string)',
]);
const FIAT_SELECTORS = new Set<string>(fiatTokenAbi.map((f) => toFunctionSelector(f)));
const evmForm = (account: Uint8Array): Hex => `0x${Buffer.from(account.subarray(12)).toString('hex')}`;
const sameAccount = (a: Uint8Array, b: Uint8Array) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
/** Runs an EVM call's action from `sender` through the core; throws the revert when it fails. */
export type Simulate = (sender: Uint8Array, action: EvmAction) => Promise<void>;

const erc165Abi = parseAbi(['function supportsInterface(bytes4 interfaceId) view returns (bool)']);
/** ERC-165's own interface ID; STD tokens are fungible, so not ERC-721 (0x80ac58cd) nor ERC-1155 (0xd9b67a26). */
const ERC165_ID = '0x01ffc9a7';
/**
 * Code shown for a token address: 0xfe (INVALID, so an EVM executing it halts at once) followed by
 * "ntv-std-token". Wallets check for non-empty code to treat an address as a contract.
 */
export const TOKEN_CODE_STUB: Hex = `0xfe${Buffer.from('ntv-std-token').toString('hex')}`;
/** The same for NFT and multi-token collections (docs/collections.md): "ntv-collection". */
export const COLLECTION_CODE_STUB: Hex = `0xfe${Buffer.from('ntv-collection').toString('hex')}`;

/**
 * The answer to a call on `token`, ABI-encoded. Reads answer from state; `transfer(to, amount)`,
 * `approve(spender, amount)` and `transferFrom(from, to, amount)` are simulated for the caller
 * (`from`, else the zero address as geth calls) through the core, as the transaction would execute
 * (`simulate`: src/eth/simulate.ts): true, or the revert OpenZeppelin's ERC20 would give
 * (wallets simulate before they send: viem simulateContract, wagmi; docs/eth.md "eth_call",
 * docs/allowances.md). Unknown selectors revert, as a contract without that function does.
 */
export async function callToken(chain: ChainApi, token: RegisteredToken, data: Hex, from: string | undefined, simulate: Simulate): Promise<Hex> {
  const selector = data.slice(0, 10).toLowerCase();
  if (selector === ERC165_ID) {
    const { args } = decode(erc165Abi, data, selector);
    return encodeFunctionResult({ abi: erc165Abi, functionName: 'supportsInterface', result: (args[0] as string).toLowerCase() === ERC165_ID });
  }
  const stable = stableRecord(chain.state, token.mint);
  if (stable && FIAT_SELECTORS.has(selector)) return callFiatToken(chain, token, stable, data, selector);
  const call = decode(erc20Abi, data, selector);
  switch (call.functionName) {
    case 'name':
      return encodeFunctionResult({ abi: erc20Abi, functionName: 'name', result: token.name });
    case 'symbol':
      return encodeFunctionResult({ abi: erc20Abi, functionName: 'symbol', result: token.symbol });
    case 'decimals':
      return encodeFunctionResult({ abi: erc20Abi, functionName: 'decimals', result: token.decimals });
    case 'totalSupply':
      return encodeFunctionResult({ abi: erc20Abi, functionName: 'totalSupply', result: token.totalSupply });
    case 'balanceOf':
      return encodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', result: chain.balance(accountOfEvm(call.args[0]), token.mint) });
    case 'transfer': {
      const [to, amount] = call.args;
      // Beyond u128 no account holds it; the bundle could not carry it either.
      if (amount >= 1n << 128n) throw executionReverted('ERC20: transfer amount exceeds balance');
      await simulate(accountOfEvm(from ?? ZERO_ADDRESS), { kind: 'token', to: accountOfEvm(to), mint: token.mint, amount });
      return encodeFunctionResult({ abi: erc20Abi, functionName: 'transfer', result: true });
    }
    case 'allowance': {
      const [owner, spender] = call.args;
      const allowance = allowanceOf(chain.state, accountOfEvm(owner), token.mint, accountOfEvm(spender));
      return encodeFunctionResult({ abi: erc20Abi, functionName: 'allowance', result: evmAllowance(allowance) });
    }
    case 'approve': {
      const [spender, amount] = call.args;
      await simulate(accountOfEvm(from ?? ZERO_ADDRESS), { kind: 'approve', spender: accountOfEvm(spender), mint: token.mint, amount: allowanceOfEvm(amount) });
      return encodeFunctionResult({ abi: erc20Abi, functionName: 'approve', result: true });
    }
    case 'transferFrom': {
      const [owner, to, amount] = call.args;
      if (amount >= 1n << 128n) throw executionReverted('ERC20: transfer amount exceeds balance');
      await simulate(accountOfEvm(from ?? ZERO_ADDRESS), { kind: 'transferFrom', from: accountOfEvm(owner), to: accountOfEvm(to), mint: token.mint, amount });
      return encodeFunctionResult({ abi: erc20Abi, functionName: 'transferFrom', result: true });
    }
  }
}

/** A FiatToken view on an STD-8 token. */
function callFiatToken(chain: ChainApi, token: RegisteredToken, s: NonNullable<ReturnType<typeof stableRecord>>, data: Hex, selector: string): Hex {
  let call;
  try {
    call = decodeFunctionData({ abi: fiatTokenAbi, data });
  } catch {
    throw unsupported(selector, 'malformed arguments of a FiatToken view');
  }
  const minter = (a: string) => s.minters.find((m) => sameAccount(m.minter, accountOfEvm(a)));
  switch (call.functionName) {
    case 'paused': return encodeFunctionResult({ abi: fiatTokenAbi, functionName: 'paused', result: isPausedNow(chain.state, token.mint) });
    case 'isBlacklisted': return encodeFunctionResult({ abi: fiatTokenAbi, functionName: 'isBlacklisted', result: isBlacklisted(chain.state, token.mint, accountOfEvm(call.args[0])) });
    case 'isMinter': return encodeFunctionResult({ abi: fiatTokenAbi, functionName: 'isMinter', result: minter(call.args[0]) !== undefined });
    case 'minterAllowance': return encodeFunctionResult({ abi: fiatTokenAbi, functionName: 'minterAllowance', result: minter(call.args[0])?.allowance ?? 0n });
    case 'owner': return encodeFunctionResult({ abi: fiatTokenAbi, functionName: 'owner', result: evmForm(s.owner) });
    case 'masterMinter': return encodeFunctionResult({ abi: fiatTokenAbi, functionName: 'masterMinter', result: evmForm(s.masterMinter) });
    case 'pauser': return encodeFunctionResult({ abi: fiatTokenAbi, functionName: 'pauser', result: evmForm(s.pauser) });
    case 'blacklister': return encodeFunctionResult({ abi: fiatTokenAbi, functionName: 'blacklister', result: evmForm(s.blacklister) });
    case 'currency': return encodeFunctionResult({ abi: fiatTokenAbi, functionName: 'currency', result: stableProfile(chain.state, token.mint)?.currency ?? '' });
  }
}

function decode<const A extends typeof erc20Abi | typeof erc165Abi>(abi: A, data: Hex, selector: string) {
  try {
    return decodeFunctionData({ abi, data }) as ReturnType<typeof decodeFunctionData<A>>;
  } catch {
    throw unsupported(selector, 'not a supported ERC-20 call (name, symbol, decimals, totalSupply, balanceOf, allowance, transfer, approve, transferFrom, supportsInterface) or malformed arguments');
  }
}

function unsupported(selector: string, why: string): EthCallError {
  return noSuchFunction(selector, why);
}
