/** `--help` text helpers without clipanion (src/cli/help.ts uses them), so unit tests load them alone. */
/**
 * The value each option takes, as `--help` shows it: clipanion 3 writes every value as `#0`
 * (`--rpc-port #0`), which tells an operator nothing. Keyed by the option's long name; an option
 * missing here still reads `<value>`, never `#0` (test/unit/operator-console.test.ts).
 */
export const VALUE_NAMES: Readonly<Record<string, string>> = {
  '--out': '<file>',
  '--data-dir': '<dir>',
  '--network': '<testnet|mainnet>',
  '--rpc-port': '<port>',
  '--rpc-host': '<address>',
  '--gas-price': '<nanoNTV>',
  '--block-time': '<seconds>',
  '--max-txs-per-block': '<count>',
  '--mempool-max': '<count>',
  '--mempool-max-queued': '<count>',
  '--mempool-max-queued-per-account': '<count>',
  '--mempool-max-nonce-gap': '<count>',
  '--mempool-lifetime': '<seconds>',
  '--verifier-nice': '<0-19>',
  '--rpc-rate-limit': '<calls/s>',
  '--rpc-keep-alive-timeout': '<seconds>',
  '--rpc-header-timeout': '<seconds>',
  '--rpc-request-timeout': '<seconds>',
  '--rpc-max-connections-per-ip': '<count>',
  '--rpc-max-connections': '<count>',
  '--rpc-response-max-size': '<bytes>',
  '--rpc-batch-response-max-size': '<bytes>',
  '--ws-max-connections-per-ip': '<count>',
  '--rpc-max-subscriptions': '<count>',
  '--rpc-max-subscriptions-per-ip': '<count>',
  '--rpc-max-filters': '<count>',
  '--rpc-max-filters-per-ip': '<count>',
  '--ws-fanout-share': '<percent>',
  '--rpc-cors': '<origins>',
  '--ws-origins': '<origins>',
  '--rpc-vhosts': '<hosts>',
  '--validator-key': '<file>',
  '--log-format': '<pretty|json|auto>',
  '--p2p-port': '<port>',
  '--p2p-host': '<address>',
  '--bootnodes': '<multiaddrs>',
  '--external-addr': '<multiaddr>',
  '--genesis-validators': '<keys>',
  '--failover-timeout': '<seconds>',
  '--failover-step': '<seconds>',
  '--chain-params': '<file.json>',
  '--metrics-port': '<port>',
  '--rocksdb-verify-interval-secs': '<seconds>',
  '--pruning': '<archive|validator|aggressive>',
  '--pruning-keep-blocks': '<blocks>',
  '--pruning-every': '<blocks>',
  '--snapshot-interval': '<blocks>',
  '--snapshot-url': '<url>',
  '--dry-run-import': '<file>',
};

/** `-d,--data-dir #0` → `-d,--data-dir <dir>` (and the same inside the one-line usage). */
export function nameValues(text: string): string {
  return text.replace(/((?:-[A-Za-z],)?(--[a-z0-9-]+))((?: #\d+)+)/g, (_all, names: string, long: string) => `${names} ${VALUE_NAMES[long] ?? '<value>'}`);
}

/**
 * clipanion's default colour depth asks the TTY prototype rather than stdout itself, so `--help |
 * less` or `> file` got escape codes; this asks the stream, and honours NO_COLOR / FORCE_COLOR.
 */
export function colorDepth(stdout: { isTTY?: boolean; getColorDepth?: () => number } = process.stdout): number {
  if (process.env.NO_COLOR) return 1;
  if (process.env.FORCE_COLOR && process.env.FORCE_COLOR !== '0') return 8;
  return stdout.isTTY === true && typeof stdout.getColorDepth === 'function' ? stdout.getColorDepth() : 1;
}
