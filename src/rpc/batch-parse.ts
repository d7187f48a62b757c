/**
 * A JSON-RPC batch body parsed element by element (docs/performance.md "Batch requests and
 * replies"). A batch of 500 signed bundles is a ~220 KB body: decoded as one string it is a
 * large-object allocation, fresh memory whose page faults cost more than the decoding, and parsed as
 * one value. Here the top-level array's elements are found in the bytes (outside strings, at depth
 * zero) and each is decoded and parsed on its own, small strings in the young generation.
 *
 * The result is the value `JSON.parse` gives for the whole body, or undefined whenever this cannot
 * be sure of it (not an array, unbalanced, anything after the closing bracket, an element that does
 * not parse): the caller then parses the whole body, which also yields the exact parse error.
 * Splitting only at the ASCII bytes `,` and `]` never cuts a UTF-8 sequence (continuation bytes
 * are 0x80 and above), so each element decodes to the same text as within the whole.
 */

const OPEN_ARRAY = '['.charCodeAt(0);
const CLOSE_ARRAY = ']'.charCodeAt(0);
const OPEN_OBJECT = '{'.charCodeAt(0);
const CLOSE_OBJECT = '}'.charCodeAt(0);
const QUOTE = '"'.charCodeAt(0);
const BACKSLASH = '\\'.charCodeAt(0);
const COMMA = ','.charCodeAt(0);

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

export function parseArrayByElement(buf: Buffer): unknown[] | undefined {
  const n = buf.length;
  let i = 0;
  while (i < n && isSpace(buf[i]!)) i++;
  if (buf[i] !== OPEN_ARRAY) return undefined;
  const out: unknown[] = [];
  let start = i + 1;
  let depth = 0;
  let inString = false;
  for (i = start; i < n; i++) {
    const c = buf[i]!;
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) depth++;
    else if (c === CLOSE_OBJECT || (c === CLOSE_ARRAY && depth > 0)) {
      if (depth === 0) return undefined;
      depth--;
    } else if (depth === 0 && (c === COMMA || c === CLOSE_ARRAY)) {
      const last = c === CLOSE_ARRAY;
      // `[]` (nothing but spaces before the bracket, and no element before it) is the empty array
      if (!(last && out.length === 0 && onlySpaces(buf, start, i))) {
        const element = parseElement(buf, start, i);
        if (element === INVALID) return undefined;
        out.push(element);
      }
      if (last) {
        for (i++; i < n; i++) if (!isSpace(buf[i]!)) return undefined;
        return out;
      }
      start = i + 1;
    }
  }
  return undefined;
}

const INVALID = Symbol('invalid');

function parseElement(buf: Buffer, start: number, end: number): unknown {
  try {
    return JSON.parse(buf.toString('utf8', start, end));
  } catch {
    return INVALID;
  }
}

function onlySpaces(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isSpace(buf[i]!)) return false;
  return true;
}
