import { Type } from '@sinclair/typebox';
import type { EthLog } from '../../eth/format.js';
import { logMatcher } from '../../eth/log-filter.js';
import { APP_ERRORS, RpcError } from '../errors.js';
import { FilterRegistry } from '../eth-filters.js';
import { defineMethod, type CallContext, type MethodDefinition, type RpcConnection } from '../registry.js';
import { ETH_KINDS, ETH_NOTIFICATION_METHOD, type SubscriptionKind } from '../subscriptions.js';
import type { MethodDependencies } from './context.js';
import { getLogs, LogFilter, paramAt, type LogFilterValue } from './eth.js';
import { EthLogObject, HASH_EXAMPLE, LOG_EXAMPLE } from './eth-schemas.js';

const FilterId = Type.String({ pattern: '^0x[0-9a-fA-F]{1,64}$', description: 'a filter id as eth_newFilter, eth_newBlockFilter or eth_newPendingTransactionFilter returned' });
const SubscriptionId = Type.String({ pattern: '^0x[0-9a-fA-F]{1,64}$', description: 'a subscription id as eth_subscribe returned' });
const SubscriptionKindParam = Type.Union([Type.Literal('newHeads'), Type.Literal('logs'), Type.Literal('newPendingTransactions'), Type.Literal('syncing')], {
  description: 'newHeads (one block header per block), logs (the logs of each new block matching the filter), newPendingTransactions (the hash of each transaction entering the mempool), '
    + 'syncing ({syncing: true, status} when a catch-up sync starts, false when it ends, as geth sends)',
});
const FILTER_EXAMPLE_ID = '0x3f9c2a1be07d4c55';
/** Param lists a refusal names by name (issue 44 item 4: positions as the registry counts them). */
const SUBSCRIBE_PARAMS = [{ name: 'kind', schema: SubscriptionKindParam }, { name: 'filter', schema: Type.Omit(LogFilter, ['fromBlock', 'toBlock', 'blockHash']), required: false }] as const;
const NEW_FILTER_PARAMS = [{ name: 'filter', schema: LogFilter }] as const;
const HEAD_KIND: Record<string, SubscriptionKind> = { newHeads: 'ethNewHeads', logs: 'ethLogs', newPendingTransactions: 'ethPendingTransactions', syncing: 'ethSyncing' };

/** The blocks of a log filter's range whose new logs its eth_getFilterChanges reports (geth's rule). */
function logFilterMatch(criteria: LogFilterValue): (item: unknown) => boolean {
  const matches = logMatcher(criteria);
  const number = (tag: string | undefined) => (tag !== undefined && tag.startsWith('0x') ? Number(BigInt(tag)) : undefined);
  const from = number(criteria.fromBlock);
  const to = number(criteria.toBlock);
  const hash = criteria.blockHash?.toLowerCase();
  return (item) => {
    const log = item as EthLog;
    const n = Number(BigInt(log.blockNumber));
    return (from === undefined || n >= from) && (to === undefined || n <= to) && (hash === undefined || log.blockHash === hash) && matches(log);
  };
}

/** eth_subscribe needs a socket to push on (docs/subscriptions.md). */
function wsConnection(ctx: CallContext, method: string): RpcConnection {
  if (ctx.transport !== 'ws' || ctx.connection === undefined) {
    throw RpcError.app('TRANSPORT_UNSUPPORTED', `${method} needs a WebSocket connection (ws:// on the RPC port); over HTTP use the filter methods (eth_newFilter, eth_getFilterChanges)`, { transport: ctx.transport });
  }
  return ctx.connection;
}

/**
 * Events for EVM tools (docs/eth.md "Events"): eth_subscribe over WebSocket and the polling filter
 * family, both fed by the one subscription hub (src/rpc/subscriptions.ts) in execution-apis shapes.
 */
export function ethFilterMethods({ chain, subscriptions: hub }: MethodDependencies): MethodDefinition[] {
  const filters = new FilterRegistry<LogFilterValue>(hub);
  const limits = `at most ${filters.maxPerIp} filters per client address (LIMIT_EXCEEDED beyond); a filter not polled for ${filters.timeoutMs / 60_000} minutes is removed, as geth does`;
  return [
    defineMethod({
      name: 'eth_subscribe',
      summary: 'Subscribes over WebSocket to newHeads, logs (with address and topic filters), newPendingTransactions or syncing; notifications are eth_subscription messages.',
      description: `Each notification is {"jsonrpc":"2.0","method":"${ETH_NOTIFICATION_METHOD}","params":{"subscription":id,"result":item}}: a block header (eth_getBlockByNumber's fields without transactions), `
        + 'one log (eth_getLogs\' shape), one transaction hash, or a sync change ({syncing: true, status: {startingBlock, currentBlock, highestBlock}} when a catch-up sync starts, false when it ends; none for a node that never syncs). Delivery follows the svc_subscribe_* rules (docs/subscriptions.md): a client that stops reading keeps its last 64 blocks, '
        + 'at most 32 subscriptions per connection, none during initial sync. WebSocket only (-32014 over HTTP).',
      paramsNote: '— `newHeads`, `logs` (`{address?, topics?}`), `newPendingTransactions`, `syncing`; WebSocket only (`-32014` over HTTP)',
      params: SUBSCRIBE_PARAMS,
      result: {
        name: 'subscription', schema: SubscriptionId,
        description: 'subscription id; notifications `eth_subscription` (eth.md "Events"; `syncing`: `{syncing: true, status}` when a catch-up sync'
          + ' starts, `false` when it ends)',
      },
      errors: [APP_ERRORS.TRANSPORT_UNSUPPORTED.code, APP_ERRORS.LIMIT_EXCEEDED.code],
      paramStructure: 'by-position',
      examples: [
        { name: 'logs of a token', params: [{ name: 'kind', value: 'logs' }, { name: 'filter', value: { address: LOG_EXAMPLE.address, topics: [LOG_EXAMPLE.topics[0]] } }], result: { name: 'subscription', value: FILTER_EXAMPLE_ID } },
      ],
      handler: ([kind, filter], ctx) => {
        const connection = wsConnection(ctx, 'eth_subscribe');
        if (kind !== 'logs' && filter !== undefined) throw RpcError.invalidParams(`a ${kind} subscription takes no filter`, paramAt(SUBSCRIBE_PARAMS, 'filter'));
        return hub.subscribe(HEAD_KIND[kind]!, connection, undefined, kind === 'logs' && filter ? logMatcher(filter) as (item: unknown) => boolean : undefined);
      },
    }),
    defineMethod({
      name: 'eth_unsubscribe',
      summary: 'Ends an eth_subscribe subscription of this connection: true when it existed, false otherwise.',
      description: 'Only subscriptions made by eth_subscribe on the same WebSocket connection; svc_subscribe_* ones end with their own unsubscribe method.',
      params: [{ name: 'subscription', schema: SubscriptionId }] as const,
      result: {
        name: 'removed', schema: Type.Boolean(),
        description: '`true` when this connection\'s eth subscription existed, else `false`',
      },
      errors: [APP_ERRORS.TRANSPORT_UNSUPPORTED.code],
      paramStructure: 'by-position',
      examples: [{ name: 'end a subscription', params: [{ name: 'subscription', value: FILTER_EXAMPLE_ID }], result: { name: 'removed', value: true } }],
      handler: ([id], ctx) => hub.unsubscribe(ETH_KINDS, wsConnection(ctx, 'eth_unsubscribe'), id.toLowerCase()),
    }),
    defineMethod({
      name: 'eth_newFilter',
      summary: 'Installs a log filter (address, topics, block range); eth_getFilterChanges then returns the matching logs of blocks made since the last poll.',
      description: `Works over HTTP and WebSocket; ${limits}. A fromBlock/toBlock given as a number bounds the blocks whose logs are reported; eth_getFilterLogs returns all matching logs as eth_getLogs would.`,
      paramsNote: '— `filter` is `{fromBlock?, toBlock?, blockHash?, address?, topics?}`',
      params: NEW_FILTER_PARAMS,
      result: {
        name: 'filterId', schema: FilterId,
        description: 'filter id; at most 128 filters per client address and 4,096 in all (`-32015`; `--rpc-max-filters-per-ip`, `--rpc-max-filters`,'
          + ' docs/rpc.md "Subscriptions and filters"), removed after 5 minutes unpolled',
      },
      errors: [APP_ERRORS.LIMIT_EXCEEDED.code],
      examples: [{ name: 'Transfer logs of a token', params: [{ name: 'filter', value: { address: LOG_EXAMPLE.address, topics: [LOG_EXAMPLE.topics[0]] } }], result: { name: 'filterId', value: FILTER_EXAMPLE_ID } }],
      handler: ([filter], ctx) => {
        if (filter.blockHash !== undefined && (filter.fromBlock !== undefined || filter.toBlock !== undefined)) {
          throw RpcError.invalidParams('blockHash cannot be combined with fromBlock/toBlock', paramAt(NEW_FILTER_PARAMS, 'filter'));
        }
        return filters.install('logs', ctx.ip, { criteria: filter, match: logFilterMatch(filter) });
      },
    }),
    defineMethod({
      name: 'eth_newBlockFilter',
      summary: 'Installs a block filter: eth_getFilterChanges then returns the hashes of blocks made since the last poll.',
      description: `Works over HTTP and WebSocket; ${limits}.`,
      params: [] as const,
      result: {
        name: 'filterId', schema: FilterId,
        description: 'filter id (changes: block hashes)',
      },
      errors: [APP_ERRORS.LIMIT_EXCEEDED.code],
      examples: [{ name: 'new blocks', params: [], result: { name: 'filterId', value: FILTER_EXAMPLE_ID } }],
      handler: (_params, ctx) => filters.install('block', ctx.ip, { map: (head) => (head as { hash: string }).hash }),
    }),
    defineMethod({
      name: 'eth_newPendingTransactionFilter',
      summary: 'Installs a pending-transaction filter: eth_getFilterChanges then returns the hashes of transactions that entered the mempool since the last poll.',
      description: `Hashes as eth_getTransactionByHash takes them (keccak of an EVM transaction, else the 0x bundle hash). Works over HTTP and WebSocket; ${limits}.`,
      params: [] as const,
      result: {
        name: 'filterId', schema: FilterId,
        description: 'filter id (changes: transaction hashes entering the mempool)',
      },
      errors: [APP_ERRORS.LIMIT_EXCEEDED.code],
      examples: [{ name: 'pending transactions', params: [], result: { name: 'filterId', value: FILTER_EXAMPLE_ID } }],
      handler: (_params, ctx) => filters.install('pendingTransaction', ctx.ip),
    }),
    defineMethod({
      name: 'eth_getFilterChanges',
      summary: 'What a filter collected since its last poll: logs for a log filter, block hashes for a block filter, transaction hashes for a pending-transaction filter.',
      description: 'An unknown or expired id is -32000 "filter not found", as geth answers (libraries then install a new filter). A filter holds at most its last 64 unpolled blocks, and at most 10,000 items.',
      params: [{ name: 'filterId', schema: FilterId }] as const,
      result: {
        name: 'changes', schema: Type.Union([Type.Array(EthLogObject), Type.Array(Type.String({ pattern: '^0x[0-9a-f]{64}$' }))]),
        description: 'logs or hashes since the last poll; unknown or expired id `-32000` "filter not found"',
      },
      errors: [APP_ERRORS.SERVER_BUSY.code],
      examples: [{ name: 'a block filter', params: [{ name: 'filterId', value: FILTER_EXAMPLE_ID }], result: { name: 'changes', value: [HASH_EXAMPLE] } }],
      handler: ([id]) => filters.changes(id) as never,
    }),
    defineMethod({
      name: 'eth_getFilterLogs',
      summary: 'Every log matching a log filter\'s criteria, as eth_getLogs with the same filter answers (its block range and log limits apply).',
      description: 'An unknown or expired id, or one of a block or pending-transaction filter, is -32000 "filter not found", as geth answers.',
      params: [{ name: 'filterId', schema: FilterId }] as const,
      result: {
        name: 'logs', schema: Type.Array(EthLogObject),
        description: 'every log matching a log filter, as `eth_getLogs`',
      },
      errors: [APP_ERRORS.SERVER_BUSY.code, APP_ERRORS.LIMIT_EXCEEDED.code],
      examples: [{ name: 'a log filter', params: [{ name: 'filterId', value: FILTER_EXAMPLE_ID }], result: { name: 'logs', value: [LOG_EXAMPLE] } }],
      handler: async ([id]) => {
        const filter = filters.get(id);
        if (filter.kind !== 'logs' || filter.criteria === undefined) throw new RpcError(-32000, 'filter not found', { filter: id, reason: 'FILTER_NOT_FOUND' });
        // A range refused here is named as the eth_newFilter param the criteria came from.
        return (await getLogs(chain, filter.criteria, paramAt(NEW_FILTER_PARAMS, 'filter'))) as never;
      },
    }),
    defineMethod({
      name: 'eth_uninstallFilter',
      summary: 'Removes a filter: true when it existed, false otherwise.',
      params: [{ name: 'filterId', schema: FilterId }] as const,
      result: {
        name: 'removed', schema: Type.Boolean(),
        description: '`true` when the filter existed, else `false`',
      },
      examples: [{ name: 'remove a filter', params: [{ name: 'filterId', value: FILTER_EXAMPLE_ID }], result: { name: 'removed', value: true } }],
      handler: ([id]) => filters.uninstall(id),
    }),
  ];
}
