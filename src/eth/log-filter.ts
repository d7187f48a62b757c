/**
 * Which logs an eth log filter selects (execution-apis "Filter"; docs/eth.md "Logs"): `address` one
 * or a list, `topics` per position null (anything), a topic, or a list of alternatives ([] or [null]
 * match anything too). One rule for eth_getLogs, eth_newFilter and eth_subscribe("logs").
 */
import type { EthLog } from './format.js';

export interface LogCriteria {
  address?: string | readonly string[];
  topics?: ReadonlyArray<string | null | ReadonlyArray<string | null>>;
}

export function logMatcher(criteria: LogCriteria): (log: EthLog) => boolean {
  const addresses = criteria.address === undefined
    ? undefined
    : new Set((typeof criteria.address === 'string' ? [criteria.address] : criteria.address).map((a) => a.toLowerCase()));
  const wanted = (criteria.topics ?? []).map((t) => {
    if (t === null) return undefined;
    const set = new Set((typeof t === 'string' ? [t] : t).filter((x): x is string => x !== null).map((x) => x.toLowerCase()));
    return set.size > 0 ? set : undefined;
  });
  return (log) =>
    (addresses === undefined || addresses.has(log.address)) &&
    wanted.every((set, i) => set === undefined || (log.topics[i] !== undefined && set.has(log.topics[i]!)));
}
