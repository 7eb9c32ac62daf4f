/** `npm run bench -- --only fleet`: issue 10's fleet table (see fleet-scenarios.ts). */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import type { RefillModel } from './client-scenarios';
import type { FleetResult } from './fleet-scenarios';
import { fleetGoal, fleetScenarios, hasRedisServer, runFleet, startRedis } from './fleet-scenarios';

function printTable(rows: FleetResult[]): void {
  console.log('| scenario | refill | client | processes | goodput | 429s vendor-wide | Jain | gave up | seconds | goal |');
  console.log('|---|---|---|---:|---:|---:|---:|---:|---:|---|');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${r.refill} | ${r.client} | ${r.processes} | ${r.goodput.toFixed(3)} | ${(r.vendor429Share * 100).toFixed(2)}% of ${r.vendorRequests} | ${r.jain.toFixed(3)} | ${r.gaveUp} | ${r.seconds.toFixed(1)} | ${fleetGoal(r)} |`,
    );
  }
}

export async function fleetBench(refills: RefillModel[]): Promise<void> {
  console.log('\n## Fleets: N processes of one vendor share its budget\n');
  const redisPresent = hasRedisServer();
  if (!redisPresent) console.log('(redis-server is not installed: the Redis scenarios and the Bottleneck baseline are skipped)\n');
  const rows: FleetResult[] = [];
  const t0 = Date.now();
  // FLEET_SCENARIOS="N=4;competitor": only the scenarios whose name contains one of these (names hold commas).
  const pick = process.env.FLEET_SCENARIOS?.split(';')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const s of fleetScenarios(refills).filter((f) => !pick || pick.some((p) => `${f.name} ${f.client}`.includes(p)))) {
    const needsRedis = (s.store !== 'headers' && s.store !== 'machine') || s.client === 'bottleneck-redis';
    if (needsRedis && !redisPresent) continue;
    const redis = needsRedis ? await startRedis() : null;
    try {
      const row = await runFleet(s, redis);
      console.error(
        `  ${s.name} / ${s.refill} / ${s.client}: goodput ${row.goodput.toFixed(3)}, 429s ${(row.vendor429Share * 100).toFixed(2)}%, Jain ${row.jain.toFixed(3)}, gave up ${row.gaveUp}, ${row.seconds.toFixed(1)} s`,
      );
      rows.push(row);
    } finally {
      await redis?.kill();
    }
  }
  printTable(rows);
  console.log(
    `\n(fleet bench: ${((Date.now() - t0) / 1000).toFixed(0)} s; load average at the end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${cpus().length} cores)`,
  );
  writeFileSync('bench-results/fleet.json', JSON.stringify(rows, null, 2));
}
