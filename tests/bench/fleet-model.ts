/**
 * `npm run bench -- --only fleet-model`: issue 10's fleet goals on the manual clock (no processes, no
 * CPU contention, deterministic): N copies with their own registries share one budget through headers.
 */
import { writeFileSync } from 'node:fs';
import type { FleetModelResult } from '../../electron/client/testing/fleet-model';
import { runFleetModel } from '../../electron/client/testing/fleet-model';
import type { RefillModel } from './client-scenarios';

const COPIES = [1, 4, 8, 16];
const COMPETITOR_RPS = 8;

/** Issue 10: 429s <= 1% (N = 16 and beside the competitor: 2%, alone: none), goodput >= 0.9 (alone 0.98), Jain >= 0.9, nobody gives up. */
function met(r: FleetModelResult): boolean {
  if (r.competitorRps > 0) return r.gaveUp === 0 && r.share429 <= 0.02 && r.goodput >= 0.9;
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
  // One download beside a competing consumer at 8 of the 20/s: goodput over what it leaves, 429s vendor-wide.
  const beside: FleetModelResult[] = [];
  for (const refill of refills) beside.push(await runFleetModel({ copies: 1, refill, seconds, competitorRps: COMPETITOR_RPS }));
  rows.push(...beside);
  console.log(`| 1 + competitor ${COMPETITOR_RPS}/s | ${beside.map(cell).join(' | ')} |`);
  console.log(`\nBeside the competitor: goodput over what it leaves (${20 - COMPETITOR_RPS}/s), 429s of the vendor's every request (ours and its).`);
  // Fixed work, as the real fleet bench: every copy downloads the same catalog, copies finish at
  // different times, and goodput runs until the last one finished (the tail counts).
  const fixedSeconds = Number(process.env.FLEET_RUN_SECONDS) > 0 ? Number(process.env.FLEET_RUN_SECONDS) : 12;
  console.log(`\nFixed work (each copy the same catalog, ${fixedSeconds} s at the limit; goodput until the last copy finished, Jain over the copies' rates):\n`);
  console.log(`| copies | ${refills.join(' | ')} |`);
  console.log(`|---:|${refills.map(() => '---').join('|')}|`);
  for (const copies of COPIES.filter((c) => c > 1)) {
    const fixed: FleetModelResult[] = [];
    for (const refill of refills) fixed.push(await runFleetModel({ copies, refill, seconds: fixedSeconds, fixedWork: true }));
    rows.push(...fixed);
    console.log(`| ${copies} | ${fixed.map(cell).join(' | ')} |`);
  }
  const early = rows.filter((r) => r.share429 > 0).map((r) => `${r.copies}${r.competitorRps > 0 ? ' + competitor' : ''}/${r.refill} ${(r.early429 * 100).toFixed(0)}%`);
  if (early.length > 0) console.log(`\nShare of the 429s in the first 15 s: ${early.join(', ')}`);
  writeFileSync('bench-results/fleet-model.json', JSON.stringify(rows, null, 2));
}
