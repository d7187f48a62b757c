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
  let buffer: Uint8Array = new Uint8Array(0);
  for await (const chunk of source) {
    const bytes = chunk instanceof Uint8Array ? chunk : chunk.subarray();
    buffer = buffer.length === 0 ? bytes : concat(buffer, bytes);
    for (;;) {
      if (buffer.length < 4) break;
      const length = new DataView(buffer.buffer, buffer.byteOffset, 4).getUint32(0, true);
      if (length > limits.maxFrameBytes) throw new FrameError(`frame of ${length} bytes exceeds the limit of ${limits.maxFrameBytes}`);
      if (buffer.length < 4 + length) break;
      if (frames.length >= limits.maxFrames) throw new FrameError(`more than ${limits.maxFrames} frames`);
      frames.push(buffer.slice(4, 4 + length));
      buffer = buffer.subarray(4 + length);
    }
  }
  if (buffer.length > 0) throw new FrameError(`stream ended inside a frame (${buffer.length} bytes left over)`);
  return frames;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
