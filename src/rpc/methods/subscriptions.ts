import { Type } from '@sinclair/typebox';
import { encodeAccount } from '../../codec/address.js';
import { APP_ERRORS, RpcError } from '../errors.js';
import { defineMethod, type CallContext, type MethodDefinition, type RpcConnection } from '../registry.js';
import { Address } from '../schemas.js';
import { NOTIFICATION_METHOD, type SubscriptionKind } from '../subscriptions.js';
import type { MethodDependencies } from './context.js';
import { accountParam, positionIn } from './params.js';

/** Bounds of a logs filter, so one subscribe message cannot make every block's matching costly. */
export const MAX_FILTER_ADDRESSES = 1000;
export const MAX_FILTER_OP_TYPES = 64;

const SubscriptionId = Type.String({ pattern: '^0x[0-9a-f]{16}$', description: 'subscription id, 0x + 16 hex digits' });

const LogFilterSchema = Type.Object(
  {
    opType: Type.Optional(Type.Array(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9]{0,63}$' }), {
      description: `operation type names (Transfer, CreateToken, AddKey, …; names of operations this node does not know yet, such as Swap, are accepted and match once they exist); at most ${MAX_FILTER_OP_TYPES}`,
    })),
    address: Type.Optional(Type.Array(Address(), {
      description: `sender addresses (Nx0…, or the 0x forms); at most ${MAX_FILTER_ADDRESSES}`,
    })),
  },
  { additionalProperties: false, description: 'spec §6 log filter; an absent or empty array matches anything, both parts must match' },
);

/** Subscriptions exist only on a connection that can carry notifications (spec §6). */
function wsConnection(ctx: CallContext, method: string): RpcConnection {
  if (ctx.transport !== 'ws' || ctx.connection === undefined) {
    throw RpcError.app('TRANSPORT_UNSUPPORTED', `${method} needs a WebSocket connection (ws:// on the RPC port, spec §6)`, { transport: ctx.transport });
  }
  return ctx.connection;
}

const NOTE = `Notifications arrive as JSON-RPC notifications {"jsonrpc":"2.0","method":"${NOTIFICATION_METHOD}","params":{"subscription":id,"result":item}}, one item per message. `
  + 'WebSocket only (TRANSPORT_UNSUPPORTED over HTTP); each subscription holds at most its last 64 undelivered blocks and a slow consumer skips older ones (spec §6.1); paused during initial sync (§6.2).';

/** Spec §6 subscriptions over WebSocket (docs/subscriptions.md). */
export function subscriptionMethods({ subscriptions: hub }: MethodDependencies): MethodDefinition[] {
  const subscribeErrors = [APP_ERRORS.TRANSPORT_UNSUPPORTED.code, APP_ERRORS.LIMIT_EXCEEDED.code];
  const unsubscribe = (kind: SubscriptionKind): MethodDefinition =>
    defineMethod({
      name: `svc_unsubscribe_${kind}`,
      summary: `Ends a ${kind} subscription of this connection (spec §6).`,
      description: 'Returns true when the subscription existed on this connection and is now gone, false otherwise. Spec §6. Errors: TRANSPORT_UNSUPPORTED over HTTP.',
      params: [{ name: 'subscription_id', schema: SubscriptionId }] as const,
      result: { name: 'removed', schema: Type.Boolean(), description: `\`true\` if it was this connection's ${kind} subscription, else \`false\`` },
      errors: [APP_ERRORS.TRANSPORT_UNSUPPORTED.code],
      paramStructure: 'by-position',
      handler: ([id], ctx) => hub.unsubscribe(kind, wsConnection(ctx, `svc_unsubscribe_${kind}`), id),
    });
  const logsParams = [{ name: 'filter', schema: LogFilterSchema, required: false }] as const;
  return [
    defineMethod({
      name: 'svc_subscribe_newHeads',
      summary: 'Subscribes to block headers, one per new block (spec §6).',
      description: 'Item: {height, hash, parentHash, timestamp, proposer, stateRoot, transactionsRoot, gasUsed, gasLimit, baseFee, bundleCount}. ' + NOTE
        + ' Spec §6.',
      params: [] as const,
      result: {
        name: 'subscription_id', schema: SubscriptionId,
        description: 'subscription id (`0x` + 16 hex); one header per block',
      },
      errors: subscribeErrors,
      handler: (_params, ctx) => hub.subscribe('newHeads', wsConnection(ctx, 'svc_subscribe_newHeads')),
    }),
    defineMethod({
      name: 'svc_subscribe_newTransactions',
      summary: 'Subscribes to bundles, one notification per bundle included in a new block (spec §6).',
      description: 'Item: {blockHeight, blockHash, bundleHash, bundleIndex, from, operations (operation type names), gasUsed, timestamp}; failed bundles included. ' + NOTE
        + ' Spec §6.',
      params: [] as const,
      result: {
        name: 'subscription_id', schema: SubscriptionId,
        description: 'subscription id; one item per bundle in a new block',
      },
      errors: subscribeErrors,
      handler: (_params, ctx) => hub.subscribe('newTransactions', wsConnection(ctx, 'svc_subscribe_newTransactions')),
    }),
    defineMethod({
      name: 'svc_subscribe_logs',
      summary: 'Subscribes to operations, one notification per operation of each successful bundle in a new block, filtered by type and sender (spec §6).',
      description: 'Item: {blockHeight, blockHash, bundleHash, bundleIndex, opIndex, opType, from, data, timestamp}; data of a Transfer is {to, token, amount}; every data holds transfers (the token movements the operation made) and a staking operation\'s data its staking event as `event` (docs/subscriptions.md "Notifications"). '
        + `Filter arrays over their bound (${MAX_FILTER_OP_TYPES} types, ${MAX_FILTER_ADDRESSES} addresses) are LIMIT_EXCEEDED. ` + NOTE
        + ' Spec §6.',
      paramsNote: '— `{opType?: [names], address?: [Nx0…]}`',
      params: logsParams,
      result: {
        name: 'subscription_id', schema: SubscriptionId,
        description: 'subscription id; one item per operation of a successful bundle',
      },
      errors: subscribeErrors,
      paramStructure: 'by-position',
      handler: ([filter], ctx) => {
        const connection = wsConnection(ctx, 'svc_subscribe_logs');
        const opType = filter?.opType ?? [];
        const address = filter?.address ?? [];
        if (opType.length > MAX_FILTER_OP_TYPES) {
          throw RpcError.app('LIMIT_EXCEEDED', `a logs filter takes at most ${MAX_FILTER_OP_TYPES} operation types`, { limit: MAX_FILTER_OP_TYPES, got: opType.length });
        }
        if (address.length > MAX_FILTER_ADDRESSES) {
          throw RpcError.app('LIMIT_EXCEEDED', `a logs filter takes at most ${MAX_FILTER_ADDRESSES} addresses`, { limit: MAX_FILTER_ADDRESSES, got: address.length });
        }
        // Senders are matched in their native Nx0 form (spec §6.3), whatever form the client sent. Parsed
        // here, not by the registry (issue 44 item 4), so a plain-HTTP call and an over-long list keep
        // their own errors; the position is the registry's.
        const native = address.map((a, i) => encodeAccount(accountParam(a, `filter.address[${i}]`, positionIn(logsParams, 'filter'))));
        return hub.subscribe('logs', connection, { opType, address: native });
      },
    }),
    unsubscribe('newHeads'),
    unsubscribe('newTransactions'),
    unsubscribe('logs'),
  ];
}
