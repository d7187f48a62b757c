import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { ChainNode } from '../../src/chain/interface.js';
import type { PendingBundle } from '../../src/chain/mempool.js';
import { toHex } from '../../src/codec/hash.js';
import { generateEd25519 } from '../../src/codec/keys.js';
import { Dragonfly, decodeForwarded, verifySeal } from '../../src/p2p/dragonfly.js';
import type { P2PNetwork } from '../../src/p2p/network.js';

/**
 * Dragonfly's re-forward (docs/p2p.md "Forwarding"): a bundle this node admitted and sent straight
 * to one leader is sent to each new head's leader that does not hold it, until a block includes it.
 * A chain and a network of fakes: the leader schedule, the pending set and the sends are the test's.
 */
function setup(options: { connected?: boolean } = {}) {
  const me = generateEd25519();
  const leaders = [generateEd25519(), generateEd25519(), generateEd25519()];
  const peerOf = new Map(leaders.map((l, i) => [toHex(l.publicKey), `peer${i}`]));
  const chain = Object.assign(new EventEmitter(), {
    executionParent: { height: 10 },
    pending: new Set<string>(),
    isPending(hashKey: string) {
      return this.pending.has(hashKey);
    },
  });
  const direct: Array<{ peer: string; height: number; bundle: Uint8Array }> = [];
  const gossiped: number[] = [];
  const network = {
    readyPeers: () => (options.connected === false ? [] : ['peer0', 'peer1', 'peer2']),
    peerOfValidator: (key: Uint8Array) => peerOf.get(toHex(key)),
    sendForwarded: async (peer: string, message: Uint8Array) => {
      const f = decodeForwarded(message);
      expect(verifySeal(f)).toBe(true);
      direct.push({ peer, height: f.height, bundle: f.bundle });
      return 0;
    },
    publish: async (_topic: string, message: Uint8Array) => {
      gossiped.push(decodeForwarded(message).height);
      return 3;
    },
    validate: () => undefined,
    onForwarded: () => undefined,
  };
  /** the round-0 leader of each height: leaders[height % 3], or this node at `mineAt` */
  let mineAt = -1;
  const dragonfly = new Dragonfly({
    chain: chain as unknown as ChainNode, network: network as unknown as P2PNetwork, validatorKey: me,
    logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined } as never,
    leaderOf: (height) => (height === mineAt ? me.publicKey : leaders[height % 3]!.publicKey),
  });
  dragonfly.start();
  const admit = (hashKey: string, bytes: Uint8Array) => {
    chain.pending.add(hashKey);
    chain.emit('admitted', { hashKey, bytes } as unknown as PendingBundle);
  };
  const newHead = (height: number) => {
    chain.executionParent.height = height;
    chain.emit('block', {});
  };
  return { chain, direct, gossiped, admit, newHead, setMine: (h: number) => (mineAt = h) };
}

const flush = () => new Promise((r) => setImmediate(r));

describe('Dragonfly re-forward', () => {
  it('sends a pending bundle to each new leader that does not hold it, and stops once a block includes it', async () => {
    const t = setup();
    t.admit('aa', Uint8Array.of(1));
    await flush();
    // height 11's leader is leaders[2]
    expect(t.direct.map((d) => [d.peer, d.height])).toEqual([['peer2', 11]]);
    t.newHead(11); // still pending; height 12's leader (leaders[0]) does not hold it
    await flush();
    expect(t.direct.map((d) => [d.peer, d.height])).toEqual([['peer2', 11], ['peer0', 12]]);
    t.newHead(12); // height 13: leaders[1]
    t.newHead(13); // height 14: leaders[2] holds it already: nothing sent
    await flush();
    expect(t.direct.map((d) => d.peer)).toEqual(['peer2', 'peer0', 'peer1']);
    t.chain.pending.delete('aa'); // a block included it
    t.newHead(14);
    t.newHead(15);
    await flush();
    expect(t.direct).toHaveLength(3);
    expect(t.gossiped).toEqual([]);
  });

  it('a bundle admitted while this node leads goes to the next leader when its turn passes without it', async () => {
    const t = setup();
    t.setMine(11);
    t.admit('bb', Uint8Array.of(2));
    await flush();
    expect(t.direct).toEqual([]);
    t.newHead(11); // the round failed over, or the block was made before the bundle came
    await flush();
    expect(t.direct.map((d) => [d.peer, d.height])).toEqual([['peer0', 12]]);
  });

  it('a solo node (no peer) forwards nothing and watches nothing', async () => {
    const t = setup({ connected: false });
    t.admit('cc', Uint8Array.of(3));
    t.newHead(11);
    t.newHead(12);
    await flush();
    expect(t.direct).toEqual([]);
    expect(t.gossiped).toEqual([]);
  });
});
