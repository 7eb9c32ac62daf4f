/** How many requests of one endpoint reached a simulator (any status): what was really sent. */
import type { RunningSimulator } from '../../electron/simulator';
import type { EndpointId } from '../../shared/endpoints';

export function sentTo(sim: RunningSimulator, endpoint: EndpointId): number {
  return sim.control
    .counters()
    .filter((c) => c.endpoint === endpoint)
    .reduce((n, c) => n + c.count, 0);
}
