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
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
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
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) return;
      const right = left + 1;
      const child = right < n && this.before(items[right]!, items[left]!) ? right : left;
      if (!this.before(items[child]!, items[i]!)) return;
      [items[i], items[child]] = [items[child]!, items[i]!];
      i = child;
    }
  }
}
