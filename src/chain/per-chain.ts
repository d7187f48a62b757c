import type { Chain } from './chain.js';

/**
 * One instance per chain, made on first use: readers that index committed state (pools,
 * collections) watch the state view once and are shared by the RPC methods, the eth adapter and
 * the intent planner, so all of them read the same indexes.
 */
export function perChain<T>(make: (chain: Chain) => T): (chain: Chain) => T {
  const made = new WeakMap<Chain, T>();
  return (chain) => {
    let value = made.get(chain);
    if (value === undefined) {
      value = make(chain);
      made.set(chain, value);
    }
    return value;
  };
}
