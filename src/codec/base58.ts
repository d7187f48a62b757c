import bs58 from 'bs58';

/**
 * Base58 (Bitcoin alphabet) encoding of 32-byte values: every receipt encodes a bundle hash and
 * several accounts, and the generic bs58 encoder (byte-at-a-time carry over the whole output) was
 * the largest single cost of building receipts during sync (docs/p2p.md "Import"). Here the value
 * is cut into sixteen 16-bit limbs and long-divided by 58^5 per round (five digits a round); every
 * intermediate stays below 2^46, exact in a double. The digits are written backwards into a reused
 * byte buffer and read out as one flat string (building it by `+=` made a chain of ~44 cons
 * strings per hash). Output is byte-identical to bs58 (test/unit/codec-address.test.ts); other
 * lengths go to bs58.
 */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
const ONE = CODES[0]!;
const CHUNK = 58 ** 5; // 656,356,768 < 2^30, so rem·2^16 + limb < 2^46
const limbs = new Float64Array(16);
/** 32 bytes take at most 44 digits (plus the padding of the last five-digit round) */
const digits = Buffer.alloc(48);

export function base58Encode(bytes: Uint8Array): string {
  if (bytes.length !== 32) return bs58.encode(bytes);
  let zeros = 0;
  while (zeros < 32 && bytes[zeros] === 0) zeros++;
  for (let i = 0; i < 16; i++) limbs[i] = (bytes[2 * i]! << 8) | bytes[2 * i + 1]!;
  let start = zeros >> 1;
  let pos = digits.length;
  while (start < 16) {
    let rem = 0;
    for (let i = start; i < 16; i++) {
      const cur = rem * 65_536 + limbs[i]!;
      const q = Math.floor(cur / CHUNK);
      limbs[i] = q;
      rem = cur - q * CHUNK;
    }
    while (start < 16 && limbs[start] === 0) start++;
    // the five base-58 digits of this round, least significant first
    for (let k = 0; k < 5; k++) {
      const q = (rem / 58) | 0;
      digits[--pos] = CODES[rem - q * 58]!;
      rem = q;
    }
  }
  // drop the rounds' padding (leading zero digits), then one '1' per leading zero byte
  while (pos < digits.length && digits[pos] === ONE) pos++;
  for (let i = 0; i < zeros; i++) digits[--pos] = ONE;
  return digits.toString('latin1', pos);
}
