/**
 * A binary min-heap with lazy deletion, for the mempool's price and expiry orders (docs/mempool.md):
 * push and pop are O(log n); an item that left the pool stays in the heap until it reaches the top
 * or a compaction drops it, so removing a bundle costs nothing here.
 */
export class MinHeap<T> {
  private items: T[] = [];

  constructor(
    /** whether `a` comes out before `b` */
    private readonly before: (a: T, b: T) => boolean,
    /** whether an item is still wanted; dead ones are skipped at the top and dropped by `compact` */
    private readonly alive: (item: T) => boolean,
  ) {}

  get length(): number {
    return this.items.length;
  }

  push(item: T): void {
    // The new item moves up by a hole, not by swaps: a destructuring swap allocated an array per
    // step (one of admission's larger allocation sites under load, docs/performance.md "2026-11-27, fifth round").
    const items = this.items;
    let i = items.length;
    items.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const above = items[parent]!;
      if (!this.before(item, above)) break;
      items[i] = above;
      i = parent;
    }
    items[i] = item;
  }

  /** The first live item, dead ones above it discarded; undefined when none is left. */
  peek(): T | undefined {
    while (this.items.length > 0 && !this.alive(this.items[0]!)) this.removeTop();
    return this.items[0];
  }

  pop(): T | undefined {
    const top = this.peek();
    if (top !== undefined) this.removeTop();
    return top;
  }

  /** Drop every dead item and rebuild, O(n): called when dead items outnumber live ones. */
  compact(): void {
    this.items = this.items.filter(this.alive);
    for (let i = (this.items.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  private removeTop(): void {
    const items = this.items;
    const last = items.pop()!;
    if (items.length === 0) return;
    items[0] = last;
    this.siftDown(0);
  }

  private siftDown(start: number): void {
    const items = this.items;
    const n = items.length;
    const item = items[start]!;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && this.before(items[right]!, items[left]!) ? right : left;
      const below = items[child]!;
      if (!this.before(below, item)) break;
      items[i] = below;
      i = child;
    }
    items[i] = item;
  }
}
