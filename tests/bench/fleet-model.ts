/**
 * `npm run bench -- --only fleet-model`: issue 10's fleet goals on the manual clock (no processes, no
 * CPU contention, deterministic): N copies with their own registries share one budget through headers.
 */
import { writeFileSync } from 'node:fs';
import type { FleetModelResult } from '../../electron/client/testing/fleet-model';
import { runFleetModel } from '../../electron/client/testing/fleet-model';
import type { RefillModel } from './client-scenarios';

const COPIES = [1, 4, 8, 16];

/** Issue 10: 429s <= 1% (N = 16: 2%, alone: none), goodput >= 0.9 (alone 0.98), Jain >= 0.9, nobody gives up. */
function met(r: FleetModelResult): boolean {
  const max429 = r.copies === 1 ? 0 : r.copies >= 16 ? 0.02 : 0.01;
  return r.gaveUp === 0 && r.share429 <= max429 && r.goodput >= (r.copies === 1 ? 0.98 : 0.9) && r.jain >= 0.9;
}

function cell(r: FleetModelResult): string {
  return `${r.goodput.toFixed(3)} / ${(r.share429 * 100).toFixed(2)}% / ${r.jain.toFixed(3)}${met(r) ? '' : ' (missed)'}`;
}

export async function fleetModelBench(refills: RefillModel[], seconds = 60): Promise<void> {
  console.log(`\n## Fleets on the manual clock (${seconds} s; goodput / 429s of all requests / Jain)\n`);
  const rows: FleetModelResult[] = [];
  for (const copies of COPIES) for (const refill of refills) rows.push(await runFleetModel({ copies, refill, seconds }));
  console.log(`| copies | ${refills.join(' | ')} |`);
  console.log(`|---:|${refills.map(() => '---').join('|')}|`);
  for (const copies of COPIES) console.log(`| ${copies} | ${refills.map((refill) => cell(rows.find((r) => r.copies === copies && r.refill === refill)!)).join(' | ')} |`);
  const early = rows.filter((r) => r.share429 > 0).map((r) => `${r.copies}/${r.refill} ${(r.early429 * 100).toFixed(0)}%`);
  if (early.length > 0) console.log(`\nShare of the 429s in the first 15 s: ${early.join(', ')}`);
  writeFileSync('bench-results/fleet-model.json', JSON.stringify(rows, null, 2));
}
