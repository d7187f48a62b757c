import { Type } from '@sinclair/typebox';
import { encodeAccount, encodeEvm, encodeHash, encodeMint, parseAddressDetailed, parseHash } from '../../codec/address.js';
import type { ChainApi, DomainReaders } from '../../chain/interface.js';
import type { Receipt } from '../../chain/receipts.js';
import { ChainError } from '../../chain/errors.js';
import { encodeCollection } from '../../domains/collections/reader.js';
import { encodePool } from '../../core/amm.js';
import { tokenMovements } from '../../chain/token-movements.js';
import { decodeBundle } from '../../codec/bundle.js';
import { ethHashOf, evmTransactionOf } from '../../chain/evm/bundles.js';
import { CollectionSchema, formatCollection } from '../../domains/collections/collection-rpc.js';
import { APP_ERRORS } from '../errors.js';
import { defineMethod, type MethodDefinition } from '../registry.js';
import { Height, Limit } from '../schemas.js';
import type { MethodDependencies } from './context.js';
import { formatHeader, formatToken } from './format.js';
import { AccountParam, TokenParam } from './params.js';
import { HeaderSchema, ReceiptSchema, TokenSchema } from './result-schemas.js';

const tokenRef = () => Type.String({
  minLength: 1, maxLength: 64,
  description: 'Token symbol (any case, e.g. NTV, USDC) or mint address (Nx1… or 0x + 64 hex).',
});

const HistoryEntrySchema = Type.Object({
  ...ReceiptSchema.properties,
  role: Type.Union([Type.Literal('sender'), Type.Literal('recipient'), Type.Literal('participant')], {
    description: 'sender: the bundle is from the address; recipient: a token movement of it pays the address (a Transfer, a swap\'s output, removed liquidity…; docs/explorer.md); participant: another event names it',
  }),
  transfers: Type.Array(Type.Object({
    direction: Type.Union([Type.Literal('in'), Type.Literal('out'), Type.Literal('self')], { description: 'in: paid to the address; out: paid by it; self: both sides are the address' }),
    counterparty: Type.String({ description: 'the other side: Nx0… account, Nx8… pool, 0x… system account' }),
    token: Type.String({ description: 'Nx1… mint' }),
    symbol: Type.Union([Type.String(), Type.Null()]),
    decimals: Type.Union([Type.Integer(), Type.Null()], { description: 'the token\'s decimals; amounts are raw units' }),
    amount: Type.String({ description: 'raw units, decimal' }),
    event: Type.String({ description: 'the receipt event that moved the token' }),
  }), { description: 'the token movements of the bundle that touch the address (docs/explorer.md "Token transfers"), in event order; the fee is `fee`' }),
}, { title: 'HistoryEntry', additionalProperties: false });

const TokenTransferSchema = Type.Object({
  bundle_hash: Type.String({ description: 'Nxh… bundle that holds the transfer' }),
  block_height: Type.Integer(),
  index: Type.Integer({ description: 'position of the bundle in the block' }),
  timestamp: Type.Integer({ description: 'block time, unix seconds' }),
  status: Type.Union([Type.Literal('success'), Type.Literal('failed')]),
  op_index: Type.Union([Type.Integer(), Type.Null()]),
  event: Type.String({ description: 'the receipt event that moved the token: Transfer, TokenCreated, PoolCreated, LiquidityAdded, LiquidityRemoved or Swap' }),
  from: Type.String(), to: Type.String(), token: Type.String({ description: 'Nx1… mint' }),
  symbol: Type.Optional(Type.String()), amount: Type.String({ description: 'raw units, decimal' }),
}, { title: 'TokenTransfer' });

const SearchResultSchema = Type.Union([
  Type.Object({ type: Type.Literal('block'), height: Type.Integer(), hash: Type.String(), block: HeaderSchema }),
  Type.Object({
    type: Type.Literal('transaction'), bundle_hash: Type.String(), block_height: Type.Integer(),
    evm_hash: Type.Union([Type.String(), Type.Null()], { description: 'keccak hash EVM wallets know the transaction by, when the bundle carries a signed EVM transaction (docs/eth.md "Hashes"); else null' }),
    receipt: ReceiptSchema,
  }),
  Type.Object({
    type: Type.Literal('address'), address: Type.String(), evm_address: Type.String(),
    nonce: Type.String(), balance: Type.String({ description: 'NTV, raw units' }),
  }),
  Type.Object({ type: Type.Literal('token'), mint_address: Type.String(), symbol: Type.String(), token: TokenSchema }),
  Type.Object({ type: Type.Literal('collection'), address: Type.String(), collection: CollectionSchema }),
  Type.Object({ type: Type.Literal('not_found'), query: Type.String() }),
], { title: 'SearchResult' });

/** The maximum query length of svc_search: a base58 hash is 47 characters, a 0x hash 66. */
const MAX_QUERY = 128;

/** Spec §4.11: blocks, network statistics, and the index-backed explorer reads (docs/explorer.md). */
export function explorerMethods({ chain, readers, network, p2p }: MethodDependencies): MethodDefinition[] {
  /** Params parsed once (issue 44 item 4): a token as its registry entry (UNKNOWN_TOKEN when none). */
  const TokenRef = () => TokenParam(readers.tokens, tokenRef());
  return [
    defineMethod({
      name: 'svc_getBlockByHeight',
      summary: 'A block by height with its bundle hashes and transaction statistics, or null (spec §4.11).',
      description: 'Reads the header of the block at `height`, its bundle hashes in order and counts of succeeded and failed bundles, fees and'
        + ' transfers (spec §4.11); null above the head. No application errors.',
      params: [{ name: 'height', schema: Height() }] as const,
      result: {
        description: 'header plus `transactions` (bundle hashes) and `tx_stats {total, succeeded, failed, total_fees, transfers}`, or `null`',
        name: 'block',
        schema: Type.Union([Type.Intersect([HeaderSchema, Type.Object({
          transactions: Type.Array(Type.String({ description: 'Nxh… bundle hashes in block order' })),
          tx_stats: Type.Object({
            total: Type.Integer(), succeeded: Type.Integer(), failed: Type.Integer(),
            total_fees: Type.String({ description: 'raw NTV units' }), transfers: Type.Integer(),
          }),
        })]), Type.Null()]),
      },
      handler: async ([height]) => {
        const block = await chain.blockByHeight(height);
        if (!block) return null;
        const receipts = (await chain.blockReceipts(block)).filter((r) => r !== undefined);
        let failed = 0;
        let fees = 0n;
        let transfers = 0;
        for (const r of receipts) {
          if (r.status === 'failed') failed++;
          fees += BigInt(r.fee);
          transfers += r.events.filter((e) => e.type === 'Transfer').length;
        }
        return {
          ...formatHeader(block.header),
          transactions: block.bundleHashes.map(encodeHash),
          tx_stats: { total: receipts.length, succeeded: receipts.length - failed, failed, total_fees: fees.toString(), transfers },
        };
      },
    }),
    defineMethod({
      name: 'svc_getRecentBlocks',
      summary: 'Headers of the latest blocks, newest first (spec §4.11).',
      paramsNote: '(default 10)',
      description: 'Headers of the newest blocks, newest first (spec §4.11); limit 1–1000, default 10. No application errors.',
      params: [{ name: 'limit', schema: Limit({ default: 10 }), required: false }] as const,
      result: {
        name: 'blocks', schema: Type.Array(HeaderSchema),
        description: 'headers, newest first',
      },
      handler: async ([limit]) => (await chain.recentHeaders(limit ?? 10)).map(formatHeader),
    }),
    defineMethod({
      name: 'svc_getNetworkStats',
      summary: 'Height, chain, peers, validators, mempool and throughput figures (spec §4.11; facts.md camelCase keys).',
      description: 'Explorer summary (spec §4.11, facts.md camelCase keys): height, chain, peers, validators, mempool size, bundles ever included,'
        + ' average block time over recent blocks, base fee in nanoNTV per gas, tokens, and the head\'s state root, hash and time. No'
        + ' application errors.',
      params: [] as const,
      result: {
        description: '`{blockHeight, chainId, network, peerCount, validatorCount, mempoolSize, totalTransactions, averageBlockTime, gasPrice,'
          + ' tokenCount, stateRoot, latestBlockHash, latestBlockTime, historyFromHeight}`; `historyFromHeight` is the oldest block held, 0'
          + ' from genesis (docs/explorer.md "Where history starts"); `averageBlockTime` leaves genesis out and is the configured'
          + ' `--block-time` until two blocks follow genesis (docs/explorer.md "Network stats")',
        name: 'stats',
        schema: Type.Object({
          blockHeight: Type.Integer(), chainId: Type.Integer(), network: Type.String(), peerCount: Type.Integer(),
          validatorCount: Type.Integer(), mempoolSize: Type.Integer(), totalTransactions: Type.Integer(),
          averageBlockTime: Type.Number({ description: 'mean seconds between recent blocks after genesis; the configured idle block time until two such blocks exist' }), gasPrice: Type.Integer(),
          tokenCount: Type.Integer(), stateRoot: Type.String(), latestBlockHash: Type.String(), latestBlockTime: Type.Integer(),
          historyFromHeight: Type.Integer({ description: 'the lowest height whose bundles the explorer lists: 0 from genesis, else where this node was restored (snapshot or export) or pruned to (docs/explorer.md "Where history starts")' }),
        }),
      },
      handler: () => {
        const head = chain.headHeader;
        return {
          blockHeight: head.height,
          chainId: chain.chainId,
          network,
          peerCount: p2p?.connectedPeers().length ?? 0,
          validatorCount: 1,
          mempoolSize: chain.mempoolSize,
          totalTransactions: chain.transactionCount,
          averageBlockTime: Math.round(chain.averageBlockTime() * 1000) / 1000,
          gasPrice: Number(chain.gasPrice),
          tokenCount: readers.tokens.size,
          stateRoot: encodeHash(head.stateRoot),
          latestBlockHash: encodeHash(head.hash),
          latestBlockTime: head.timestamp,
          historyFromHeight: chain.oldestBlock,
        };
      },
    }),
    defineMethod({
      name: 'svc_getRecentTransactions',
      summary: 'Receipts of the latest bundles across blocks, newest first (spec §4.11).',
      paramsNote: '(default 20)',
      description: 'Receipts of the newest bundles across blocks, newest first (spec §4.11); limit 1–1000, default 20. No application errors.',
      params: [{ name: 'limit', schema: Limit({ default: 20 }), required: false }] as const,
      result: {
        name: 'receipts', schema: Type.Array(ReceiptSchema),
        description: 'receipts of the latest bundles across blocks, newest first',
      },
      handler: async ([limit]) => chain.indexer.recentTransactions(limit ?? 20),
    }),
    defineMethod({
      name: 'svc_getBlockTransactions',
      summary: 'Receipts of the bundles of one block in block order; null when no block has that height (spec §4.11).',
      description: 'Receipts of every bundle of the block at `height`, in block order (spec §4.11); null above the head. No application errors.',
      params: [{ name: 'height', schema: Height() }] as const,
      result: {
        name: 'receipts', schema: Type.Union([Type.Array(ReceiptSchema), Type.Null()]),
        description: 'the block\'s receipts in block order; `[]` for a block without bundles, `null` above the head',
      },
      handler: async ([height]) => (height > chain.height ? null : chain.indexer.blockTransactions(height)),
    }),
    defineMethod({
      name: 'svc_getAddressHistory',
      summary: 'Bundles that involve an address, newest first: sent by it, paying it, or naming it in an event (spec §4.11).',
      description: 'Fee events are not history: they would name the proposer and the treasury in every bundle. While the '
        + 'history index is built behind a catch-up sync (with the transaction lookup index) the answer is -32000 (data.reason TX_INDEXING). '
        + 'A node restored from a snapshot or an export, or pruned, holds history from one height on only: with with_range true the '
        + 'answer is {history_from_height, head_height, history} and says so (0: from genesis); without it, the list alone (docs/explorer.md "Where history starts").'
        + ' Each entry is the receipt plus the address\'s role and its transfers with direction, counterparty and token decimals (spec'
        + ' §4.11). Errors: SERVER_BUSY while indexing.',
      paramsNote: '(default 100, none, false; `before` `{block_height, index}` of the last entry of the previous page)',
      params: [
        { name: 'address', schema: AccountParam() },
        { name: 'limit', schema: Limit({ default: 100 }), required: false },
        {
          name: 'before',
          schema: Type.Object({ block_height: Type.Integer({ minimum: 0 }), index: Type.Integer({ minimum: 0 }) }, {
            additionalProperties: false,
            description: 'Paging: only bundles older than this one; pass the block_height and index of the last entry of the previous page.',
          }),
          required: false,
        },
        { name: 'with_range', schema: Type.Boolean({ description: 'answer {history_from_height, head_height, history} instead of the list alone (default false)' }), required: false },
      ] as const,
      result: {
        description: 'receipts of the bundles sent by, paying, or naming the address in an event (not Fee), newest first (older than `before` when'
          + ' given: paging), each with `role` (`sender` | `recipient` | `participant`) and `transfers` (the token movements touching the'
          + ' address: `{direction: in | out | self, counterparty, token, symbol, decimals, amount, event}`); with `with_range` true'
          + ' `{history_from_height, head_height, history}` (where this node\'s history starts: 0 from genesis, else its restore or pruning'
          + ' height; docs/explorer.md "Where history starts"); -32000 TX_INDEXING while the index is built behind a catch-up sync'
          + ' (docs/storage.md)',
        name: 'history',
        schema: Type.Union([Type.Array(HistoryEntrySchema), Type.Object({
          history_from_height: Type.Integer({ description: 'the lowest height whose bundles this node lists: 0 from genesis, else where it was restored or pruned to' }),
          head_height: Type.Integer(),
          history: Type.Array(HistoryEntrySchema),
        })]),
      },
      errors: [APP_ERRORS.SERVER_BUSY.code],
      handler: async ([account, limit, before, withRange]) => {
        // A pool (asked by its 0x 32-byte form) is named Nx8… in the receipts.
        const names = [encodeAccount(account), encodePool(account)];
        const head = chain.height;
        const after = before ? { height: before.block_height, index: before.index } : undefined;
        const history = (await chain.indexer.addressHistory(account, limit ?? 100, after)).map((receipt) => ({
          ...receipt, role: roleOf(receipt, names), transfers: transfersOf(readers, receipt, names),
        }));
        return withRange ? { history_from_height: chain.oldestBlock, head_height: head, history } : history;
      },
    }),
    defineMethod({
      name: 'svc_getTokenHolders',
      summary: 'Holders of a token by balance, largest first (spec §4.11); the token by symbol or mint.',
      paramsNote: '(default 100) — symbol or mint',
      description: 'Accounts holding a token, largest balance first (spec §4.11); limit 1–1000, default 100. Errors: UNKNOWN_TOKEN.',
      params: [
        { name: 'token_mint', schema: TokenRef() },
        { name: 'limit', schema: Limit({ default: 100 }), required: false },
      ] as const,
      result: {
        description: '`[{address, balance}]`, balance descending; `-32009` for an unknown token',
        name: 'holders',
        schema: Type.Array(Type.Object({ address: Type.String(), balance: Type.String({ description: 'raw units, decimal' }) })),
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code],
      handler: async ([token, limit]) => {
        const holders = await chain.indexer.tokenHolders(token.mint, limit ?? 100);
        return holders.map((h) => ({ address: encodeAccount(h.address), balance: h.balance.toString() }));
      },
    }),
    defineMethod({
      name: 'svc_getTokenTransfers',
      summary: 'Transfer events of a token, newest first (spec §4.11); the token by symbol or mint.',
      description: 'While the index is built behind a catch-up sync (with the transaction lookup index) the answer is -32000 (data.reason TX_INDEXING).'
        + ' Each entry names the bundle, block, operation and event (Transfer, Swap legs, liquidity moves). Errors: UNKNOWN_TOKEN,'
        + ' SERVER_BUSY while indexing.',
      paramsNote: '(default 100) — symbol or mint',
      params: [
        { name: 'token_mint', schema: TokenRef() },
        { name: 'limit', schema: Limit({ default: 100 }), required: false },
      ] as const,
      result: {
        name: 'transfers', schema: Type.Array(TokenTransferSchema),
        description: '`[{bundle_hash, block_height, index, timestamp, status, op_index, from, to, token, symbol?, amount}]`, newest first; -32000'
          + ' TX_INDEXING while the index is built behind a catch-up sync',
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.SERVER_BUSY.code],
      handler: async ([token, limit]) => {
        const max = limit ?? 100;
        // Swaps and liquidity are indexed by pool (docs/explorer.md "Token transfers"): the token's pools are read too.
        const pools = [...readers.dex.pools.values()].filter((p) => Buffer.compare(p.token0, token.mint) === 0 || Buffer.compare(p.token1, token.mint) === 0);
        const out = [];
        for (const { receipt, eventIndex } of await chain.indexer.tokenTransfers([token.mint, ...pools.map((p) => p.address)], max)) {
          const event = receipt.events[eventIndex];
          if (!event) continue;
          for (const m of tokenMovements(event)) {
            if (m.token !== token.mintAddress || out.length >= max) continue;
            out.push({
              bundle_hash: receipt.bundle_hash, block_height: receipt.block_height, index: receipt.index, timestamp: receipt.timestamp,
              status: receipt.status, op_index: event.op_index, event: event.type, from: m.from, to: m.to, token: m.token,
              symbol: token.symbol, amount: m.amount,
            });
          }
        }
        return out;
      },
    }),
    defineMethod({
      name: 'svc_getAddressTokens',
      summary: 'Every token an address holds, with symbol, decimals and balance; NTV first, then by symbol (spec §4.11).',
      description: 'Every token with a non-zero balance at the address, NTV first then by symbol, with name and decimals for display (spec §4.11). No'
        + ' application errors.',
      params: [{ name: 'address', schema: AccountParam() }] as const,
      result: {
        description: '`[{mint_address, symbol, name, decimals, balance}]` of every non-zero balance, NTV first, then by symbol',
        name: 'tokens',
        schema: Type.Array(Type.Object({
          mint_address: Type.String(), symbol: Type.String(), name: Type.String(), decimals: Type.Integer(),
          balance: Type.String({ description: 'raw units, decimal' }),
        })),
      },
      handler: async ([account]) => {
        const out = [];
        for (const mint of await chain.indexer.tokensHeld(account)) {
          const token = readers.tokens.byMintBytes(mint);
          // The balance is the state's, exact; the index only says which mints to look at.
          const balance = chain.balance(account, mint);
          if (!token || balance === 0n) continue;
          out.push({ mint_address: token.mintAddress, symbol: token.symbol, name: token.name, decimals: token.decimals, balance: balance.toString() });
        }
        return out.sort((a, b) => Number(b.mint_address === NTV_MINT_ADDRESS) - Number(a.mint_address === NTV_MINT_ADDRESS)
          || a.symbol.localeCompare(b.symbol) || a.mint_address.localeCompare(b.mint_address));
      },
    }),
    defineMethod({
      name: 'svc_search',
      summary: 'What a query names: a height, a bundle or block hash, an address, a mint or a token symbol (spec §4.11).',
      description: 'Answers {type: "block" | "transaction" | "address" | "token" | "collection" | "not_found", …}; not_found is a result, '
        + 'not an error, so a search box needs one code path. Order: digits are a height (then a symbol); a 32-byte hash is a bundle '
        + '(0x form: also the keccak hash of an EVM transaction), then a block, then (0x form) a collection, a mint or an account with '
        + 'any state; Nx2… is a collection; 0x + 40 hex is a collection\'s or a token\'s EVM address when one exists; Nx0… and other '
        + '0x + 40 hex are always an address.'
        + ' Spec §4.11. No application errors: an unmatched query is {type: "not_found"}.',
      paramsNote: '— 1–128 characters or a non-negative integer',
      params: [{
        name: 'query',
        schema: Type.Union([Type.String({ minLength: 1, maxLength: MAX_QUERY }), Type.Integer({ minimum: 0 })], {
          description: 'a height, Nxh…/0x hash, Nx0…/0x address, Nx1… mint, Nx2… collection or token symbol',
        }),
      }] as const,
      result: {
        name: 'match', schema: SearchResultSchema,
        description: '`{type: "block" | "transaction" | "address" | "token" | "collection" | "not_found", …}`; an unknown query is the result `{type:'
          + ' "not_found", query}`, not an error; finds EVM transaction hashes (a `transaction` answer carries `evm_hash`) and tokens by their'
          + ' ERC-20 address (docs/explorer.md)',
      },
      handler: async ([query]) => search(chain, readers, typeof query === 'number' ? String(query) : query.trim()),
    }),
  ];
}

const NTV_MINT_ADDRESS = encodeMint(new Uint8Array(32));

function roleOf(receipt: Receipt, names: readonly string[]): 'sender' | 'recipient' | 'participant' {
  if (names.includes(receipt.from)) return 'sender';
  return receipt.events.some((e) => tokenMovements(e).some((m) => names.includes(m.to))) ? 'recipient' : 'participant';
}

/** The token movements of a receipt that touch one of `names` (the address's forms), with direction and the other side. */
function transfersOf(readers: DomainReaders, receipt: Receipt, names: readonly string[]) {
  const out = [];
  for (const event of receipt.events) {
    for (const m of tokenMovements(event)) {
      const fromUs = names.includes(m.from);
      const toUs = names.includes(m.to);
      if (!fromUs && !toUs) continue;
      const token = readers.tokens.resolve(m.token);
      out.push({
        direction: fromUs && toUs ? 'self' as const : fromUs ? 'out' as const : 'in' as const,
        counterparty: fromUs ? m.to : m.from,
        token: m.token, symbol: token?.symbol ?? null, decimals: token?.decimals ?? null, amount: m.amount, event: event.type,
      });
    }
  }
  return out;
}

type SearchResult = typeof SearchResultSchema.static;

/** A transaction search answer; `evm_hash` from the bundle itself, so a bundle-hash search shows it too. */
async function transactionResult(chain: ChainApi, receipt: Receipt): Promise<SearchResult> {
  const block = await chain.blockByHeight(receipt.block_height);
  const raw = block?.bundles[receipt.index];
  const bundle = raw ? decodeBundle(raw) : undefined;
  const evmHash = bundle && evmTransactionOf(bundle) ? ethHashOf(bundle, block!.bundleHashes[receipt.index]!) : null;
  return { type: 'transaction', bundle_hash: receipt.bundle_hash, block_height: receipt.block_height, evm_hash: evmHash, receipt };
}

async function search(chain: ChainApi, readers: DomainReaders, query: string): Promise<SearchResult> {
  const notFound: SearchResult = { type: 'not_found', query };
  if (/^[0-9]{1,16}$/.test(query)) {
    const height = Number(query);
    if (height <= chain.height) {
      const block = await chain.blockByHeight(height);
      if (block) return { type: 'block', height, hash: encodeHash(block.header.hash), block: formatHeader(block.header) };
    }
  }
  const hashLike = query.startsWith('Nxh') || /^0x[0-9a-fA-F]{64}$/.test(query);
  if (hashLike) {
    let hash: Uint8Array | undefined;
    try {
      hash = parseHash(query);
    } catch {
      return notFound;
    }
    // A bundle hash, or the keccak hash an EVM wallet knows the transaction by (docs/eth.md "Hashes").
    const bundleHash = query.startsWith('0x') ? (await chain.bundleHashOfEthHash(hash)) ?? hash : hash;
    const receipt = await chain.receipt(bundleHash);
    if (receipt) return transactionResult(chain, receipt);
    const height = await chain.indexer.heightOfBlockHash(hash);
    if (height !== undefined) {
      const block = await chain.blockByHeight(height);
      if (block) return { type: 'block', height, hash: encodeHash(block.header.hash), block: formatHeader(block.header) };
    }
    if (query.startsWith('Nxh')) return notFound;
  }
  // An NFT or multi-token collection (docs/collections.md): Nx2…, or its 0x form (32 bytes, or the 20-byte
  // EVM form wallets show) when a collection holds it; otherwise a 0x query goes on as an address.
  const collection = readers.collections.byText(query);
  if (collection) return { type: 'collection', address: encodeCollection(collection.address), collection: formatCollection(collection) };
  if (query.startsWith('Nx2')) return notFound;
  // A token's ERC-20 contract address (docs/eth.md "Token addresses"), as MetaMask links /token/<0x…>.
  const evmToken = /^0x[0-9a-fA-F]{40}$/.test(query) ? readers.evmTokens.lookup(query) : undefined;
  if (evmToken) return { type: 'token', mint_address: evmToken.mintAddress, symbol: evmToken.symbol, token: formatToken(evmToken, chain.state) };
  if (/^(Nx[01]|0x)/.test(query)) {
    let parsed: ReturnType<typeof parseAddressDetailed>;
    try {
      parsed = parseAddressDetailed(query);
    } catch {
      return notFound;
    }
    if (parsed.kind === 'mint' || parsed.kind === 'hex32') {
      const token = readers.tokens.byMintBytes(parsed.bytes);
      if (token) return { type: 'token', mint_address: token.mintAddress, symbol: token.symbol, token: formatToken(token, chain.state) };
      if (parsed.kind === 'mint') return notFound;
    }
    const account = parsed.bytes;
    // A 0x + 64 hex query that matched nothing above is an address only if the account has any state.
    if (parsed.kind === 'hex32' && chain.stateNonce(account) === 0n && chain.balance(account, new Uint8Array(32)) === 0n
      && (await chain.indexer.tokensHeld(account)).length === 0 && !(await hasHistoryOrIndexing(chain, account))) {
      return notFound;
    }
    return {
      type: 'address', address: encodeAccount(account), evm_address: encodeEvm(account),
      nonce: chain.stateNonce(account).toString(), balance: chain.balance(account, new Uint8Array(32)).toString(),
    };
  }
  const token = /^[A-Za-z0-9]{1,16}$/.test(query) ? readers.tokens.resolve(query) : undefined;
  if (token) return { type: 'token', mint_address: token.mintAddress, symbol: token.symbol, token: formatToken(token, chain.state) };
  return notFound;
}

/**
 * Whether an account has history, for the search's "is this an address" test. While the history
 * index is built behind a catch-up (TX_INDEXING) the answer is not known: the query is taken as an
 * address, whose page then says the history is being indexed.
 */
async function hasHistoryOrIndexing(chain: ChainApi, account: Uint8Array): Promise<boolean> {
  try {
    return await chain.indexer.hasHistory(account);
  } catch (error) {
    if (error instanceof ChainError && error.reason === 'TX_INDEXING') return true;
    throw error;
  }
}
