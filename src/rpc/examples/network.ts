/**
 * OpenRPC examples and descriptions of the methods in src/rpc/methods/network.ts (docs/p2p.md),
 * recorded from a testnet node (the accounts, the AUR token, pool and collections of
 * src/rpc/examples/recorded-run.ts, created by the calls shown); long lists are cut to two items.
 * test/unit/rpc-openrpc.test.ts holds each to its method's own param and result schemas.
 */
import type { MethodExample } from '../registry.js';
import { VALIDATOR } from './recorded-run.js';

export const EXAMPLES: Record<string, MethodExample[]> = {
  svc_validatorHealth: [{
    name: 'a single-validator testnet node',
    params: [],
    result: {
      name: 'health',
      value: {
        height: 24,
        peers: 0,
        syncing: false,
        sync: { currentHeight: 24, highestHeight: null, startingHeight: 0, blocksImported: 0, txIndexHeight: 24 },
        uptimeSeconds: 16,
        version: '0.1.0',
        validator: VALIDATOR,
        inValidatorSet: true,
        peerId: '12D3KooWEG4Hk8Zvni3EFi1mhuHw9gmWbEgGTtzxa8WA5SE2Tq9Y',
        addresses: ['/ip4/127.0.0.1/udp/43935/quic-v1/p2p/12D3KooWEG4Hk8Zvni3EFi1mhuHw9gmWbEgGTtzxa8WA5SE2Tq9Y'],
      },
    },
  }],
  svc_getDragonflyStats: [{
    name: 'forwarding enabled',
    params: [],
    result: { name: 'stats', value: { enabled: true, sealType: 'ed25519-blake3', forwarded: 0, direct: 0, received: 0, rejected: 0 } },
  }],
  svc_getStorageStats: [{
    name: 'elastic state',
    params: [],
    result: {
      name: 'stats',
      value: {
        mode: 'elastic',
        tiers: {
          hot: { keys: 41210, bytes: 9876543, hits: 1203344, misses: 40210, promotions: 40210, evictions: 0 },
          warm: { keys: 1201234, bytes: 98345678, hits: 30110, misses: 10100, promotions: 7200, evictions: 8807200 },
          cold: { keys: 8800000, bytes: 714000000, hits: 8000, misses: 2100, promotions: 8000, evictions: 7200 },
        },
        totals: { keys: 10001234, bytes: 822222221, hits: 1241454, misses: 2100, promotions: 55410, evictions: 8814400 },
        hotLimitBytes: 268435456,
        coreRecycles: 3,
        prefetchedKeys: 38000,
      },
    },
  }],
};

/** What each method does, its errors by name and its spec section, for OpenRPC `description`. */
export const DESCRIPTIONS: Record<string, string> = {
  svc_validatorHealth:
    'What an operator or load balancer checks (spec §4.17): height, peers, sync progress and the transaction index height, uptime, version, the validator address and whether it is in the active set, libp2p identity and listen addresses. No application errors.',
  svc_getDragonflyStats:
    'Counters of bundle forwarding since start (spec §4.17; docs/p2p.md "Dragonfly"): bundles forwarded, sent straight to the leader, received and rejected, and the seal type. No application errors.',
  svc_getStorageStats:
    'Counters of the state store since start (spec §4.17; docs/operations.md "Elastic state"): with --elastic-state the hot tier (a bounded in-memory cache), the warm tier (LevelDB) and the cold tier (records not written for --elastic-cold-after blocks, in a key range of their own), otherwise the one in-memory tier; per tier keys, bytes, hits, misses, promotions, evictions, and totals. No application errors.',
};
