import bs58 from 'bs58';

/**
 * Base58 (Bitcoin alphabet) encoding of 32-byte values: every receipt encodes a bundle hash and
 * several accounts, and the generic bs58 encoder (byte-at-a-time carry over the whole output) was
 * the largest single cost of building receipts during sync (docs/p2p.md "Import"). Here the value
 * is cut into sixteen 16-bit limbs and long-divided by 58^2 per round, so every intermediate stays
 * below 2^28 and the arithmetic stays in int32. Output is byte-identical to bs58 (test/unit/codec-address.test.ts);
 * other lengths go to bs58.
 */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const CHUNK = 58 * 58; // 3,364: rem·2^16 + limb < 2^28, so the division stays in int32
const limbs = new Array<number>(16).fill(0);
const digits = new Array<string>(50).fill('');

export function base58Encode(bytes: Uint8Array): string {
  if (bytes.length !== 32) return bs58.encode(bytes);
  let zeros = 0;
  while (zeros < 32 && bytes[zeros] === 0) zeros++;
  for (let i = 0; i < 16; i++) limbs[i] = (bytes[2 * i]! << 8) | bytes[2 * i + 1]!;
  let start = zeros >> 1;
  let n = 0;
  while (start < 16) {
    let rem = 0;
    for (let i = start; i < 16; i++) {
      const cur = (rem << 16) | limbs[i]!;
      const q = (cur / CHUNK) | 0;
      limbs[i] = q;
      rem = cur - q * CHUNK;
    }
    while (start < 16 && limbs[start] === 0) start++;
    // four base-58 digits of this chunk, least significant first
    digits[n++] = ALPHABET[rem % 58]!;
    digits[n++] = ALPHABET[(rem / 58) | 0]!;
  }
  // drop the chunk padding (leading zero digits), then one '1' per leading zero byte
  while (n > 0 && digits[n - 1] === '1') n--;
  let out = '1'.repeat(zeros);
  for (let i = n - 1; i >= 0; i--) out += digits[i];
  return out;
}
