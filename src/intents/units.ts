/** Raw units as a human decimal ("1.5"), trailing zeros trimmed; exact, no floats. */
export function formatUnits(raw: bigint, decimals: number): string {
  const neg = raw < 0n;
  const v = neg ? -raw : raw;
  const base = 10n ** BigInt(decimals);
  const int = v / base;
  const frac = decimals === 0 ? '' : (v % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

/** Basis points as a percent string with up to two decimals: 99 → "0.99%", 2500 → "25%". */
export function bpsPercent(bps: number): string {
  return `${formatUnits(BigInt(bps), 2)}%`;
}

/** Parse a human decimal ("1.5", "10") into raw units; undefined when malformed or too precise. */
export function parseUnits(text: string, decimals: number): bigint | undefined {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return undefined;
  const frac = m[2] ?? '';
  if (frac.length > decimals) return undefined;
  return BigInt(m[1]!) * 10n ** BigInt(decimals) + BigInt(frac.padEnd(decimals, '0') || '0');
}

/** ceil(a / b) for non-negative bigints. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** Minimum output for a slippage of s basis points (facts.md "DEX"): quote·(10000 − s)/10000, rounded down. */
export function minOut(quote: bigint, slippageBps: number): bigint {
  return (quote * BigInt(10_000 - slippageBps)) / 10_000n;
}
