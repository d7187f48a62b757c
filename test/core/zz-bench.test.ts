import { it } from 'vitest';
import { benchCore } from '../../bench/core.js';
it('bench', async () => { for (const r of await benchCore()) console.log(r.name, r.value, r.unit, r.note ?? ''); }, 600_000);
