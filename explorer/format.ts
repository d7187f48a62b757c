import bs58 from 'bs58';

/**
 * The `0x` + 40 hex form of an `Nx0…` account that is EVM-form (its first 12 bytes zero: an EVM
 * address right-aligned, facts.md "Addresses"), else undefined: such accounts are shown as the
 * address their wallet knows (issue 42 item 10). Other forms (system accounts in 0x 32-byte form,
 * mints, pools) are not accounts of an EVM key.
 */
export function evmFormOf(address: string): string | undefined {
  if (!address.startsWith('Nx0')) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = bs58.decode(address.slice(3));
  } catch {
    return undefined;
  }
  if (bytes.length !== 32 || bytes.subarray(0, 12).some((b) => b !== 0) || bytes.subarray(12).every((b) => b === 0)) return undefined;
  return `0x${Array.from(bytes.subarray(12), (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Raw-unit decimal strings (amounts at the RPC boundary) shown with the token's decimals, exactly. */
export function formatUnits(raw: string | number | bigint, decimals: number): string {
  let digits = BigInt(raw).toString();
  const negative = digits.startsWith('-');
  if (negative) digits = digits.slice(1);
  digits = digits.padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = decimals > 0 ? digits.slice(digits.length - decimals).replace(/0+$/, '') : '';
  return (negative ? '-' : '') + whole + (fraction ? '.' + fraction : '');
}

export function shortHash(text: string, keep = 8): string {
  return text.length <= keep * 2 + 3 ? text : `${text.slice(0, keep + 3)}…${text.slice(-keep)}`;
}

export function timeAgo(unixSeconds: number, now = Date.now() / 1000): string {
  const s = Math.max(0, Math.round(now - unixSeconds));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ago`;
  return new Date(unixSeconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
}

/** What a search string looks like, before asking the node (spec §4.11 svc_search: hash, address or block). */
export type QueryKind = 'height' | 'hash' | 'address' | 'mint' | 'symbol' | 'unknown';

export function classify(query: string): QueryKind {
  const q = query.trim();
  if (/^\d{1,15}$/.test(q)) return 'height';
  if (/^Nxh[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(q) || /^0x[0-9a-fA-F]{64}$/.test(q)) return 'hash';
  if (/^Nx0[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(q) || /^0x[0-9a-fA-F]{40}$/.test(q)) return 'address';
  if (/^Nx1[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(q)) return 'mint';
  if (/^[A-Za-z0-9]{1,16}$/.test(q)) return 'symbol';
  return 'unknown';
}

/** A block time as a date: `2026-11-25 15:17:06 UTC` (UTC, so every reader sees the same text). */
export function formatDate(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().slice(0, 19).replace('T', ' ') + ' UTC';
}

/** Staking events whose amounts are NTV (docs/staking.md "Events"). */
const STAKING_NTV_EVENTS = new Set(['Staked', 'Delegated', 'Unstaked', 'Undelegated', 'UnstakeClaimed', 'RewardsClaimed', 'PoolConfigSet']);

/**
 * Which token field holds the mint of each amount field of a receipt event (docs/methods.md
 * "Receipt", src/chain/token-movements.ts): the explorer shows every amount with its token's
 * decimals and symbol. `NTV` marks amounts of the native coin (fees, the pool-creation fee).
 */
export function tokenFieldOf(eventType: string, amountKey: string): string | 'NTV' | undefined {
  switch (amountKey) {
    case 'amount': return eventType === 'Transfer' ? 'token' : STAKING_NTV_EVENTS.has(eventType) ? 'NTV' : undefined;
    // staking events (docs/staking.md "Events"): stakes and delegations are NTV
    case 'self_stake':
    case 'delegation':
    case 'remaining':
    case 'min_delegation': return STAKING_NTV_EVENTS.has(eventType) ? 'NTV' : undefined;
    case 'amount0': return 'token0';
    case 'amount1': return 'token1';
    case 'amount_in': return 'token_in';
    case 'amount_out': return 'token_out';
    case 'supply': return eventType === 'TokenCreated' ? 'mint' : undefined;
    case 'fee': return eventType === 'PoolCreated' ? 'NTV' : undefined;
    case 'to_proposer':
    case 'to_treasury': return eventType === 'Fee' ? 'NTV' : undefined;
    // a vote's weight is bonded NTV (docs/governance.md "Voting weight")
    case 'weight': return eventType === 'ProposalVoted' ? 'NTV' : undefined;
    default: return undefined;
  }
}
