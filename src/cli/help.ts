import { Cli } from 'clipanion';
import { nameValues } from './help-format.js';

/**
 * The node's Cli: value names in usage and option lists (clipanion builds both in
 * getUsageByIndex), and colour only when stdout is a terminal (`colorDepth`, help-format.ts, set by main.ts).
 */
export class NodeCli extends Cli {
  protected override getUsageByIndex(n: number, opts?: { detailed?: boolean; inlineOptions?: boolean }): ReturnType<Cli['getUsageByIndex']> {
    const base = super.getUsageByIndex(n, opts);
    return { usage: nameValues(base.usage), options: base.options.map((o) => ({ ...o, definition: nameValues(o.definition) })) };
  }
}
