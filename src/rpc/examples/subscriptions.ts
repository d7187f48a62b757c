/**
 * OpenRPC examples and descriptions of the methods in src/rpc/methods/subscriptions.ts
 * (docs/subscriptions.md), recorded from a testnet node (the accounts, the AUR token, pool and
 * collections of src/rpc/examples/recorded-run.ts, created by the calls shown); long lists are cut
 * to two items. test/unit/rpc-openrpc.test.ts holds each to its method's own param and result
 * schemas.
 */
import type { MethodExample } from '../registry.js';
import { ALICE, SUBSCRIPTION } from './recorded-run.js';

export const EXAMPLES: Record<string, MethodExample[]> = {
  svc_subscribe_newHeads: [{ name: 'subscribe over WebSocket', params: [], result: { name: 'subscription_id', value: SUBSCRIPTION } }],
  svc_subscribe_newTransactions: [{ name: 'subscribe over WebSocket', params: [], result: { name: 'subscription_id', value: SUBSCRIPTION } }],
  svc_subscribe_logs: [{
    name: 'Transfer operations of one sender',
    params: [{ name: 'filter', value: { opType: ['Transfer'], address: [ALICE] } }],
    result: { name: 'subscription_id', value: SUBSCRIPTION },
  }],
  svc_unsubscribe_newHeads: [{ name: 'end a subscription', params: [{ name: 'subscription_id', value: SUBSCRIPTION }], result: { name: 'removed', value: true } }],
  svc_unsubscribe_newTransactions: [{ name: 'end a subscription', params: [{ name: 'subscription_id', value: SUBSCRIPTION }], result: { name: 'removed', value: true } }],
  svc_unsubscribe_logs: [{ name: 'end a subscription', params: [{ name: 'subscription_id', value: SUBSCRIPTION }], result: { name: 'removed', value: true } }],
};

/** What each method does, its errors by name and its spec section, for OpenRPC `description`. */
export const DESCRIPTIONS: Record<string, string> = {
  svc_subscribe_newHeads:
    'Spec §6.',
  svc_subscribe_newTransactions:
    'Spec §6.',
  svc_subscribe_logs:
    'Spec §6.',
  svc_unsubscribe_newHeads:
    'Spec §6. Errors: TRANSPORT_UNSUPPORTED over HTTP.',
  svc_unsubscribe_newTransactions:
    'Spec §6. Errors: TRANSPORT_UNSUPPORTED over HTTP.',
  svc_unsubscribe_logs:
    'Spec §6. Errors: TRANSPORT_UNSUPPORTED over HTTP.',
};
