import { Type } from '@sinclair/typebox';
import { getAddress } from 'viem';
import { decodeBundle } from '../../codec/bundle.js';
import { ethHashOf } from '../../chain/evm/bundles.js';
import { evmOf, quantity } from '../../chain/evm/units.js';
import { formatPendingTransaction } from '../../eth/format.js';
import { defineMethod, type MethodDefinition, type MethodRegistry } from '../registry.js';
import type { MethodDependencies } from './context.js';
import { EthTransactionObject, TRANSACTION_EXAMPLE } from './eth-schemas.js';

/** txpool_content lists at most this many transactions (the pool may hold 200,000: docs/mempool.md). */
export const MAX_TXPOOL_CONTENT = 10_000;

const PoolSection = Type.Record(Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' }), Type.Record(Type.String({ pattern: '^[0-9]+$' }), EthTransactionObject), {
  description: 'sender (checksummed EVM form) → nonce (decimal) → transaction, as eth_getTransactionByHash shows a pending one',
});

/**
 * geth's txpool namespace and rpc_modules for tooling (issue 42 item 8; docs/eth.md "Pool and
 * modules"): "pending" are the bundles ready to execute (their account's nonce run is contiguous),
 * "queued" the ones waiting behind a nonce gap (docs/mempool.md), as geth splits its pool.
 */
export function ethPoolMethods({ chain }: MethodDependencies): MethodDefinition[] {
  return [
    defineMethod({
      name: 'txpool_status',
      summary: 'How many transactions (bundles) wait in the mempool: pending (ready to execute) and queued (behind a nonce gap), as hex quantities.',
      description: 'geth\'s txpool_status over this node\'s mempool: native bundles and EVM transactions are counted alike, split by whether '
        + 'their account\'s nonce run from the state nonce is contiguous (docs/mempool.md "Nonces", docs/eth.md "Pool and modules").',
      params: [] as const,
      result: {
        name: 'status', schema: Type.Object({ pending: Type.String({ pattern: '^0x[0-9a-f]+$' }), queued: Type.String({ pattern: '^0x[0-9a-f]+$' }) }),
        description: '`{pending, queued}`: waiting bundles ready to execute and behind a nonce gap, hex (eth.md "Pool and modules")',
      },
      examples: [{ name: 'a few waiting', params: [], result: { name: 'status', value: { pending: '0x2', queued: '0x1' } } }],
      handler: () => {
        const queued = chain.mempoolQueued;
        return { pending: quantity(chain.mempoolSize - queued), queued: quantity(queued) };
      },
    }),
    defineMethod({
      name: 'txpool_content',
      summary: `The waiting transactions by sender and nonce, split into pending and queued as txpool_status counts them; at most ${MAX_TXPOOL_CONTENT.toLocaleString('en-US')} transactions.`,
      description: 'Each transaction as eth_getTransactionByHash shows a pending one (null block fields). Native bundles appear in their legacy-shaped form under the EVM form of their account (docs/eth.md "Shapes").',
      params: [] as const,
      result: {
        name: 'content', schema: Type.Object({ pending: PoolSection, queued: PoolSection }),
        description: '`{pending, queued}`, each sender (checksummed EVM form) → nonce (decimal) → transaction as `eth_getTransactionByHash` shows a'
          + ' pending one; at most 10,000 transactions',
      },
      examples: [{
        name: 'one pending transaction', params: [],
        result: { name: 'content', value: { pending: { [getAddress(TRANSACTION_EXAMPLE.from)]: { [String(BigInt(TRANSACTION_EXAMPLE.nonce))]: { ...TRANSACTION_EXAMPLE, blockHash: null, blockNumber: null, transactionIndex: null } } }, queued: {} } },
      }],
      handler: () => {
        const out: Record<'pending' | 'queued', Record<string, Record<string, unknown>>> = { pending: {}, queued: {} };
        for (const { entry, queued } of chain.mempoolEntries(MAX_TXPOOL_CONTENT)) {
          const bundle = decodeBundle(entry.bytes);
          const section = out[queued ? 'queued' : 'pending'];
          const sender = getAddress(evmOf(entry.account));
          (section[sender] ??= {})[entry.nonce.toString()] = formatPendingTransaction(bundle, ethHashOf(bundle, entry.hash), chain.gasPrice);
        }
        return out as never;
      },
    }),
  ];
}

/** rpc_modules, as geth answers it: each namespace the node serves, with version "1.0". */
export function rpcModulesMethod(registry: MethodRegistry): MethodDefinition {
  return defineMethod({
    name: 'rpc_modules',
    summary: 'The JSON-RPC namespaces this node serves (eth, net, web3, txpool, svc, rpc, …), each with version "1.0", as geth answers.',
    description: 'Tools (geth\'s console, Foundry) ask it to learn which namespaces they may call; the list is read from the '
      + 'registry, so a namespace appears exactly when one of its methods is served.',
    params: [] as const,
    result: {
      description: 'the namespaces served, each `"1.0"` (`eth`, `net`, `rpc`, `svc`, `txpool`, `web3`, …), as geth answers',
      name: 'modules',
      schema: Type.Object(
        Object.fromEntries(['eth', 'net', 'web3', 'txpool', 'svc', 'rpc'].map((n) => [n, Type.Optional(Type.Literal('1.0'))])),
        { additionalProperties: Type.String(), description: 'namespace → version' },
      ),
    },
    examples: [{ name: 'the namespaces', params: [], result: { name: 'modules', value: { eth: '1.0', net: '1.0', rpc: '1.0', svc: '1.0', txpool: '1.0', web3: '1.0' } } }],
    handler: () => {
      const names = new Set(registry.definitions().map((d) => d.name.split('_')[0]!).filter((n) => !n.includes('.')));
      names.add('rpc');
      return Object.fromEntries([...names].sort().map((n) => [n, '1.0' as const]));
    },
  });
}
