/**
 * The flag reader the developer scripts (`npm run sim`, `npm run chaos`) share: walks argv one flag at a
 * time and reads its value, with an error that names the flag and prints the script's usage.
 */
export class FlagReader {
  private i = -1;
  flag = '';

  constructor(
    private readonly argv: string[],
    private readonly usage: string,
  ) {}

  /** The next flag, or undefined when argv is used up. */
  next(): string | undefined {
    this.flag = this.argv[++this.i] ?? '';
    return this.i < this.argv.length ? this.flag : undefined;
  }

  value(): string {
    const v = this.argv[++this.i];
    if (v === undefined) this.fail('needs a value');
    return v;
  }

  /** A whole number at least `min`. */
  int(min: number): number {
    const v = Number(this.value());
    if (!Number.isSafeInteger(v) || v < min) this.fail(`takes a whole number ≥ ${min}`);
    return v;
  }

  /** A finite number at least 0. */
  num(): number {
    const v = Number(this.value());
    if (!Number.isFinite(v) || v < 0) this.fail('takes a number ≥ 0');
    return v;
  }

  fail(what: string): never {
    throw new Error(`${this.flag} ${what}\n${this.usage}`);
  }
}
