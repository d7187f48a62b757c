/** Small statistics the benches share. */

/** The median (of an even count, the mean of the middle two). */
export function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Rounded to three decimals, as the ratio rows print. */
export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** The lowest and highest of `xs`, rounded as `round3`: a ratio's spread over its rounds ("0.9–1.1"). */
export function spread(xs: number[]): string {
  return `${round3(Math.min(...xs))}–${round3(Math.max(...xs))}`;
}
