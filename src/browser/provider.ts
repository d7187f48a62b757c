import { decodeFunctionData, encodeFunctionResult, erc20Abi, type Hex } from 'viem';
import { NATIVE_MINT, encodeAccount, encodeHash, encodeMint, parseAddress, parseMint } from '../codec/address.js';
import { bytesEqual, toHex } from '../codec/hash.js';
import { accountKey, decodeAccount, decodeTokenRecord, symbolKey, tokenKey } from '../core/records.js';
import { WEI_PER_NANO, accountOfEvm } from '../chain/evm/units.js';
import { ProofError } from '../client/proof.js';
import { RpcClientError } from '../client/rpc-client.js';
import { LightVerifyError } from '../light/header-trust.js';
import { HeightNotVerifiable, LightClient, type LightClientOptions } from './light-client.js';

/**
 * A verifying EIP-1193 provider (docs/light-client.md "The verifying provider"): `request()` answers
 * only what it can prove against a header its LightClient verified, and refuses the rest with an
 * error, never passing a call through to the node unverified. What it proves:
 *
 * | method | proven from |
 * |---|---|
 * | `eth_chainId`, `net_version` | the chain id of the verified headers |
 * | `eth_blockNumber` | the newest header verified (the client syncs to the node's head first) |
 * | `eth_getBalance` | the NTV balance record (`0x02 ‖ account ‖ 0…0`), × 10⁹ as eth_getBalance scales it |
 * | `eth_getTransactionCount` | the account record's nonce (absent: 0); `pending` is refused (the mempool is not state) |
 * | `eth_call` on a token address | ERC-20 `name`, `symbol`, `decimals`, `totalSupply` from the token record, `balanceOf` from the balance record |
 * | `svc_getBalance` | the balance record (at `height` when given); a symbol through the symbol record (`0x04 ‖ SYMBOL` → mint) |
 * | `svc_getTokenInfo` | the symbol record and the token record: the record's own fields |
 *
 * State is proven against the node's head, or, for a block number (or EIP-1898 `{blockNumber}`),
 * against the header this client verifies at that block, from the node's proof at that height (the
 * node proves past blocks in its state window, docs/storage.md "State history"): viem and ethers read
 * at `receipt.blockNumber`. A block the client cannot verify a header at (before its checkpoint in
 * headers mode), a tag it cannot pin (`pending`, `earliest`, a block hash) is refused. Token
 * addresses: an EVM token address is the mint's last 20 bytes (docs/eth.md "Token addresses"); the
 * mint is looked up in svc_listTokens and must end in those 20 bytes, then its record is proven.
 */

/** EIP-1193 "Unsupported Method": what the provider cannot prove. */
export const UNSUPPORTED_METHOD = 4200;
/** The node's answer does not verify (a lying or faulty node); JSON-RPC server-error range. */
export const VERIFICATION_FAILED = -32050;
/** Invalid params (JSON-RPC). */
const INVALID_PARAMS = -32602;

export class ProviderRpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
    this.name = 'ProviderRpcError';
  }
}

export interface RequestArguments {
  readonly method: string;
  readonly params?: readonly unknown[] | object;
}

const LATEST_TAGS = new Set(['latest', 'safe', 'finalized']);

export class VerifyingProvider {
  private listeners = new Map<string, Set<(...args: unknown[]) => void>>();

  constructor(readonly client: LightClient) {}

  /** A provider over a new LightClient (headers mode by default; give `checkpoint` to start from one). */
  static async create(options: LightClientOptions): Promise<VerifyingProvider> {
    return new VerifyingProvider(await LightClient.create(options));
  }

  async request(args: RequestArguments): Promise<unknown> {
    const params = Array.isArray(args.params) ? (args.params as unknown[]) : [];
    try {
      return await this.answer(args.method, params);
    } catch (error) {
      if (error instanceof ProviderRpcError) throw error;
      if (error instanceof HeightNotVerifiable) throw new ProviderRpcError(UNSUPPORTED_METHOD, `${args.method}: ${error.message}, so state at it cannot be proven`);
      // The node's own refusal (a block above its head, below its state window): its code and words.
      if (error instanceof RpcClientError) throw new ProviderRpcError(error.code, `${args.method}: the node refused: ${error.message}`, error.data);
      if (error instanceof ProofError || error instanceof LightVerifyError) {
        throw new ProviderRpcError(VERIFICATION_FAILED, `${args.method}: the node's answer does not verify: ${error.message}`);
      }
      throw new ProviderRpcError(VERIFICATION_FAILED, `${args.method}: could not be verified: ${(error as Error).message}`);
    }
  }

  /** EIP-1193 events: none are emitted (no subscriptions are proven); listeners are kept so libraries may register them. */
  on(event: string, listener: (...args: unknown[]) => void): this {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)!.add(listener);
    return this;
  }

  removeListener(event: string, listener: (...args: unknown[]) => void): this {
    this.listeners.get(event)?.delete(listener);
    return this;
  }

  private async answer(method: string, params: unknown[]): Promise<unknown> {
    switch (method) {
      case 'eth_chainId':
        return `0x${this.client.chainId.toString(16)}`;
      case 'net_version':
        return String(this.client.chainId);
      case 'eth_blockNumber':
        await this.client.sync();
        return `0x${this.client.height.toString(16)}`;
      case 'eth_getBalance': {
        const account = accountOfEvm(evmAddress(params[0], 'address'));
        const { balance } = await this.balance(account, NATIVE_MINT, params[1]);
        return `0x${(balance * WEI_PER_NANO).toString(16)}`;
      }
      case 'eth_getTransactionCount': {
        const account = accountOfEvm(evmAddress(params[0], 'address'));
        if (params[1] === 'pending') throw new ProviderRpcError(UNSUPPORTED_METHOD, 'eth_getTransactionCount "pending" counts the node\'s mempool, which no proof covers: ask for "latest"');
        const { value } = await this.proven(accountKey(account), params[1]);
        return `0x${(value === undefined ? 0n : decodeAccount(value).nonce).toString(16)}`;
      }
      case 'eth_call':
        return this.call(params);
      case 'svc_getBalance': {
        const account = nativeAddress(params[0]);
        const mint = await this.mintOf(typeof params[1] === 'string' ? params[1] : 'NTV');
        // [address, token?, height?] as the node takes it: a height proves the balance as of that block
        const at = params[2] === undefined || params[2] === null ? 'latest' : typeof params[2] === 'number' ? `0x${params[2].toString(16)}` : params[2];
        return (await this.balance(account, mint, at)).balance.toString();
      }
      case 'svc_getTokenInfo': {
        if (typeof params[0] !== 'string') throw new ProviderRpcError(INVALID_PARAMS, 'svc_getTokenInfo: symbol_or_mint must be a string');
        return this.tokenInfo(await this.mintOf(params[0]));
      }
      default:
        throw new ProviderRpcError(UNSUPPORTED_METHOD, `${method} cannot be proven by the light client, so it is not answered (docs/light-client.md "The verifying provider"); ask a node directly if its word is enough`);
    }
  }

  /** A state value proven against a verified header, with the key checked to be the one asked. */
  private async proven(key: Uint8Array, tag?: unknown): Promise<{ value: Uint8Array | undefined; height: number }> {
    const { value, height, key: provenKey } = await this.client.verifiedValue(`0x${toHex(key)}`, undefined, blockTag(tag));
    if (!bytesEqual(provenKey, key)) throw new ProofError(`the proof is of key ${toHex(provenKey)}, not the key asked ${toHex(key)}`);
    return { value, height };
  }

  private async balance(account: Uint8Array, mint: Uint8Array, tag: unknown): Promise<{ balance: bigint; height: number }> {
    const { balance, height } = await this.client.verifiedBalance(`0x${toHex(account)}`, `0x${toHex(mint)}`, blockTag(tag));
    return { balance, height };
  }

  /** A symbol (proven through its symbol record) or a mint address. */
  private async mintOf(symbolOrMint: string): Promise<Uint8Array> {
    if (symbolOrMint.startsWith('Nx1') || /^0x[0-9a-fA-F]{64}$/.test(symbolOrMint)) return parseMint(symbolOrMint);
    if (symbolOrMint.toUpperCase() === 'NTV') return NATIVE_MINT;
    const { value } = await this.proven(symbolKey(symbolOrMint));
    if (value === undefined || value.length !== 32) throw new ProviderRpcError(INVALID_PARAMS, `unknown token "${symbolOrMint}": proven absent from the symbol records`);
    return value;
  }

  private async tokenInfo(mint: Uint8Array): Promise<Record<string, unknown>> {
    const { value, height } = await this.proven(tokenKey(mint));
    if (value === undefined) throw new ProviderRpcError(INVALID_PARAMS, `no token has mint ${encodeMint(mint)}: proven absent`);
    const t = decodeTokenRecord(value);
    const header = this.client.header(height)!;
    return {
      name: t.name, symbol: t.symbol, decimals: t.decimals, mint_address: encodeMint(mint),
      evm_address: bytesEqual(mint, NATIVE_MINT) ? null : `0x${toHex(mint.subarray(12))}`,
      total_supply: t.totalSupply.toString(), initial_supply: t.initialSupply.toString(),
      creator: encodeAccount(t.creator), owner: encodeAccount(t.owner), created_at: Number(t.createdAt), created_height: Number(t.createdHeight),
      is_mutable: (t.flags & 1) === 1, origin_chain: t.originChain || null, origin_contract: t.originContract || null,
      verified: { height, block_hash: encodeHash(header.hash), state_root: encodeHash(header.stateRoot) },
    };
  }

  /** eth_call: the ERC-20 reads of a token, each from a proven record. */
  private async call(params: unknown[]): Promise<Hex> {
    const call = params[0] as { to?: unknown; data?: unknown; input?: unknown } | undefined;
    if (!call || typeof call !== 'object') throw new ProviderRpcError(INVALID_PARAMS, 'eth_call: the first param must be a call object');
    const to = evmAddress(call.to, 'to');
    const data = (typeof call.input === 'string' ? call.input : typeof call.data === 'string' ? call.data : '0x') as Hex;
    let decoded;
    try {
      decoded = decodeFunctionData({ abi: erc20Abi, data });
    } catch {
      throw new ProviderRpcError(UNSUPPORTED_METHOD, `eth_call: selector ${data.slice(0, 10)} is not an ERC-20 read the light client proves (name, symbol, decimals, totalSupply, balanceOf)`);
    }
    const mint = await this.tokenMint(to);
    switch (decoded.functionName) {
      case 'balanceOf': {
        const { balance } = await this.balance(accountOfEvm(decoded.args[0]), mint, params[1]);
        return encodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', result: balance });
      }
      case 'name':
      case 'symbol':
      case 'decimals':
      case 'totalSupply': {
        const { value } = await this.proven(tokenKey(mint), params[1]);
        if (value === undefined) throw new ProofError(`the token record of ${encodeMint(mint)} is proven absent`);
        const t = decodeTokenRecord(value);
        const result = { name: t.name, symbol: t.symbol, decimals: t.decimals, totalSupply: t.totalSupply }[decoded.functionName];
        return encodeFunctionResult({ abi: erc20Abi, functionName: decoded.functionName, result } as never);
      }
      default:
        throw new ProviderRpcError(UNSUPPORTED_METHOD, `eth_call: ${decoded.functionName} is not a read the light client proves (name, symbol, decimals, totalSupply, balanceOf)`);
    }
  }

  /** The mint of an EVM token address: named by the node (svc_listTokens), checked to end in the address's 20 bytes. */
  private readonly mints = new Map<string, Uint8Array>();

  private async tokenMint(address: string): Promise<Uint8Array> {
    const key = address.toLowerCase();
    const known = this.mints.get(key);
    if (known) return known;
    const tokens = await this.client.rpc.call<Array<{ evm_address: string | null; mint_address: string }>>('svc_listTokens', [1000]);
    const named = tokens.find((t) => t.evm_address?.toLowerCase() === key);
    if (!named) throw new ProviderRpcError(UNSUPPORTED_METHOD, `eth_call: ${address} is not a token the node lists, and the absence of a token cannot be proven`);
    const mint = parseMint(named.mint_address);
    if (`0x${toHex(mint.subarray(12))}` !== key) throw new ProofError(`the node names mint ${named.mint_address} for ${address}, which does not end in that address`);
    this.mints.set(key, mint);
    return mint;
  }
}

function evmAddress(value: unknown, name: string): string {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) throw new ProviderRpcError(INVALID_PARAMS, `${name} must be an EVM address (0x + 40 hex digits)`);
  return value;
}

function nativeAddress(value: unknown): Uint8Array {
  if (typeof value !== 'string') throw new ProviderRpcError(INVALID_PARAMS, 'address must be a string');
  try {
    return parseAddress(value);
  } catch (error) {
    throw new ProviderRpcError(INVALID_PARAMS, `address: ${(error as Error).message}`);
  }
}

/** undefined: the head (latest, safe, finalized, or absent); a number: that height; else refused. */
function blockTag(tag: unknown): number | undefined {
  if (tag === undefined || tag === null || (typeof tag === 'string' && LATEST_TAGS.has(tag))) return undefined;
  if (typeof tag === 'string' && /^0x[0-9a-fA-F]+$/.test(tag)) return height(tag);
  if (typeof tag === 'object' && tag !== null && 'blockNumber' in tag && typeof (tag as { blockNumber: unknown }).blockNumber === 'string') {
    const number = (tag as { blockNumber: string }).blockNumber;
    if (/^0x[0-9a-fA-F]+$/.test(number)) return height(number);
  }
  throw new ProviderRpcError(UNSUPPORTED_METHOD, `block ${JSON.stringify(tag)} cannot be proven: give latest or a block number (a hash or pending names no height the client verifies)`);
}

function height(hex: string): number {
  const n = Number.parseInt(hex, 16);
  if (!Number.isSafeInteger(n)) throw new ProviderRpcError(INVALID_PARAMS, `block ${hex} is not a height`);
  return n;
}

