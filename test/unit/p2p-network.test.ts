import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { P2PNetwork, type P2PNetworkOptions } from '../../src/p2p/network.js';
import { frame, readFrames } from '../../src/p2p/frames.js';
import { initHashing } from '../../src/codec/hash.js';
import { generateEd25519 } from '../../src/codec/keys.js';
import type { Logger } from '../../src/logger.js';
import type { Libp2p } from 'libp2p';
import type { Stream } from '@libp2p/interface';

// Real libp2p QUIC on 127.0.0.1 between in-process nodes (issue 5 item 1; docs/p2p.md).

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const genesis = new Uint8Array(randomBytes(32));
const started: P2PNetwork[] = [];
const dirs: string[] = [];

async function makeNode(overrides: Partial<P2PNetworkOptions> = {}): Promise<P2PNetwork> {
  const dataDir = overrides.dataDir ?? await mkdtemp(join(tmpdir(), 'ntv-p2p-'));
  dirs.push(dataDir);
  const net = await P2PNetwork.create({
    dataDir, listenPort: 0, host: '127.0.0.1', bootnodes: [], genesisHash: genesis, chainId: 7,
    enforceValidatorAllowlist: false, logger: quiet, statusIntervalMs: 200, requestTimeoutMs: 5_000, ...overrides,
  });
  started.push(net);
  await net.start();
  return net;
}

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Publish every 200 ms until `received` holds something (the mesh forms on the first heartbeats). */
async function publishUntil(net: P2PNetwork, topic: 'bundles' | 'blocks' | 'votes', data: Uint8Array, received: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!received()) {
    if (Date.now() > end) throw new Error(`${topic} message not received`);
    await net.publish(topic, data);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function ready(net: P2PNetwork, peer: P2PNetwork): boolean {
  return net.readyPeers().some((p) => p.id === peer.peerId);
}

// The libp2p node and gossipsub's stream map inside a P2PNetwork, for the gossip stream repair tests.
type OutboundEntry = { rawStream: Stream };
function libp2pOf(net: P2PNetwork): Libp2p {
  return (net as unknown as { node: Libp2p }).node;
}
function pubsubOf(net: P2PNetwork): { streamsOutbound: Map<string, OutboundEntry> } {
  return (libp2pOf(net) as unknown as { services: { pubsub: { streamsOutbound: Map<string, OutboundEntry> } } }).services.pubsub;
}

/** Whether `net`'s gossip stream to `peer` is open and on an open connection to it. */
function gossipStreamLive(net: P2PNetwork, peer: P2PNetwork): boolean {
  const raw = pubsubOf(net).streamsOutbound.get(peer.peerId)?.rawStream;
  return raw !== undefined && raw.status === 'open'
    && libp2pOf(net).getConnections(libp2pOf(peer).peerId).some((c) => c.status === 'open' && c.streams.includes(raw));
}

beforeAll(() => initHashing());

afterEach(async () => {
  await Promise.all(started.splice(0).map((n) => n.stop()));
});

afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('readFrames', () => {
  async function* chunks(bytes: Uint8Array, sizes: number[]): AsyncGenerator<Uint8Array> {
    for (let o = 0, i = 0; o < bytes.length; o += sizes[i++ % sizes.length]!) yield bytes.subarray(o, o + sizes[i % sizes.length]!);
  }

  it('cuts frames out of chunks of any size, length prefixes split across chunks included', async () => {
    const payloads = [randomBytes(15_000), randomBytes(3), new Uint8Array(0), randomBytes(7_001)].map((b) => new Uint8Array(b));
    const stream = Buffer.concat(payloads.map(frame));
    for (const sizes of [[1], [3, 5], [1_200, 7], [stream.length]]) {
      const frames = await readFrames(chunks(stream, sizes), { maxFrameBytes: 20_000, maxFrames: 4 });
      expect(frames.map((f) => Buffer.from(f))).toEqual(payloads.map((p) => Buffer.from(p)));
    }
    await expect(readFrames(chunks(stream.subarray(0, stream.length - 1), [1_000]), { maxFrameBytes: 20_000, maxFrames: 4 })).rejects.toThrow('stream ended inside a frame');
    await expect(readFrames(chunks(stream, [1_000]), { maxFrameBytes: 10_000, maxFrames: 4 })).rejects.toThrow('exceeds the limit');
    await expect(readFrames(chunks(stream, [1_000]), { maxFrameBytes: 20_000, maxFrames: 3 })).rejects.toThrow('more than 3 frames');
  });
});

describe('P2PNetwork over QUIC', () => {
  it('keeps its identity in the data dir across restarts', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ntv-p2p-'));
    const first = await makeNode({ dataDir });
    const id = first.peerId;
    await first.stop();
    const second = await makeNode({ dataDir });
    expect(second.peerId).toBe(id);
    expect((await readFile(join(dataDir, 'p2p.key'), 'utf8')).trim()).toMatch(/^[0-9a-f]+$/);
    expect(second.multiaddrs().some((a) => a.startsWith('/ip4/127.0.0.1/udp/') && a.includes('/quic-v1/p2p/'))).toBe(true);
  });

  it('announces --external-addr (spec §4.20) in place of its listen address, and still connects', async () => {
    // 203.0.113.0/24 is TEST-NET-3 (RFC 5737): an address this machine does not listen on, as
    // behind NAT, so it can only be in the list because it was announced.
    const external = '/ip4/203.0.113.7/udp/9944/quic-v1';
    const plain = await makeNode();
    const natted = await makeNode({ externalAddr: external, bootnodes: [plain.multiaddrs()[0]!] });
    expect(natted.multiaddrs()).toEqual([`${external}/p2p/${natted.peerId}`]);
    expect(plain.multiaddrs().some((a) => a.includes('203.0.113.7'))).toBe(false);
    // Announcing is all it changes: the node still listens and handshakes over its real socket.
    await until('handshake', () => ready(natted, plain) && ready(plain, natted));
  });

  it('handshakes through a bootnode, learns the head height and gossips both ways', async () => {
    const a = await makeNode({ head: () => ({ height: 42, hash: new Uint8Array(32).fill(4) }) });
    const b = await makeNode({ bootnodes: [a.multiaddrs()[0]!] });
    await until('handshake', () => ready(b, a) && ready(a, b));
    expect(b.bestPeerHeight()).toBe(42);
    expect(a.bestPeerHeight()).toBe(0);
    const peerOfA = b.connectedPeers().find((p) => p.id === a.peerId)!;
    expect(peerOfA).toMatchObject({ height: 42, headHash: '04'.repeat(32), direction: 'outbound', score: 0 });

    const atB: Array<{ data: string; from: string }> = [];
    const atA: string[] = [];
    b.on('bundles', (data, from) => void atB.push({ data: Buffer.from(data).toString(), from }));
    a.on('votes', (data) => void atA.push(Buffer.from(data).toString()));
    await publishUntil(a, 'bundles', Buffer.from('bundle-1'), () => atB.length > 0);
    expect(atB[0]).toEqual({ data: 'bundle-1', from: a.peerId });
    await publishUntil(b, 'votes', Buffer.from('vote-1'), () => atA.length > 0);
    expect(atA[0]).toBe('vote-1');
    // gossip of a later block raises the peer's known height
    b.notePeerHeight(a.peerId, 50);
    expect(b.bestPeerHeight()).toBe(50);
  });

  it('reconnects a peer whose gossip stream closed while the connection stayed up, and gossips to it again (docs/p2p.md "Gossip stream repair")', async () => {
    const a = await makeNode();
    const b = await makeNode({ bootnodes: [a.multiaddrs()[0]!] });
    await until('handshake', () => ready(b, a) && ready(a, b));
    const atB: string[] = [];
    b.on('bundles', (data) => void atB.push(Buffer.from(data).toString()));
    await publishUntil(a, 'bundles', Buffer.from('before'), () => atB.includes('before'));
    // What chaos runs showed: gossipsub's outbound stream to a peer gone, the QUIC connection up.
    const pubsub = pubsubOf(a);
    pubsub.streamsOutbound.get(b.peerId)!.rawStream.abort(new Error('stream lost (test)'));
    await until('the stream gone', () => !pubsub.streamsOutbound.has(b.peerId));
    await until('the repair', () => a.counters.gossipRepairs > 0);
    await until('handshake again', () => ready(b, a) && ready(a, b));
    await publishUntil(a, 'bundles', Buffer.from('after'), () => atB.includes('after'));
    // Both ways: a's hang-up and redial can reach b in either order, and b must come out of it
    // with a gossip stream that works too (not one left on the closed connection).
    const atA: string[] = [];
    a.on('bundles', (data) => void atA.push(Buffer.from(data).toString()));
    await publishUntil(b, 'bundles', Buffer.from('back'), () => atA.includes('back'));
    expect(gossipStreamLive(a, b)).toBe(true);
    expect(gossipStreamLive(b, a)).toBe(true);
  });

  it('reconnects a peer whose gossip stream was left on a connection that closed (docs/p2p.md "Gossip stream repair")', async () => {
    const a = await makeNode();
    const b = await makeNode({ bootnodes: [a.multiaddrs()[0]!] });
    await until('handshake', () => ready(b, a) && ready(a, b));
    const atA: string[] = [];
    a.on('bundles', (data) => void atA.push(Buffer.from(data).toString()));
    await publishUntil(b, 'bundles', Buffer.from('before'), () => atA.includes('before'));
    // What a loaded run showed: a hung up and redialled, b saw the new connection before the old
    // one's close, so no peer:disconnect, and b's gossipsub kept its outbound stream on the closed
    // connection, still marked open, and never opened another. Made here with a second connection
    // and the first one closed: gossipsub keeps the old stream by itself about every other time
    // (on the code before the fix, 3 runs of 6); putting it back makes it every time.
    const pb = pubsubOf(b);
    const old = pb.streamsOutbound.get(a.peerId)!;
    const first = libp2pOf(a).getConnections(libp2pOf(b).peerId)[0]!;
    await libp2pOf(a).dial(libp2pOf(b).peerId, { force: true });
    await first.close();
    await until('the old connection gone at b', () => !libp2pOf(b).getConnections(libp2pOf(a).peerId).some((c) => c.streams.includes(old.rawStream)));
    const repairs = b.counters.gossipRepairs;
    pb.streamsOutbound.set(a.peerId, old);
    await until('the repair', () => b.counters.gossipRepairs > repairs);
    await until('handshake again', () => ready(b, a) && ready(a, b));
    await publishUntil(b, 'bundles', Buffer.from('after'), () => atA.includes('after'));
    expect(gossipStreamLive(b, a)).toBe(true);
  });

  it('refuses a peer on another genesis', async () => {
    const a = await makeNode();
    const other = await makeNode({ genesisHash: new Uint8Array(32).fill(9) });
    await other.dial(a.multiaddrs()[0]!).catch(() => undefined);
    // The listener answers with its own status before hanging up, so the dialler usually refuses
    // too; under load the hang-up can win that race, so only the listener's refusal is certain.
    await until('refusal', () => a.counters.refusedPeers > 0);
    expect(a.readyPeers()).toEqual([]);
    expect(other.readyPeers()).toEqual([]);
    await until('disconnect', () => a.connectedPeers().length === 0);
    expect(a.isBanned(other.peerId)).toBe(true);
  });

  it('serves block batches of at most 10 with their certificates', async () => {
    const a = await makeNode();
    const held = 25;
    a.setBlockServer(async (from, count) => {
      const out = [];
      for (let h = from; h < Math.min(from + count, held + 1); h++) {
        out.push({ block: Buffer.from(`block-${h}`), certificate: Buffer.from(`cert-${h}`) });
      }
      return out;
    });
    const b = await makeNode({ bootnodes: [a.multiaddrs()[0]!] });
    await until('handshake', () => ready(b, a));
    const batch = await b.requestBlocks(a.peerId, 5, 10);
    expect(batch.map((x) => x.height)).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(Buffer.from(batch[3]!.block).toString()).toBe('block-8');
    expect(Buffer.from(batch[3]!.certificate).toString()).toBe('cert-8');
    const tail = await b.requestBlocks(a.peerId, 22, 10);
    expect(tail.map((x) => x.height)).toEqual([22, 23, 24, 25]);
    expect(await b.requestBlocks(a.peerId, 26, 10)).toEqual([]);
    await expect(b.requestBlocks(a.peerId, 1, 11)).rejects.toThrow(/count must be 1..10/);
    expect(a.counters.blocksServed).toBe(14);
    // The light node's requests: headers (its own server, same framing) and the validator set;
    // a node that serves neither answers nothing.
    expect(await b.requestHeaders(a.peerId, 5, 2)).toEqual([]);
    expect(await b.requestValidatorSet(a.peerId)).toBeUndefined();
    a.setHeaderServer(async (from, count) => Array.from({ length: count }, (_, i) => ({ block: Buffer.from(`header-${from + i}`), certificate: Buffer.from('c') })));
    a.setValidatorSetServer(() => Buffer.from('set'));
    const headers = await b.requestHeaders(a.peerId, 5, 2);
    expect(headers.map((x) => [x.height, Buffer.from(x.block).toString()])).toEqual([[5, 'header-5'], [6, 'header-6']]);
    expect(Buffer.from((await b.requestValidatorSet(a.peerId))!).toString()).toBe('set');
  });

  it('disconnects and bans a peer once penalties cross the threshold', async () => {
    const a = await makeNode();
    const b = await makeNode({ bootnodes: [a.multiaddrs()[0]!] });
    await until('handshake', () => ready(b, a) && ready(a, b));
    a.penalize(b.peerId, 'test: invalid block');
    expect(a.scoreOf(b.peerId)).toBeCloseTo(-25, 2); // scores decay back toward 0 with time
    expect(a.isBanned(b.peerId)).toBe(false);
    for (let i = 0; i < 3; i++) a.penalize(b.peerId, 'test: invalid block');
    expect(a.isBanned(b.peerId)).toBe(true);
    await until('disconnect', () => a.connectedPeers().length === 0);
    // the gater refuses the banned peer's reconnection (b keeps re-dialling its bootnode)
    await new Promise((r) => setTimeout(r, 1500));
    expect(a.readyPeers()).toEqual([]);
    expect(b.readyPeers()).toEqual([]);
  });

  it('rejects gossip the chain layer finds invalid and penalizes the sender', async () => {
    const a = await makeNode();
    const b = await makeNode({ bootnodes: [a.multiaddrs()[0]!] });
    const delivered: string[] = [];
    b.validate('blocks', (data) => (Buffer.from(data).toString().startsWith('good') ? 'accept' : 'reject'));
    b.on('blocks', (data) => void delivered.push(Buffer.from(data).toString()));
    await until('handshake', () => ready(b, a) && ready(a, b));
    await publishUntil(a, 'blocks', Buffer.from(`good-${Date.now()}`), () => delivered.length > 0);
    await a.publish('blocks', Buffer.from('bad-1'));
    await until('rejection', () => b.counters.gossipRejected > 0);
    expect(delivered.every((d) => d.startsWith('good'))).toBe(true);
    expect(b.scoreOf(a.peerId)).toBeLessThan(0);
  });

  it('under --enforce-validator-allowlist takes blocks and votes only from proven validators', async () => {
    const validatorKey = generateEd25519();
    const isValidator = (key: Uint8Array) => Buffer.from(key).equals(Buffer.from(validatorKey.publicKey));
    const validator = await makeNode({ validatorKey, isValidator });
    const outsider = await makeNode({ isValidator, bootnodes: [validator.multiaddrs()[0]!] });
    const guarded = await makeNode({ isValidator, enforceValidatorAllowlist: true, bootnodes: [validator.multiaddrs()[0]!, outsider.multiaddrs()[0]!] });
    await until('handshakes', () => ready(guarded, validator) && ready(guarded, outsider) && ready(outsider, validator));
    expect(guarded.isValidatorPeer(validator.peerId)).toBe(true);
    expect(guarded.isValidatorPeer(outsider.peerId)).toBe(false);
    expect(guarded.connectedPeers().find((p) => p.id === validator.peerId)?.validatorKey).toBe(Buffer.from(validatorKey.publicKey).toString('hex'));

    const blocks: string[] = [];
    const bundles: string[] = [];
    guarded.on('blocks', (data) => void blocks.push(Buffer.from(data).toString()));
    guarded.on('bundles', (data) => void bundles.push(Buffer.from(data).toString()));
    await publishUntil(validator, 'blocks', Buffer.from(`from-validator-${Date.now()}`), () => blocks.length > 0);
    // the outsider's block is ignored even where the validator relays it; its bundles still flow
    await publishUntil(outsider, 'bundles', Buffer.from('outsider-bundle'), () => bundles.length > 0);
    await outsider.publish('blocks', Buffer.from('outsider-block'));
    await until('ignored', () => guarded.counters.gossipIgnored > 0);
    await new Promise((r) => setTimeout(r, 1000));
    expect(blocks.every((b) => b.startsWith('from-validator'))).toBe(true);
    expect(guarded.isBanned(outsider.peerId)).toBe(false);
  });
});
