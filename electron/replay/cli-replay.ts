/** `npm run sim -- --replay FILE.har`: the HAR read before the simulator starts, then replayed into it. */
import { readFileSync, statSync } from 'node:fs';
import { timerClock } from '../../shared/clock';
import { MAX_HAR_BYTES, readHarText, replayPlan } from '../../shared/har-replay';
import type { ReplayPlan } from '../../shared/har-replay';
import { PartnerClient } from '../client';
import type { RunningSimulator } from '../simulator/types';
import { HarReplay } from './har-replay';
import type { ReplayStatus } from './har-replay';

/** The file's replay plan, or a message fit for the user. */
export function readReplayFile(path: string): { ok: true; plan: ReplayPlan } | { ok: false; message: string } {
  let text: string;
  try {
    if (statSync(path).size > MAX_HAR_BYTES) return { ok: false, message: `${path} is larger than ${MAX_HAR_BYTES / 1024 / 1024} MB` };
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return { ok: false, message: `cannot read ${path}: ${(e as Error).message}` };
  }
  const read = readHarText(text);
  return read.ok ? { ok: true, plan: replayPlan(read.har) } : { ok: false, message: `${path}: ${read.message}` };
}

/**
 * Replays the plan as the simulator's first vendor (all its tokens), through a PartnerClient as the app
 * builds it. `stopOn` resolves to stop early (a signal). Returns the final status.
 */
export async function replayIntoSimulator(sim: RunningSimulator, plan: ReplayPlan, stopOn: Promise<unknown>): Promise<ReplayStatus> {
  const vendor = sim.tokens[0]!.vendor;
  const client = new PartnerClient({ baseUrl: sim.url, vendor, tokens: sim.tokens.filter((t) => t.vendor === vendor).map((t) => t.token) });
  const replay = new HarReplay(plan, client, timerClock);
  void stopOn.then(() => replay.stop());
  try {
    return await replay.done;
  } finally {
    client.close();
  }
}
