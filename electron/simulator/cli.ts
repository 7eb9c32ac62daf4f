/**
 * `npm run sim -- --port 8700 [flags]`: runs the simulator until SIGINT/SIGTERM.
 * The first line is "Partner service simulator listening on <url>" (with --port 0, the real port),
 * which scripts and the throughput benchmark read.
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_PAGE_SIZE_PARAM } from '../../shared/catalog';
import { pathToFileURL } from 'node:url';
import { CliError, USAGE, parseCliArgs } from './cli-args';
import { replaySummary } from '../replay/har-replay';
import { readReplayFile, replayIntoSimulator } from '../replay/cli-replay';
import type { ReplayPlan } from '../../shared/har-replay';
import { tolerateClosedOutput } from '../cli-process';
import { DIALECTS } from './dialects';
import { startSimulator } from './index';
import type { FaultConfig, RunningSimulator } from './types';

const MAX_VENDORS_SHOWN = 30;

function describeFaults(f: FaultConfig): string {
  const parts: string[] = [];
  if (f.latencyMs > 0 || f.jitterMs > 0) parts.push(`latency ${f.latencyMs} ms + 0..${f.jitterMs} ms`);
  if (f.errorRate > 0) parts.push(`errors ${f.errorRate * 100}%`);
  if (f.dropRate > 0) parts.push(`drops ${f.dropRate * 100}%`);
  if (f.garbleRate > 0) parts.push(`garbled headers ${f.garbleRate * 100}%`);
  return parts.length > 0 ? parts.join(', ') : 'none';
}

export function banner(sim: RunningSimulator): string {
  const state = sim.control.state();
  const byVendor = new Map<string, string[]>();
  for (const t of sim.tokens) byVendor.set(t.vendor, [...(byVendor.get(t.vendor) ?? []), t.token]);
  const vendorLines = [...byVendor].slice(0, MAX_VENDORS_SHOWN).map(([v, ts]) => `    ${v}: ${ts.join(', ')}`);
  if (byVendor.size > MAX_VENDORS_SHOWN) vendorLines.push(`    (and ${byVendor.size - MAX_VENDORS_SHOWN} more vendors)`);
  const first = sim.tokens[0]!;
  const pageSizeParam = encodeURIComponent(DIALECTS[state.dialect].names?.pageSize ?? DEFAULT_PAGE_SIZE_PARAM);
  const competitors = state.competitors.map((c) => `${c.vendor} ${c.endpoint} ${c.rps} rps`).join('; ') || 'none';
  return [
    `Partner service simulator listening on ${sim.url}`,
    `  refill model: ${state.refill}`,
    `  payload dialect: ${state.dialect} (${DIALECTS[state.dialect].summary})`,
    `  catalog: ${state.catalogSize} assets (seed ${state.seed})`,
    `  vendors and tokens (${sim.tokens.length} tokens):`,
    ...vendorLines,
    `  faults: ${describeFaults(state.faults)}`,
    `  competitors: ${competitors}`,
    `  control API: ${sim.url}/_sim/state`,
    `  try: curl -i -H "Authorization: Bearer ${first.token}" "${sim.url}/assets/list?${pageSizeParam}=5"`,
    'Press Ctrl+C to stop.',
  ].join('\n');
}

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  let parsed;
  try {
    parsed = parseCliArgs(argv, (p) => readFileSync(p, 'utf8'));
  } catch (e) {
    if (!(e instanceof CliError)) throw e;
    process.stderr.write(`sim: ${e.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let plan: ReplayPlan | null = null;
  if (parsed.replay !== undefined) {
    const read = readReplayFile(parsed.replay);
    if (!read.ok) {
      process.stderr.write(`sim: --replay ${read.message}\n`);
      return 2;
    }
    plan = read.plan;
  }
  let sim: RunningSimulator;
  try {
    sim = await startSimulator(parsed.options);
  } catch (e) {
    const usage = e instanceof RangeError || e instanceof TypeError;
    process.stderr.write(`sim: ${(e as Error).message}\n`);
    return usage ? 2 : 1;
  }
  process.stdout.write(`${banner(sim)}\n`);
  if (plan) return replayThenStop(sim, plan);
  await new Promise<void>((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.stdout.write(`\nsim: ${signal}, stopping\n`);
      void sim.stop().then(resolve);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  return 0;
}

/** Replays the HAR, prints the summary, stops the simulator. Ctrl+C stops the replay early. */
async function replayThenStop(sim: RunningSimulator, plan: ReplayPlan): Promise<number> {
  process.stdout.write(`replaying ${plan.steps.length} requests over ${(plan.durationMs / 1000).toFixed(1)} s as vendor ${sim.tokens[0]!.vendor}\n`);
  const interrupted = new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  const status = await replayIntoSimulator(sim, plan, interrupted);
  process.stdout.write(`${replaySummary(status)}\n`);
  await sim.stop();
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Scripts read the banner's first line (`| head -1`) and stop reading: the simulator serves on.
  tolerateClosedOutput();
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`sim: unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
