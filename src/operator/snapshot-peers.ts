import { decodeStoredBlock, type BlockHeader } from '../chain/block.js';
import { toHex } from '../codec/hash.js';
import type { Logger } from '../logger.js';
import { P2PNetwork } from '../p2p/network.js';

/**
 * The snapshot restore's peer check (issue 24; docs/operations.md "Snapshots: the peers' header"):
 * before a snapshot is imported, the header at its height is fetched with its certificate from the
 * `--bootnodes` peers, which the handshake admits only on this node's own genesis (chain id and
 * genesis hash from its flags). A snapshot whose head is not that header is refused, as is one no
 * peer can vouch for.
 */

export interface PeerHeader {
  peer: string;
  header: BlockHeader;
  certificate: Uint8Array;
}

export interface PeerCheckOptions {
  dataDir: string;
  bootnodes: string[];
  genesisHash: Uint8Array;
  chainId: number;
  /** --p2p-host: the transient network binds it on a free port */
  host: string;
  logger: Logger;
  /** how long to wait for a first peer (default 10 s) and for the others after it (default 0.3 s) */
  connectTimeoutMs?: number;
  settleMs?: number;
}

export class PeerCheckError extends Error {}

/** Headers at `height` from every bootnode peer that completes the handshake and holds it. */
export async function peerHeadersAt(height: number, options: PeerCheckOptions): Promise<PeerHeader[]> {
  if (options.bootnodes.length === 0) throw new PeerCheckError('--snapshot-url needs --bootnodes: the snapshot\'s head is checked against the header peers serve at its height before anything is restored');
  const network = await P2PNetwork.create({
    dataDir: options.dataDir, listenPort: 0, host: options.host, bootnodes: options.bootnodes,
    genesisHash: options.genesisHash, chainId: options.chainId, enforceValidatorAllowlist: false, logger: options.logger,
    head: () => ({ height: 0, hash: options.genesisHash }), statusIntervalMs: 250,
  });
  for (const topic of ['bundles', 'blocks', 'votes'] as const) network.validate(topic, () => 'ignore');
  try {
    await network.start();
    const deadline = Date.now() + (options.connectTimeoutMs ?? 10_000);
    while (network.readyPeers().length === 0 && Date.now() < deadline) await sleep(100);
    if (network.readyPeers().length === 0) {
      throw new PeerCheckError(`no peer of --bootnodes answered within ${Math.round((options.connectTimeoutMs ?? 10_000) / 1000)} s on this node's genesis ${toHex(options.genesisHash)} (unreachable, or of another genesis): the snapshot's head cannot be checked, nothing was restored`);
    }
    await sleep(options.settleMs ?? 300);
    const out: PeerHeader[] = [];
    const behind: string[] = [];
    for (const peer of network.readyPeers()) {
      try {
        const [served] = await network.requestBlocks(peer.id, height, 1);
        if (!served) {
          behind.push(`${peer.id} (head ${peer.height})`);
          continue;
        }
        out.push({ peer: peer.id, header: decodeStoredBlock(served.block).header, certificate: served.certificate });
      } catch (error) {
        options.logger.warn('snapshot peer check: a peer did not answer', { peer: peer.id, error: String(error) });
      }
    }
    if (out.length === 0) {
      throw new PeerCheckError(`no peer of --bootnodes serves block ${height}${behind.length > 0 ? ` (${behind.join(', ')}: behind it, or pruned)` : ''}: the snapshot's head cannot be checked, nothing was restored`);
    }
    return out;
  } finally {
    await network.stop();
  }
}

/** Why the snapshot's head (height, hash from its manifest) disagrees with the peers' headers, or undefined. */
export function peerHeaderProblem(height: number, blockHash: Uint8Array, headers: PeerHeader[]): string | undefined {
  for (const { peer, header } of headers) {
    if (header.height !== height) return `peer ${peer} served block ${header.height} for height ${height}`;
    if (Buffer.compare(header.hash, blockHash) !== 0) {
      return `its head block ${height} is ${toHex(blockHash)}, peer ${peer} serves ${toHex(header.hash)} at that height (a fork or a forged chain)`;
    }
  }
  return undefined;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
