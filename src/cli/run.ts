import { join } from 'node:path';
import { Command, Option, UsageError } from 'clipanion';
import { parseCheckpoint } from '../light/header-trust.js';
import cliProgress from 'cli-progress';
import * as t from 'typanion';
import { IntegrityError, StartError, startLightNode, startNode, VERIFIER_NICE, type NodeOptions, type RunningLightNode, type RunningNode } from '../node.js';
import { CHAIN_IDS } from '../chain/genesis-data.js';
import { loadChainParamsFile } from '../chain/chain-params.js';
import { normaliseOrigin } from '../rpc/origin.js';
import { LOG_FORMATS } from '../logger.js';
import { runDryImport } from './state.js';
import { shutdownSignals, stopWithin } from './signals.js';
import { DataDirError } from '../storage/data-dir-check.js';
import { describeStorageFault, isStorageFault, StorageError } from '../storage/faults.js';
import { damagedTables } from '../storage/table-check.js';
import { StateCheckError } from '../chain/start-check.js';
import { SnapshotError, SNAPSHOTS_KEPT } from '../operator/snapshots.js';
import { DEFAULT_COLD_AFTER, DEFAULT_CORE_KEYS, DEFAULT_CORE_MB, DEFAULT_HOT_MB } from '../chain/elastic-state.js';
import { parsePruningMode, PRUNING_MODES } from '../chain/pruning.js';
import { GOVERNANCE_MODES, UpgradeRequiredError } from '../domains/upgrades/reader.js';

/** The exit code of a node that stopped at an approved upgrade's height (spec §3, §7.7). */
export const UPGRADE_EXIT_CODE = 42;

/** How long a signal during start-up waits for the start before the process exits (issue 46 item 5). */
const START_STOP_GRACE_MS = 10_000;

/**
 * How long a graceful stop may take once signalled before the process exits 1 (issue 46 item 5:
 * SIGTERM is always honoured). A stop waits for the block under way and the writes posted so far,
 * at most MAX_BLOCKS_IN_FLIGHT blocks: a few seconds even at 10,000 bundles a block; 30 s is also
 * what Docker (10 s) and Kubernetes (30 s) allow before their SIGKILL.
 */
const STOP_GRACE_MS = 30_000;

/** A signalled stop past STOP_GRACE_MS: said, and the process ends as a kill would end it. */
function exitOverdue(stderr: NodeJS.WritableStream, signal: string): never {
  stderr.write(`${signal}: the shutdown did not finish within ${STOP_GRACE_MS / 1000} s: exiting without waiting for it (storage keeps whole blocks only)\n`);
  process.exit(1);
}

/** `--auto-vote-seed <hex>`: a 32-byte Ed25519 seed, 64 hex chars. */
export function parseSeedFlag(flag: string, text: string): Uint8Array {
  const hex = text.trim().replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error(`${flag} must be a 64-hex-char Ed25519 seed`);
  return new Uint8Array(Buffer.from(hex, 'hex'));
}

/** `--genesis-validators <hex>[,<hex>…]`: 32-byte Ed25519 public keys, no repeats. */
export function parseGenesisValidators(text: string): Uint8Array[] {
  const keys = text.split(',').map((k) => k.trim().replace(/^0x/i, '')).filter((k) => k.length > 0);
  if (keys.length === 0) throw new Error('--genesis-validators needs at least one 64-hex public key');
  for (const k of keys) {
    if (!/^[0-9a-fA-F]{64}$/.test(k)) throw new Error(`--genesis-validators: "${k}" is not a 64-hex-char Ed25519 public key`);
  }
  if (new Set(keys.map((k) => k.toLowerCase())).size !== keys.length) throw new Error('--genesis-validators lists a key twice');
  return keys.map((k) => new Uint8Array(Buffer.from(k, 'hex')));
}

/** `--rpc-cors` / `--ws-origins`: comma-separated origins or `*`; a malformed entry stops start-up. */
export function parseOriginsFlag(flag: string, text: string): string[] {
  const entries = text.split(',').map((e) => e.trim()).filter((e) => e.length > 0);
  for (const e of entries) {
    if (e === '*') continue;
    try {
      normaliseOrigin(e);
    } catch (err) {
      throw new Error(`${flag}: ${(err as Error).message}`);
    }
  }
  return entries;
}

const isPort = t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(0, 65535)]);
const isNonNegativeInteger = t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(0)]);
const isPositiveInteger = t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(1)]);
const isPositiveFraction = t.cascade(t.isNumber(), [t.isPositive()]);
const isPositiveNumber = t.cascade(t.isNumber(), [t.isAtLeast(0.5)]);

/** A progress callback drawing a bar on stderr with this format; a new bar after one completes. */
function progressBar(format: string): (done: number, total: number) => void {
  let bar: cliProgress.SingleBar | undefined;
  return (done, total) => {
    if (!bar) {
      bar = new cliProgress.SingleBar({ format, stream: process.stderr }, cliProgress.Presets.shades_classic);
      bar.start(total, done);
    }
    bar.setTotal(total);
    bar.update(done);
    if (done >= total) {
      bar.stop();
      bar = undefined;
    }
  };
}

/**
 * `ntv-node run`: a single-validator node (spec §4.20). Flags of §4.20 that belong to features
 * not built yet (p2p, snapshots, pruning, metrics, governance) arrive with those features.
 */
export class RunCommand extends Command {
  static override paths = [['run'], Command.Default];

  static override usage = Command.Usage({
    description: 'Run a node: JSON-RPC on 127.0.0.1:9933, state in ./data, producing blocks as the validator.',
    examples: [
      ['A testnet node with defaults', 'ntv-node run'],
      ['Another data dir and port, verbose', 'ntv-node run -d /var/lib/ntv --rpc-port 19933 -v'],
      ['Free transactions and fast idle blocks', 'ntv-node run --gas-price 0 --block-time 2'],
    ],
  });

  dataDir = Option.String('-d,--data-dir', './data', { description: 'Data directory (default: ./data)' });
  network = Option.String('--network', 'testnet', {
    description: `Network: testnet (chain ${CHAIN_IDS.testnet}) or mainnet (chain ${CHAIN_IDS.mainnet}) (default: testnet)`,
    validator: t.isEnum(['testnet', 'mainnet'] as const),
  });
  rpcPort = Option.String('--rpc-port', '9933', { description: 'JSON-RPC port, HTTP and WebSocket (default: 9933)', validator: isPort });
  rpcHost = Option.String('--rpc-host', '127.0.0.1', {
    description: 'Address the RPC binds to; keep it local or trusted (spec §5.11) (default: 127.0.0.1)',
  });
  gasPrice = Option.String('--gas-price', '10', {
    description: 'nanoNTV per gas unit; 0 gives free transactions (default: 10)', validator: isNonNegativeInteger,
  });
  blockTime = Option.String('--block-time', '12', {
    description: 'Idle block interval in seconds; under load blocks follow every 0.5 s (default: 12)', validator: isPositiveNumber,
  });
  maxTxsPerBlock = Option.String('--max-txs-per-block', '10000', {
    description: 'Bundles per block at most (default: 10000)', validator: isPositiveInteger,
  });
  mempoolMax = Option.String('--mempool-max', '200000', {
    description: 'Bundles the mempool holds at most; when full, a bundle paying a higher max_priority_fee evicts the cheapest (docs/mempool.md) (default: 200000)',
    validator: isPositiveInteger,
  });
  mempoolMaxQueued = Option.String('--mempool-max-queued', '20000', {
    description: 'Bundles queued behind a nonce gap the mempool holds at most, across accounts (docs/mempool.md) (default: 20000)',
    validator: isNonNegativeInteger,
  });
  mempoolMaxQueuedPerAccount = Option.String('--mempool-max-queued-per-account', '64', {
    description: 'Bundles one account may have queued behind a nonce gap (docs/mempool.md) (default: 64)', validator: isNonNegativeInteger,
  });
  mempoolMaxNonceGap = Option.String('--mempool-max-nonce-gap', '256', {
    description: 'How far past the account\'s next free nonce a bundle may be (docs/mempool.md) (default: 256)', validator: isNonNegativeInteger,
  });
  mempoolLifetime = Option.String('--mempool-lifetime', '10800', {
    description: 'Seconds a bundle may wait in the mempool, whatever its valid_until (docs/mempool.md) (default: 10800, 3 h)',
    validator: isPositiveInteger,
  });
  verifierNice = Option.String('--verifier-nice', String(VERIFIER_NICE), {
    description: `Nice value (0–19) of the signature verifier threads: above 0 they yield a shared core to block production, its write and the RPC (docs/performance.md) (default: ${VERIFIER_NICE})`,
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(0, 19)]),
  });
  rpcRateLimit = Option.String('--rpc-rate-limit', '100', {
    description: 'Per-IP JSON-RPC cost units per second (a call is 1, heavy methods and body/reply bytes more: docs/rpc.md "Rate limit"); loopback clients exempt unless --rpc-limit-loopback; 0 = unlimited (default: 100)', validator: isNonNegativeInteger,
  });
  rpcKeepAliveTimeout = Option.String('--rpc-keep-alive-timeout', '120', {
    description: 'Seconds an idle HTTP keep-alive connection stays open between requests (docs/rpc.md) (default: 120)',
    validator: isPositiveInteger,
  });
  rpcHeaderTimeout = Option.String('--rpc-header-timeout', '10', {
    description: 'Seconds within which a request\'s headers must arrive, else 408 and close (slow-header clients) (default: 10)',
    validator: isPositiveInteger,
  });
  rpcRequestTimeout = Option.String('--rpc-request-timeout', '30', {
    description: 'Seconds within which a whole request, headers and body, must arrive, else 408 and close; at least --rpc-header-timeout (default: 30)',
    validator: isPositiveInteger,
  });
  rpcMaxConnectionsPerIp = Option.String('--rpc-max-connections-per-ip', '128', {
    description: 'Open RPC connections (HTTP and WebSocket) per client IP, more get 503; 0 = no cap (default: 128)',
    validator: isNonNegativeInteger,
  });
  rpcMaxConnections = Option.String('--rpc-max-connections', {
    description: 'Open RPC connections in all (HTTP keep-alive and WebSocket), more get 503 and a warning is logged; 0 = no cap (docs/rpc.md "Connections") (default: half the open-file limit, at most 4096)',
    validator: isNonNegativeInteger,
  });
  rpcLimitLoopback = Option.Boolean('--rpc-limit-loopback', false, {
    description: 'Apply the per-IP limits (--rpc-rate-limit, --rpc-max-connections-per-ip, --ws-max-connections-per-ip, subscription and filter shares) to loopback clients too, e.g. behind a reverse proxy on the same machine (default: off, loopback clients are exempt)',
  });
  rpcResponseMaxSize = Option.String('--rpc-response-max-size', '16777216', {
    description: 'Largest reply to one call in bytes; larger is -32015 RESPONSE_TOO_LARGE; 0 = no bound (docs/rpc.md "Response budget") (default: 16777216, 16 MiB)',
    validator: isNonNegativeInteger,
  });
  rpcBatchResponseMaxSize = Option.String('--rpc-batch-response-max-size', '25000000', {
    description: 'Largest reply to one batch in bytes (as geth\'s --rpc.batch-response-max-size): entries past it are -32015 RESPONSE_TOO_LARGE; 0 = no bound (default: 25000000)',
    validator: isNonNegativeInteger,
  });
  wsMaxConnectionsPerIp = Option.String('--ws-max-connections-per-ip', '32', {
    description: 'Open WebSocket connections per client IP, a share of the 1000 the node serves; more get 503; 0 = no cap (default: 32)',
    validator: isNonNegativeInteger,
  });
  rpcMaxSubscriptions = Option.String('--rpc-max-subscriptions', '10000', {
    description: 'WebSocket subscriptions the node holds in all; more is -32015 (docs/rpc.md "Subscriptions and filters") (default: 10000)', validator: isNonNegativeInteger,
  });
  rpcMaxSubscriptionsPerIp = Option.String('--rpc-max-subscriptions-per-ip', '512', {
    description: 'WebSocket subscriptions one client IP may hold over its connections; 0 = no cap (default: 512)', validator: isNonNegativeInteger,
  });
  rpcMaxFilters = Option.String('--rpc-max-filters', '4096', {
    description: 'eth_newFilter/eth_newBlockFilter/eth_newPendingTransactionFilter filters the node holds in all; more is -32015 (default: 4096)', validator: isNonNegativeInteger,
  });
  rpcMaxFiltersPerIp = Option.String('--rpc-max-filters-per-ip', '128', {
    description: 'eth_* polled filters one client IP may hold; 0 = no cap (default: 128)', validator: isNonNegativeInteger,
  });
  wsFanoutShare = Option.String('--ws-fanout-share', '2', {
    description: 'Percent of the event loop subscription delivery may take while bundles wait in the mempool (25 % while it is empty); more delivers more notifications under load at the cost of block throughput (docs/subscriptions.md "Fan-out") (default: 2)',
    validator: t.cascade(t.isNumber(), [t.isInInclusiveRange(0.1, 100)]),
  });
  rpcCors = Option.String('--rpc-cors', '', {
    description: 'Comma-separated origins (scheme://host[:port]) of web pages allowed to call the RPC over HTTP, * = any (default: none; the node\'s own page always)',
  });
  wsOrigins = Option.String('--ws-origins', '', {
    description: 'Comma-separated origins of web pages allowed to open a WebSocket, * = any (default: none; the node\'s own page always)',
  });
  rpcVhosts = Option.String('--rpc-vhosts', 'localhost', {
    description: 'Comma-separated host names the RPC may be addressed as (Host header; IP addresses always), * = any; against DNS rebinding (default: localhost)',
  });
  validatorKey = Option.String('--validator-key', {
    description: 'File with the 64-hex-char Ed25519 secret key; generated into the data dir when absent (default: none)',
  });
  verbose = Option.Boolean('-v,--verbose', false, { description: 'Verbose logging (default: off)' });
  logFormat = Option.String('--log-format', 'auto', {
    description: 'Console log format: pretty (one human line per entry, a line per block), json (one object per line), or auto: pretty on a terminal, json when piped (default: auto)',
    validator: t.isEnum(LOG_FORMATS),
  });
  backfillIndexes = Option.Boolean('--backfill-indexes', false, {
    description: 'Rebuild the explorer indexes from stored blocks and receipts at start-up, before the RPC opens (default: off)',
  });
  p2pPort = Option.String('--p2p-port', '9944', { description: 'P2P port, UDP (QUIC); 0 picks a free one (default: 9944)', validator: isPort });
  p2pHost = Option.String('--p2p-host', '0.0.0.0', {
    description: 'Address the P2P socket binds to; the P2P port must be open to all peers (spec §5.11) (default: 0.0.0.0)',
  });
  bootnodes = Option.String('--bootnodes', '', {
    description: 'Comma-separated peers to dial, /ip4/<ip>/udp/<port>/quic-v1/p2p/<peer_id> (default: none)',
  });
  externalAddr = Option.String('--external-addr', { description: 'Multiaddr announced to peers, e.g. behind NAT (default: none)' });
  enforceValidatorAllowlist = Option.Boolean('--enforce-validator-allowlist', false, {
    description: 'Take gossiped blocks and votes only from peers proven to hold a key of the validator set (default: off)',
  });

  genesisValidators = Option.String('--genesis-validators', {
    description: 'Comma-separated 64-hex Ed25519 public keys of the genesis validators; every node of a network passes the same list (default: this node\'s validator key)',
  });
  failoverTimeout = Option.String('--failover-timeout', '5', {
    description: 'Seconds after the leader was due before the first backup proposes (facts: 5 s; docs/consensus.md) (default: 5)',
    validator: t.cascade(t.isNumber(), [t.isAtLeast(0.05)]),
  });
  failoverStep = Option.String('--failover-step', '3', {
    description: 'Seconds between further backups taking over (facts: 3 s; docs/consensus.md) (default: 3)',
    validator: t.cascade(t.isNumber(), [t.isAtLeast(0.05)]),
  });
  // Governance flags (spec §4.20; docs/upgrades.md): on an empty data dir they set the genesis's
  // governance record; on a chain that has one, a flag that contradicts it refuses the start.
  governanceMode = Option.String('--governance-mode', {
    description: 'Upgrade governance: seed-authority (the --upgrade-authority key approves) or full (stake-weighted validator vote); fixed in genesis (default: seed-authority)',
    validator: t.isEnum(GOVERNANCE_MODES),
  });
  upgradeAuthority = Option.String('--upgrade-authority', {
    description: 'seed-authority mode: 64-hex Ed25519 public key whose account approves upgrades; fixed in genesis (default: none, only the governance account 0x00…09)',
  });
  autoVoteSeed = Option.String('--auto-vote-seed', {
    description: '64-hex Ed25519 seed whose account this node uses to vote for every pending upgrade plan (default: none)',
  });
  votingPeriod = Option.String('--voting-period', {
    description: 'Blocks an upgrade plan stays open for votes; fixed in genesis (default: 500)', validator: isPositiveInteger,
  });
  upgradeQuorum = Option.String('--upgrade-quorum', {
    description: 'full mode: percent of the active stake that approves an upgrade; fixed in genesis (default: 67)',
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 100)]),
  });
  waitAtUpgrade = Option.Boolean('--wait-at-upgrade', false, {
    description: 'At an approved upgrade this release does not implement, keep serving without executing past its height instead of exiting 42 (set by `ntv-node supervise` after a refused swap or a rollback) (default: off)',
  });
  chainParams = Option.String('--chain-params', {
    description: 'JSON file overriding staking/consensus parameters (epoch_length, jail_durations, ...; docs/staking.md); changes the genesis (default: spec values)',
  });
  metrics = Option.Boolean('--metrics', false, {
    description: 'Serve Prometheus metrics on GET /metrics (docs/operations.md "Metrics") (default: off)',
  });
  metricsPort = Option.String('--metrics-port', '9100', { description: 'Port of the metrics endpoint, with --metrics (default: 9100)', validator: isPort });
  metricsExternal = Option.Boolean('--metrics-external', false, {
    description: 'Bind the metrics endpoint to all interfaces instead of 127.0.0.1 (default: off, localhost only)',
  });
  verifyOnStart = Option.Boolean('--verify-on-start', false, {
    description: 'Check every stored record and the state root before starting; exit non-zero on a malformed record, listing the first ten keys (docs/operations.md "Integrity") (default: off)',
  });
  forceNewChain = Option.Boolean('--force-new-chain', false, {
    description: 'Start a new chain in a data directory whose chain.json names an earlier chain whose database and block files are gone; refused while either is there (docs/operations.md "When a start refuses") (default: off)',
  });
  verifyIntervalSecs = Option.String('--rocksdb-verify-interval-secs', {
    description: 'Run the same integrity sweep in the background every N seconds and log anomalies; the spec\'s name, kept for operators\' scripts (the store is LevelDB) (default: off)',
    validator: isPositiveInteger,
  });
  pruning = Option.String('--pruning', 'archive', {
    description: 'archive (all blocks, state at every block), validator (last 10,000 blocks, 7 days of explorer data) or aggressive (last 256 blocks, 24 h of explorer data); both serve state at the last 128 blocks at least; pruning every 100 blocks, compaction every 1,000 (docs/operations.md "Pruning") (default: archive)',
  });
  pruningKeepBlocks = Option.String('--pruning-keep-blocks', {
    description: 'Blocks a pruning node keeps, overriding its mode\'s window (a dev and test knob; the states served shrink with it below 128) (default: the mode\'s)', validator: isPositiveInteger,
  });
  pruningEvery = Option.String('--pruning-every', '100', {
    description: 'Prune every N blocks; compaction runs every 10 N (spec: 100) (default: 100)', validator: isPositiveInteger,
  });
  serveSnapshots = Option.Boolean('--serve-snapshots', false, {
    description: 'Checkpoint the state every 1,000 blocks, keep the last 3, and serve them as .tar.zst over HTTP on the RPC port + 10 (docs/operations.md "Snapshots") (default: off)',
  });
  snapshotInterval = Option.String('--snapshot-interval', '1000', {
    description: 'Blocks between snapshots with --serve-snapshots (spec: 1,000; a dev and test knob) (default: 1000)', validator: isPositiveInteger,
  });
  snapshotUrl = Option.String('--snapshot-url', {
    description: 'On a first start, download a .tar.zst snapshot (or the newest one a serving node lists at this base URL), verify and restore it, then sync the rest from peers (default: none)',
  });
  elasticState = Option.Boolean('--elastic-state', false, {
    description: 'Keep committed state in tiers (a bounded in-memory hot cache over the database) instead of wholly in memory (docs/operations.md "Elastic state") (default: off)',
  });
  elasticHotMb = Option.String('--elastic-hot-mb', String(DEFAULT_HOT_MB), {
    description: `Bound of the hot tier in MiB with --elastic-state, fractions allowed (docs/operations.md "Elastic state") (default: ${DEFAULT_HOT_MB})`, validator: isPositiveFraction,
  });
  elasticCoreKeys = Option.String('--elastic-core-keys', String(DEFAULT_CORE_KEYS), {
    description: `With --elastic-state, replace the core instance between blocks once its cache holds more keys than this (docs/operations.md "Elastic state") (default: ${DEFAULT_CORE_KEYS})`, validator: isPositiveInteger,
  });
  elasticCoreMb = Option.String('--elastic-core-mb', String(DEFAULT_CORE_MB), {
    description: `With --elastic-state, replace the core instance between blocks once its WebAssembly memory is larger than this many MiB (docs/operations.md "Elastic state") (default: ${DEFAULT_CORE_MB})`, validator: isPositiveFraction,
  });
  light = Option.Boolean('--light', false, {
    description: 'Run a light node: follow block headers and finality certificates from --bootnodes, verifying signatures and stake against the validator set proven from state roots; no state, no block production; state methods answer -32013 (docs/operations.md "Light node"). Needs --genesis-validators (default: off)',
  });
  checkpoint = Option.String('--checkpoint', {
    description: 'With --light, start from this trusted epoch boundary block, height:hash (svc_getEpochProofs names them), rather than genesis; it must be recent (docs/replay.md "Weak subjectivity", docs/light-client.md) (default: genesis)',
  });
  elasticColdAfter = Option.String('--elastic-cold-after', String(DEFAULT_COLD_AFTER), {
    description: `With --elastic-state, move state records not written for this many blocks (up to twice as many) to the cold tier; 0: no cold tier (docs/operations.md "Elastic state") (default: ${DEFAULT_COLD_AFTER})`, validator: isNonNegativeInteger,
  });
  dryRunImport = Option.String('--dry-run-import', {
    description: 'Test-import a state export (ntv-node export) into a temporary database, report, and exit without starting; non-zero exit naming the first bad records (default: off)',
  });

  async execute(): Promise<number> {
    if (this.dryRunImport !== undefined) return runDryImport(this.dryRunImport, this.context.stdout, this.context.stderr);
    if (this.rpcRequestTimeout < this.rpcHeaderTimeout) {
      throw new Error(`--rpc-request-timeout (${this.rpcRequestTimeout}) must be at least --rpc-header-timeout (${this.rpcHeaderTimeout})`);
    }
    // Flag errors as clipanion usage errors: the message without a stack trace.
    let mode;
    try {
      mode = parsePruningMode(this.pruning);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const window = PRUNING_MODES[mode];
    if (!window && this.pruningKeepBlocks !== undefined) throw new UsageError('--pruning-keep-blocks needs --pruning validator or aggressive');
    const options: NodeOptions = {
      dataDir: this.dataDir,
      network: this.network,
      rpcHost: this.rpcHost,
      rpcPort: this.rpcPort,
      gasPrice: BigInt(this.gasPrice),
      blockTimeMs: Math.round(this.blockTime * 1000),
      maxTxsPerBlock: this.maxTxsPerBlock,
      rpcRateLimit: this.rpcRateLimit,
      verifierNice: this.verifierNice,
      mempool: {
        maxBundles: this.mempoolMax, maxQueued: this.mempoolMaxQueued, maxQueuedPerAccount: this.mempoolMaxQueuedPerAccount,
        maxNonceGap: BigInt(this.mempoolMaxNonceGap), lifetimeSeconds: BigInt(this.mempoolLifetime),
      },
      rpcKeepAliveTimeoutMs: this.rpcKeepAliveTimeout * 1000,
      rpcHeadersTimeoutMs: this.rpcHeaderTimeout * 1000,
      rpcRequestTimeoutMs: this.rpcRequestTimeout * 1000,
      rpcMaxConnectionsPerIp: this.rpcMaxConnectionsPerIp,
      rpcCorsOrigins: parseOriginsFlag('--rpc-cors', this.rpcCors),
      wsOrigins: parseOriginsFlag('--ws-origins', this.wsOrigins),
      rpcVhosts: this.rpcVhosts.split(',').map((h) => h.trim()).filter((h) => h.length > 0),
      rpcBudgets: {
        ...(this.rpcMaxConnections !== undefined ? { maxConnections: this.rpcMaxConnections } : {}),
        limitLoopback: this.rpcLimitLoopback,
        maxResponseBytes: this.rpcResponseMaxSize,
        maxBatchResponseBytes: this.rpcBatchResponseMaxSize,
        maxWsConnectionsPerIp: this.wsMaxConnectionsPerIp,
        maxSubscriptions: this.rpcMaxSubscriptions,
        maxSubscriptionsPerIp: this.rpcMaxSubscriptionsPerIp,
        maxFilters: this.rpcMaxFilters,
        maxFiltersPerIp: this.rpcMaxFiltersPerIp,
        fanoutShare: this.wsFanoutShare / 100,
      },
      validatorKeyPath: this.validatorKey,
      verbose: this.verbose,
      logFormat: this.logFormat,
      backfillIndexes: this.backfillIndexes,
      genesisValidators: this.genesisValidators === undefined ? undefined : parseGenesisValidators(this.genesisValidators),
      chainParams: this.chainParams === undefined ? undefined : loadChainParamsFile(this.chainParams),
      p2pPort: this.p2pPort,
      p2pHost: this.p2pHost,
      bootnodes: this.bootnodes.split(',').map((b) => b.trim()).filter((b) => b.length > 0),
      ...(this.externalAddr ? { externalAddr: this.externalAddr } : {}),
      enforceValidatorAllowlist: this.enforceValidatorAllowlist,
      failoverBaseMs: Math.round(this.failoverTimeout * 1000),
      failoverStepMs: Math.round(this.failoverStep * 1000),
      verifyOnStart: this.verifyOnStart,
      forceNewChain: this.forceNewChain,
      ...(this.elasticState ? { elasticState: { hotBytes: Math.round(this.elasticHotMb * 1024 * 1024), coreKeys: this.elasticCoreKeys, coreBytes: Math.round(this.elasticCoreMb * 1024 * 1024), coldAfter: this.elasticColdAfter } } : {}),
      ...(this.serveSnapshots ? { serveSnapshots: { interval: this.snapshotInterval, keep: SNAPSHOTS_KEPT } } : {}),
      ...(this.snapshotUrl !== undefined ? { snapshotUrl: this.snapshotUrl } : {}),
      ...(window ? {
        pruning: {
          keepBlocks: this.pruningKeepBlocks ?? window.blocks, keepState: window.stateBlocks, explorerSeconds: window.explorerSeconds, every: this.pruningEvery, compactEvery: this.pruningEvery * 10,
        },
      } : {}),
      ...(this.verifyIntervalSecs !== undefined ? { verifyIntervalSeconds: this.verifyIntervalSecs } : {}),
      ...(this.metrics ? { metrics: { host: this.metricsExternal ? '0.0.0.0' : '127.0.0.1', port: this.metricsPort } } : {}),
      governance: {
        ...(this.governanceMode !== undefined ? { mode: this.governanceMode } : {}),
        ...(this.upgradeAuthority !== undefined ? { authority: this.upgradeAuthority } : {}),
        ...(this.votingPeriod !== undefined ? { votingPeriod: this.votingPeriod } : {}),
        ...(this.upgradeQuorum !== undefined ? { quorumPercent: this.upgradeQuorum } : {}),
      },
      ...(this.autoVoteSeed !== undefined ? { autoVoteSeed: parseSeedFlag('--auto-vote-seed', this.autoVoteSeed) } : {}),
      waitAtUpgrade: this.waitAtUpgrade,
    };
    if (!this.elasticState && (this.elasticHotMb !== DEFAULT_HOT_MB || this.elasticCoreKeys !== DEFAULT_CORE_KEYS || this.elasticCoreMb !== DEFAULT_CORE_MB || this.elasticColdAfter !== DEFAULT_COLD_AFTER)) {
      throw new UsageError('--elastic-hot-mb, --elastic-core-keys, --elastic-core-mb and --elastic-cold-after take effect only with --elastic-state');
    }
    if (!this.metrics && (this.metricsExternal || this.metricsPort !== 9100)) {
      throw new UsageError('--metrics-port and --metrics-external take effect only with --metrics');
    }
    if (this.checkpoint !== undefined && !this.light) throw new UsageError('--checkpoint takes effect only with --light: a full node verifies every block from genesis or from a snapshot');
    if (this.light) return this.runLight(options);
    // Catching up from peers, and a --snapshot-url download: progress bars on stderr (drawn only
    // when stderr is a terminal); a bar ends when it is full and a later catch-up starts another.
    options.onSyncProgress = progressBar('syncing from peers [{bar}] {percentage}% | block {value}/{total} | {eta_formatted} left');
    options.onSnapshotProgress = progressBar('downloading snapshot [{bar}] {percentage}% | {value}/{total} bytes | {eta_formatted} left');
    // spec §4.20 --backfill-indexes: a progress bar on stderr (drawn only when stderr is a terminal).
    let bar: cliProgress.SingleBar | undefined;
    if (this.backfillIndexes) {
      let finished = false;
      options.onBackfillProgress = (done, total) => {
        if (finished) return;
        if (!bar) {
          bar = new cliProgress.SingleBar({
            format: 'backfilling explorer indexes [{bar}] {percentage}% | block {value}/{total} | {eta_formatted} left', stream: process.stderr,
          }, cliProgress.Presets.shades_classic);
          bar.start(total, done);
        }
        bar.update(done);
        if (done >= total) {
          bar.stop();
          finished = true;
        }
      };
    }
    // Graceful shutdown (issue 24 item 7): the first SIGINT/SIGTERM lets the block under way finish
    // and its batch land, closes the database and exits 0; the next start resumes from that head.
    // A signal during start-up waits for the start to finish, then stops the same way. A second
    // signal while that runs exits at once (130): storage keeps whole blocks only (docs/storage.md),
    // so even that loses no committed block. Under npm, the launcher's exit stops it too (./signals.ts).
    const whenSignalled = shutdownSignals();
    // A signal during start-up waits for the start, at most START_STOP_GRACE_MS: a start stuck on a
    // storage fault must not leave a process that ignores SIGTERM (issue 46 item 5). Storage keeps
    // whole blocks only, so exiting mid-start loses nothing committed.
    let startGrace: NodeJS.Timeout | undefined;
    whenSignalled((signal) => {
      startGrace = setTimeout(() => {
        this.context.stderr.write(`${signal} during start-up, and the start did not finish within ${START_STOP_GRACE_MS / 1000} s: exiting\n`);
        process.exit(1);
      }, START_STOP_GRACE_MS);
    });
    let node: RunningNode;
    try {
      node = await startNode(options);
      clearTimeout(startGrace);
    } catch (error) {
      clearTimeout(startGrace);
      // A refused data dir or a storage fault (issue 46 items 1 and 5): the message names the file
      // and the way back; exit at once, as a kill would, since the start may hold threads open.
      if (error instanceof DataDirError || error instanceof StorageError || isStorageFault(error)) {
        const message = error instanceof DataDirError || error instanceof StorageError ? error.message : describeStorageFault(error, join(this.dataDir, 'db'));
        this.context.stderr.write(`${message}\n`);
        process.exit(1);
      }
      // The start-up state check fails inside the chain's open, after the verifier threads and the
      // store are up, which the start does not close on that path (src/node.ts): exit here, as a
      // kill would, which storage survives (docs/storage.md); nothing has been written.
      if (error instanceof StateCheckError) {
        // a damaged table can read back as altered records: name it when its checksums say so
        const damaged = (() => {
          try {
            return damagedTables(join(this.dataDir, 'db'));
          } catch {
            return [];
          }
        })();
        const tables = damaged.length > 0 ? `\ndamaged database files: ${damaged.map((t) => `${t.file} (${t.reason})`).join(', ')}` : '';
        this.context.stderr.write(`${error.message}${tables}\n`);
        process.exit(1);
      }
      if (error instanceof IntegrityError || error instanceof SnapshotError || error instanceof StartError) {
        this.context.stderr.write(`${error.message}\n`);
        return 1;
      }
      // Restarted at an approved upgrade's height with a binary that does not implement it
      // (docs/upgrades.md): say why and exit 42 again, so a supervisor swaps the binary.
      if (error instanceof UpgradeRequiredError) {
        this.context.stderr.write(`${error.message}\n`);
        return UPGRADE_EXIT_CODE;
      }
      // Anything else: said, and the process ends (it used to print and stay, holding its threads).
      this.context.stderr.write(`the node failed to start: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
      process.exit(1);
    }
    return new Promise<number>((resolve) => {
      whenSignalled((signal) => {
        node.logger.info('shutting down', { signal });
        void stopWithin(() => node.stop(), STOP_GRACE_MS, () => exitOverdue(this.context.stderr, signal)).then(() => resolve(0));
      });
      // spec §3 "Node upgrade": stopped before the upgrade height, upgrade-info.json written; exit 42.
      void node.upgradeHalted.then((error) => {
        this.context.stderr.write(`${error.message}\n`);
        void node.stop().then(() => resolve(UPGRADE_EXIT_CODE));
      });
    });
  }

  /**
   * `--light` (docs/operations.md "Light node"): the flags of a full node's state, production or
   * storage are refused rather than ignored, so an operator never believes a light node validates.
   */
  private async runLight(options: NodeOptions): Promise<number> {
    const refused: Array<[string, boolean]> = [
      ['--validator-key', this.validatorKey !== undefined],
      ['--auto-vote-seed', this.autoVoteSeed !== undefined],
      ['--block-time', this.blockTime !== 12],
      ['--max-txs-per-block', this.maxTxsPerBlock !== 10000],
      ['--enforce-validator-allowlist', this.enforceValidatorAllowlist],
      ['--backfill-indexes', this.backfillIndexes],
      ['--serve-snapshots', this.serveSnapshots],
      ['--snapshot-url', this.snapshotUrl !== undefined],
      ['--elastic-state', this.elasticState],
      ['--pruning', this.pruning !== 'archive'],
      ['--verify-on-start', this.verifyOnStart],
      ['--rocksdb-verify-interval-secs', this.verifyIntervalSecs !== undefined],
      ['--metrics', this.metrics],
      ['--wait-at-upgrade', this.waitAtUpgrade],
    ];
    const given = refused.filter(([, set]) => set).map(([flag]) => flag);
    if (given.length > 0) {
      throw new UsageError(`--light cannot be combined with ${given.join(', ')}: a light node holds headers and certificates only; it has no state, produces no blocks and votes on none (docs/operations.md "Light node")`);
    }
    if (options.genesisValidators === undefined) throw new UsageError('--light needs --genesis-validators: block 0 and its validator set come from the network\'s genesis flags');
    if ((options.bootnodes ?? []).length === 0) throw new UsageError('--light needs --bootnodes: a light node follows the head from peers');
    if (this.checkpoint !== undefined) {
      try {
        options.checkpoint = parseCheckpoint(this.checkpoint);
      } catch (error) {
        throw new UsageError(`--checkpoint: ${(error as Error).message}`);
      }
    }
    const whenSignalled = shutdownSignals();
    let node: RunningLightNode;
    try {
      node = await startLightNode(options);
    } catch (error) {
      if (!(error instanceof StartError)) throw error;
      this.context.stderr.write(`${error.message}\n`);
      return 1;
    }
    return new Promise<number>((resolve) => {
      whenSignalled((signal) => {
        node.logger.info('shutting down', { signal });
        void stopWithin(() => node.stop(), STOP_GRACE_MS, () => exitOverdue(this.context.stderr, signal)).then(() => resolve(0));
      });
    });
  }
}

