// The bundle section of a stored block (the format is src/chain/block.ts encodeBlock's), read
// without the rest of the block: the block writer's thread (src/storage/block-writer-worker.ts)
// needs the bundles alone, and storage imports nothing of src/chain (docs/architecture.md "Layers").

/** The bundles of a stored block, as views into it, without parsing its header. */
export function storedBundles(bytes: Uint8Array): Uint8Array[] {
  return bundleViews(bytes, 4 + new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true));
}

/** The bundle section at `at`: [u32 count]([u32 length][bundle])* to the end of `bytes`. */
export function bundleViews(bytes: Uint8Array, at: number): Uint8Array[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let o = at;
  const count = view.getUint32(o, true);
  o += 4;
  // Views into `bytes`, not copies: a full block has 1,000 bundles, and each copy was an allocation
  // that an imported block kept alive until its write (docs/p2p.md "Sync"). Treat them as read-only.
  const bundles: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const length = view.getUint32(o, true);
    o += 4;
    if (o + length > bytes.length) throw new RangeError(`bundle ${i} of ${length} bytes runs past the end of the block`);
    bundles.push(bytes.subarray(o, o + length));
    o += length;
  }
  if (o !== bytes.length) throw new RangeError(`${bytes.length - o} bytes after the last bundle`);
  return bundles;
}
