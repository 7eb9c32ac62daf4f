/**
 * `npm run bench [-- --only client,simulator,dashboard,fleet,fleet-model,history,json,seconds,soak] [--clients partner-console,naive] [--scenarios 1,2]`
 * [--soak-minutes 3 --soak-every 15 --soak-snapshots DIR] (or SOAK_MINUTES, SOAK_EVERY_S)
 * [--seeds 1,2,3,4,5 --compare FILE --record FILE] (fleet-model: one run per seed, all figures to the record, compared digit for digit)
 * Measures and prints; speed targets live here, never in unit tests. Figures also go to
 * bench-results/*.json for the README.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { BenchClientKind } from './bench-client';
import { BENCH_CLIENT_KINDS } from './bench-client';
import type { RefillModel, ScenarioResult } from './client-scenarios';
import { CATALOG_SIZE, SCENARIOS, TOKENS, VENDOR } from './client-scenarios';
import { startSimProcess } from './sim-process';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'simulator,client,dashboard' },
    clients: { type: 'string', default: BENCH_CLIENT_KINDS.join(',') },
    scenarios: { type: 'string', default: '1,2,3,4,5' },
    refill: { type: 'string', default: 'whole-second,continuous' },
    'soak-minutes': { type: 'string', default: process.env.SOAK_MINUTES ?? '3' },
    'soak-every': { type: 'string', default: process.env.SOAK_EVERY_S ?? '15' },
    'soak-snapshots': { type: 'string' },
    seeds: { type: 'string', default: '42' },
    compare: { type: 'string' },
    record: { type: 'string' },
  },
});
const only = new Set(values.only.split(','));
const clients = values.clients.split(',') as BenchClientKind[];
const scenarioNumbers = values.scenarios.split(',').map(Number);
const refills = values.refill.split(',') as RefillModel[];
const seeds = values.seeds.split(',').map(Number);
if (!seeds.every(Number.isSafeInteger)) throw new Error(`--seeds takes whole numbers separated by commas, not "${values.seeds}"`);

/** Partner Console's goals from issue 3: minimum goodput and maximum share of 429s per scenario. */
const GOALS: Record<number, { goodput: number; max429Share: number }> = {
  1: { goodput: 0.98, max429Share: 0 },
  2: { goodput: 0.95, max429Share: 0 },
  3: { goodput: 0.9, max429Share: 0.01 },
  4: { goodput: 0.95, max429Share: 0 },
  5: { goodput: 0.9, max429Share: 0.02 },
};

function verdict(r: ScenarioResult): string {
  if (r.gaveUp) return 'gave up';
  if (r.client !== 'partner-console') return '';
  const goal = GOALS[Number(r.scenario[0])]!;
  const share = r.requests === 0 ? 0 : r.rateLimited / r.requests;
  return r.goodput >= goal.goodput && share <= goal.max429Share ? 'met' : 'MISSED';
}

function printTable(rows: ScenarioResult[]): void {
  const header = '| scenario | refill | client | goodput | 429s | requests | p95 wait ms | seconds | competitor 429s | goal |';
  console.log(header);
  console.log('|---|---|---|---:|---:|---:|---:|---:|---:|---|');
  for (const r of rows) {
    console.log(
      `| ${r.scenario} | ${r.refill} | ${r.client} | ${r.goodput.toFixed(3)} | ${r.rateLimited} | ${r.requests} | ${r.p95WaitMs.toFixed(0)} | ${r.seconds.toFixed(1)} | ${r.scenario.startsWith('3') ? r.competitorRateLimited : ''} | ${verdict(r)} |`,
    );
  }
}

async function clientBench(): Promise<ScenarioResult[]> {
  const rows: ScenarioResult[] = [];
  for (const refill of refills) {
    const sim = await startSimProcess(['--refill', refill, '--catalog-size', String(CATALOG_SIZE), ...TOKENS.flatMap((t) => ['--token', `${VENDOR}:${t}`])]);
    try {
      for (const n of scenarioNumbers) {
        for (const kind of clients) {
          const row = await SCENARIOS[n - 1]!(sim, refill, kind);
          console.error(`  ${row.scenario} / ${refill} / ${kind}: goodput ${row.goodput.toFixed(3)}, 429s ${row.rateLimited}`);
          rows.push(row);
        }
      }
    } finally {
      await sim.stop();
    }
  }
  return rows;
}

async function main(): Promise<void> {
  mkdirSync('bench-results', { recursive: true });
  if (only.has('simulator')) {
    const { main: simulatorBench } = await import('./simulator-throughput');
    await simulatorBench();
  }
  if (only.has('client')) {
    console.log('\n## Rate-aware client vs baselines\n');
    const rows = await clientBench();
    printTable(rows);
    writeFileSync('bench-results/client.json', JSON.stringify(rows, null, 2));
  }
  if (only.has('fleet')) {
    const { fleetBench } = await import('./fleet-bench');
    await fleetBench(refills);
  }
  if (only.has('fleet-model')) {
    const { fleetModelBench } = await import('./fleet-model');
    await fleetModelBench(refills, { seeds, compare: values.compare ?? null, record: values.record });
  }
  if (only.has('history')) {
    const { historyBench } = await import('./history');
    await historyBench();
  }
  if (only.has('json')) {
    const { jsonBench } = await import('./json-parse');
    jsonBench();
  }
  if (only.has('seconds')) {
    const { secondsBench } = await import('./second-hot-paths');
    await secondsBench();
  }
  if (only.has('soak')) {
    const { soakBench } = await import('./soak');
    await soakBench({ minutes: Number(values['soak-minutes']), everySeconds: Number(values['soak-every']), snapshotDir: values['soak-snapshots'] ?? null });
  }
  if (only.has('dashboard')) {
    const { main: dashboardBench } = await import('./dashboard-perf');
    await dashboardBench();
  }
}

await main();
