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

/** Each row's median over whole runs (in the first run's order), with its range and count in the note (`npm run bench -- --runs N`). */
export function medianRows<R extends { name: string; value: number; note?: string }>(runs: R[][]): R[] {
  return runs[0]!.map((first) => {
    const values = runs.map((rows) => rows.find((r) => r.name === first.name)?.value)
      .filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    if (values.length === 0) return { ...first, value: Number.NaN };
    const range = `median of ${values.length} of ${runs.length} runs, range ${spread(values)}`;
    return { ...first, value: round3(median(values)), note: `${range}; ${first.note ?? ''}` };
  });
}
