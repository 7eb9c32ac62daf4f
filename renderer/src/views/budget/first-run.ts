/**
 * When the Budget view greets a first-time user: on the built-in demo while its demo traffic is off,
 * every endpoint is Idle and the charts are empty, which teaches nothing. The card says what the app
 * is and offers the two next steps in place.
 */
import { ENDPOINT_IDS } from '../../../../shared/endpoints';
import type { Connection, SimState } from '../../api/queries';

export interface FirstRunInput {
  connection: Pick<Connection, 'demo' | 'state'> | undefined;
  /** The built-in simulator's state; null when not connected to it, undefined while unknown. */
  sim: Pick<SimState, 'demoTraffic'> | null | undefined;
  /** The user hid the card. */
  dismissed: boolean;
}

export function showFirstRun({ connection, sim, dismissed }: FirstRunInput): boolean {
  if (dismissed || !connection?.demo || connection.state === 'offline' || !sim) return false;
  return sim.demoTraffic.share === 0 || sim.demoTraffic.endpoints.length === 0;
}

/** "Start demo traffic": the simulator panel's own default, every endpoint at its limit through the app's client. */
export const FIRST_RUN_TRAFFIC = { share: 1, endpoints: [...ENDPOINT_IDS] };
