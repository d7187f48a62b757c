/** A small deterministic generator (xorshift32) in [0, 1), so a failing random test names its seed. */
export function random(seed: number): () => number {
  let x = seed || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}
