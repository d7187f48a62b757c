/**
 * Length-prefixed frames on a libp2p stream: `[u32 LE length][payload]`. The request/response
 * protocols (`/ntv/status/1`, `/ntv/blocks/1`) carry Borsh payloads in these frames.
 */

/** a stream chunk: bytes, or a Uint8ArrayList (several uint8arraylist versions coexist, so structural) */
type Chunk = Uint8Array | { subarray(): Uint8Array };

/** Writable side of a stream, as much of it as framing needs. */
export interface FrameSink {
  send(data: Uint8Array): boolean;
  onDrain(options?: { signal?: AbortSignal }): Promise<void>;
}

export class FrameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrameError';
  }
}

export function frame(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + payload.length);
  new DataView(out.buffer).setUint32(0, payload.length, true);
  out.set(payload, 4);
  return out;
}

/** Send frames, waiting for the stream's buffer to drain when it says so (backpressure). */
export async function sendFrames(sink: FrameSink, payloads: Uint8Array[], signal?: AbortSignal): Promise<void> {
  for (const payload of payloads) {
    if (!sink.send(frame(payload))) await sink.onDrain(signal ? { signal } : {});
  }
}

/**
 * Read every frame until the remote closes its writing end. Limits bound memory before anything is
 * buffered: a frame longer than `maxFrameBytes`, more than `maxFrames` frames, or a stream that ends
 * inside a frame is an error.
 */
export async function readFrames(source: AsyncIterable<Chunk>, limits: { maxFrameBytes: number; maxFrames: number }): Promise<Uint8Array[]> {
  const frames: Uint8Array[] = [];
  const buffered = new ByteQueue();
  for await (const chunk of source) {
    buffered.push(chunk instanceof Uint8Array ? chunk : chunk.subarray());
    for (;;) {
      if (buffered.length < 4) break;
      const length = buffered.peekU32LE();
      if (length > limits.maxFrameBytes) throw new FrameError(`frame of ${length} bytes exceeds the limit of ${limits.maxFrameBytes}`);
      if (buffered.length < 4 + length) break;
      if (frames.length >= limits.maxFrames) throw new FrameError(`more than ${limits.maxFrames} frames`);
      buffered.skip(4);
      frames.push(buffered.take(length));
    }
  }
  if (buffered.length > 0) throw new FrameError(`stream ended inside a frame (${buffered.length} bytes left over)`);
  return frames;
}

/**
 * Received chunks not yet cut into frames. A block frame arrives in many small QUIC chunks; they
 * are kept as a list and copied once into the frame, rather than concatenated on every chunk
 * (which copied a 150 kB block some hundred times while it arrived).
 */
class ByteQueue {
  private chunks: Uint8Array[] = [];
  /** index of the first chunk not fully consumed */
  private head = 0;
  length = 0;

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /** The little-endian u32 at the front (the caller checked that 4 bytes are there). */
  peekU32LE(): number {
    const first = this.chunks[this.head]!;
    const bytes = first.length >= 4 ? first : this.copyOut(4, false);
    return new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  }

  skip(n: number): void {
    this.copyOut(n, true);
  }

  /** The next `n` bytes in a fresh array of their own, consumed. */
  take(n: number): Uint8Array {
    return this.copyOut(n, true);
  }

  private copyOut(n: number, consume: boolean): Uint8Array {
    const out = new Uint8Array(n);
    let filled = 0;
    let i = this.head;
    while (filled < n) {
      const chunk = this.chunks[i]!;
      const part = Math.min(n - filled, chunk.length);
      out.set(part === chunk.length ? chunk : chunk.subarray(0, part), filled);
      filled += part;
      if (part < chunk.length) {
        if (consume) this.chunks[i] = chunk.subarray(part);
      } else {
        i++;
      }
    }
    if (consume) this.consumeTo(i, n);
    return out;
  }

  private consumeTo(head: number, bytes: number): void {
    this.length -= bytes;
    this.head = head;
    // Drop consumed chunks now and then, not on every frame (shift() is linear in the list).
    if (this.head > 1024 || this.head === this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
  }
}
