import { Type } from '@sinclair/typebox';
import { encodeAccount } from '../../codec/address.js';
import { readValidatorSet } from '../../chain/validator-set.js';
import { NODE_VERSION } from '../../version.js';
import { defineMethod, type MethodDefinition } from '../registry.js';
import type { MethodDependencies } from './context.js';
import type { TierStats } from '../../chain/interface.js';

/** Spec §4.17 node-health and forwarding methods over the p2p layer (src/p2p, docs/p2p.md). */
export function networkMethods({ chain, readers, validator, p2p }: MethodDependencies): MethodDefinition[] {
  const startedAt = Date.now();
  return [
    defineMethod({
      name: 'svc_validatorHealth',
      summary: 'Block height, peers, sync status, uptime and version of this node (spec §4.17).',
      description: 'What an operator or load balancer checks (spec §4.17): height, peers, sync progress and the transaction index height, uptime,'
        + ' version, the validator address and whether it is in the active set, libp2p identity and listen addresses. No application errors.',
      params: [] as const,
      result: {
        description: '`{height, peers, syncing, sync {currentHeight, highestHeight, startingHeight, blocksImported, txIndexHeight}, uptimeSeconds,'
          + ' version, validator, inValidatorSet, peerId, addresses}` (docs/p2p.md)',
        name: 'health',
        schema: Type.Object({
          height: Type.Integer(),
          peers: Type.Integer({ description: 'connected peers' }),
          syncing: Type.Boolean({ description: 'catching up with peers; subscriptions are paused (spec §6.2)' }),
          sync: Type.Object({
            currentHeight: Type.Integer(),
            highestHeight: Type.Union([Type.Integer(), Type.Null()], { description: 'best head a peer announced; null without peers' }),
            startingHeight: Type.Integer({ description: 'where the last catch-up started' }),
            blocksImported: Type.Integer({ description: 'blocks taken from peers since start' }),
            txIndexHeight: Type.Integer({
              description: 'every block up to this height is found by its bundles\' hashes; after a catch-up it trails `height` while the '
                + 'transaction lookup index is built behind it, and lookups by hash above it answer -32000 TX_INDEXING (docs/storage.md)',
            }),
          }),
          uptimeSeconds: Type.Integer(),
          version: Type.String(),
          validator: Type.String({ description: 'Nx0… address of this node\'s validator key' }),
          inValidatorSet: Type.Boolean({ description: 'the key is an active, non-jailed validator of the current set' }),
          peerId: Type.Union([Type.String(), Type.Null()], { description: 'libp2p peer id; null when p2p is off' }),
          addresses: Type.Array(Type.String(), { description: 'multiaddrs the node listens on or announces (spec §4.20 --bootnodes form)' }),
        }),
      },
      handler: () => {
        const sync = p2p?.sync();
        const member = readValidatorSet(chain.state).find((v) => Buffer.compare(v.consensusKey, validator.publicKey) === 0);
        return {
          height: chain.height,
          peers: p2p?.connectedPeers().length ?? 0,
          syncing: chain.syncing,
          sync: {
            currentHeight: chain.height,
            highestHeight: sync?.highestHeight ?? null,
            startingHeight: sync?.startingHeight ?? 0,
            blocksImported: sync?.blocksImported ?? 0,
            txIndexHeight: Math.min(chain.lookupHeight, chain.height),
          },
          uptimeSeconds: Math.floor((Date.now() - startedAt) / 1000),
          version: NODE_VERSION,
          validator: encodeAccount(validator.address),
          inValidatorSet: member !== undefined && member.active && !member.jailed,
          peerId: p2p?.peerId ?? null,
          addresses: p2p?.multiaddrs() ?? [],
        };
      },
    }),
    defineMethod({
      name: 'svc_getDragonflyStats',
      summary: 'Bundle forwarding ("Dragonfly"): forwarded (and sent straight to the leader) and received counts, seal type, enabled flag (spec §4.17, docs/p2p.md).',
      description: 'Counters of bundle forwarding since start (spec §4.17; docs/p2p.md "Dragonfly"): bundles forwarded, sent straight to the leader,'
        + ' received and rejected, and the seal type. No application errors.',
      params: [] as const,
      result: {
        description: '`{enabled, sealType: "ed25519-blake3", forwarded, direct, received, rejected}` (`direct`: sent straight to the leader): bundle'
          + ' forwarding counts since start (docs/p2p.md "Forwarding")',
        name: 'stats',
        schema: Type.Object({
          enabled: Type.Boolean({ description: 'forwarding runs (the node has p2p)' }),
          sealType: Type.String({ description: 'ed25519-blake3: Ed25519 over Blake3(tx_hash ‖ height ‖ validator_pubkey)' }),
          forwarded: Type.Integer({ description: 'bundles this node admitted and forwarded' }),
          direct: Type.Integer({ description: 'of those, sent straight to the upcoming leader over /ntv/forward/1; the rest went by gossip' }),
          received: Type.Integer({ description: 'forwarded bundles from peers that passed the seal check and the submission gate' }),
          rejected: Type.Integer({ description: 'forwarded bundles refused (bad seal, forged or malformed bundle)' }),
        }),
      },
      handler: () => p2p?.dragonfly() ?? { enabled: false, sealType: 'ed25519-blake3', forwarded: 0, direct: 0, received: 0, rejected: 0 },
    }),
    defineMethod({
      name: 'svc_getStorageStats',
      summary: 'State store tier statistics since start (spec §4.17): with --elastic-state the hot (bounded memory cache), warm (LevelDB) and cold (records not written for --elastic-cold-after blocks, a key range of their own) tiers, otherwise the one in-memory tier; per tier keys, bytes, hits, misses, promotions, evictions (docs/operations.md "Elastic state").',
      description: 'Counters of the state store since start (spec §4.17; docs/operations.md "Elastic state"): with --elastic-state the hot tier (a'
        + ' bounded in-memory cache), the warm tier (LevelDB) and the cold tier (records not written for --elastic-cold-after blocks, in a'
        + ' key range of their own), otherwise the one in-memory tier; per tier keys, bytes, hits, misses, promotions, evictions, and'
        + ' totals. No application errors.',
      params: [] as const,
      result: {
        description: '`{mode: "memory"|"elastic", tiers: {hot, warm, cold} or {memory}, totals, hotLimitBytes, coreRecycles, prefetchedKeys}`, each'
          + ' tier `{keys, bytes, hits, misses, promotions, evictions}` since start (docs/operations.md "Elastic state")',
        name: 'stats',
        schema: Type.Object({
          mode: Type.Union([Type.Literal('memory'), Type.Literal('elastic')], { description: 'elastic with --elastic-state; memory: the whole state in memory (the default)' }),
          tiers: Type.Record(Type.String(), TIER_STATS, { description: 'elastic: hot, warm and cold; memory: memory' }),
          totals: TIER_STATS,
          hotLimitBytes: Type.Union([Type.Integer(), Type.Null()], { description: 'the hot tier\'s bound (--elastic-hot-mb); null for the unbounded in-memory state' }),
          coreRecycles: Type.Integer({ description: 'core instances replaced to bound their caches (elastic only)' }),
          prefetchedKeys: Type.Integer({ description: 'keys read ahead of the blocks that touch them (elastic only)' }),
        }),
      },
      handler: () => {
        const stats = chain.storageStats();
        const tiers = Object.values(stats.tiers);
        const sum = (f: keyof TierStats) => tiers.reduce((n, t) => n + t[f], 0);
        // Totals over the tiers: keys of the database's tiers (warm and cold hold every record once,
        // the hot tier caches some of them), reads answered by any tier, the misses of the last
        // tier (absent keys), movements summed.
        const { hot, warm, cold, memory } = stats.tiers;
        const totals = memory ? { ...memory } : {
          keys: warm!.keys + (cold?.keys ?? 0), bytes: sum('bytes'), hits: hot!.hits + warm!.hits + (cold?.hits ?? 0),
          misses: cold ? cold.misses : warm!.misses, promotions: sum('promotions'), evictions: sum('evictions'),
        };
        return { ...stats, totals };
      },
    }),
  ];
}

const TIER_STATS = Type.Object({
  keys: Type.Integer({ description: 'records (and, in hot, keys known to be absent) held by the tier' }),
  bytes: Type.Integer({ description: 'hot: keys, values and per-entry overhead as counted against the bound; warm, cold: LevelDB\'s estimate of the records on disk; memory: keys and values' }),
  hits: Type.Integer({ description: 'reads the tier answered (a record, or for hot a known absence)' }),
  misses: Type.Integer({ description: 'reads it could not answer: passed to the next tier (hot, warm), or absent keys (cold, memory)' }),
  promotions: Type.Integer({ description: 'hot: records loaded from warm or cold; warm: cold records a block wrote back into warm; cold: cold records read into hot' }),
  evictions: Type.Integer({ description: 'hot: records dropped to stay under its bound; warm: records moved to cold; cold: records that left cold because a block wrote them' }),
});
