/**
 * Exact decimal text → integers for the intent parser (docs/intents.md "Parsing"): human amounts to
 * raw units, percents to basis points, prices to fractions. Bigint string math only, never a float
 * (DESIGN.md: amounts are u128 raw units); every refusal says why, and the caller turns it into an
 * IntentParseError naming the text.
 */

export const U128_MAX = (1n << 128n) - 1n;
export const U64_MAX = (1n << 64n) - 1n;

/**
 * A human decimal: digits with an optional fraction, `.5` allowed; thousands separators are commas
 * between groups of exactly three digits (`1,000.25`). A decimal comma (`1,5`) is refused rather
 * than guessed, since `1,500` means different things in different languages.
 */
const DECIMAL = /^(?:(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?|\.(\d+))$/;

/** Thrown with the reason a decimal text was refused; the parser adds the text and position. */
export class AmountError extends Error {
  override readonly name = 'AmountError';
}

/** True when `text` has the shape of a decimal number (amounts, percents, prices). */
export function isDecimal(text: string): boolean {
  return DECIMAL.test(text);
}

/** The integer and fraction digits of a decimal text, or an AmountError. */
export function splitDecimal(text: string): { int: string; frac: string } {
  const m = DECIMAL.exec(text);
  if (!m) {
    if (/^\d+,\d{1,2}$|^\d+,\d{4,}$/.test(text)) throw new AmountError(`"${text}" uses a decimal comma; write the decimals after a dot (e.g. ${text.replace(',', '.')})`);
    throw new AmountError(`"${text}" is not a decimal number (digits, an optional fraction after a dot, commas only between groups of three digits)`);
  }
  const int = m[3] !== undefined ? '0' : m[1]!.replaceAll(',', '');
  const frac = m[3] ?? m[2] ?? '';
  return { int, frac };
}

/**
 * `text` in raw units of a token with `decimals` decimals: exact, or refused when it has more
 * fractional digits than the token (ending zeros are fine), is zero, or exceeds u128.
 */
export function toRawAmount(text: string, decimals: number): bigint {
  const { int, frac } = splitDecimal(text);
  const trimmed = frac.replace(/0+$/, '');
  if (trimmed.length > decimals) {
    throw new AmountError(`"${text}" has ${trimmed.length} decimal places but the token has ${decimals}`);
  }
  const raw = BigInt(int) * 10n ** BigInt(decimals) + (trimmed ? BigInt(trimmed.padEnd(decimals, '0')) : 0n);
  if (raw === 0n) throw new AmountError(`the amount must be greater than zero, got "${text}"`);
  if (raw > U128_MAX) throw new AmountError(`"${text}" is too large: it exceeds the u128 raw-unit limit of the token`);
  return raw;
}

/** A percent in basis points, exact (0.5 → 50); finer than 0.01% is refused; at most `maxBps`. */
export function toBps(text: string, maxBps = 10_000): number {
  const { int, frac } = splitDecimal(text);
  const trimmed = frac.replace(/0+$/, '');
  if (trimmed.length > 2) throw new AmountError(`"${text}%" is finer than one basis point (0.01%)`);
  const bps = BigInt(int) * 100n + (trimmed ? BigInt(trimmed.padEnd(2, '0')) : 0n);
  if (bps > BigInt(maxBps)) throw new AmountError(`"${text}%" is above ${maxBps / 100}%`);
  return Number(bps);
}

/** A whole number within [min, max] (counts, seconds, leverage, gas). */
export function toInteger(text: string, min: bigint, max: bigint, what: string): bigint {
  const { int, frac } = splitDecimal(text);
  if (frac.replace(/0+$/, '') !== '') throw new AmountError(`${what} must be a whole number, got "${text}"`);
  const n = BigInt(int);
  if (n < min || n > max) throw new AmountError(`${what} must be between ${min} and ${max}, got "${text}"`);
  return n;
}

/** An exact price as a reduced fraction num/den, greater than zero ("3000.5" → 6001/2). */
export function toPrice(text: string): { num: bigint; den: bigint; text: string } {
  const { int, frac } = splitDecimal(text);
  const num = BigInt(int + frac);
  const den = 10n ** BigInt(frac.length);
  if (num === 0n) throw new AmountError(`the price must be greater than zero, got "${text}"`);
  const g = gcd(num, den);
  return { num: num / g, den: den / g, text };
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}
