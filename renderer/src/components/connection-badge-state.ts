/**
 * What the header's connection badge says. A 429 while another consumer of the vendor uses its budget
 * is information for vendor staff (they share it), not a fault of the service: "Connected, sharing the
 * budget". Any other cause (5xx, no answer, a refused token), alone or with it, stays "Degraded".
 */
import type { Connection } from '../api/queries';

/** 429s within this long of another consumer's use are put down to sharing the budget, not to the service. */
export const SHARED_BUDGET_WINDOW_MS = 30_000;

export type BadgeState = 'connected' | 'sharing' | 'degraded' | 'offline' | 'connecting';

export interface BadgeInput {
  /** The renderer's own link to the services. */
  link: 'connecting' | 'open' | 'offline';
  /** The Partner service's connection as main reports it; undefined before the first answer. */
  connection: Pick<Connection, 'state' | 'causes'> | undefined;
  /** Another consumer's use of the vendor's budget was seen recently. */
  othersUseTheBudget: boolean;
}

export const BADGE_LABEL: Record<BadgeState, string> = {
  connected: 'Connected',
  sharing: 'Connected, sharing the budget',
  degraded: 'Degraded',
  offline: 'Offline',
  connecting: 'Connecting',
};

export function badgeState({ link, connection, othersUseTheBudget }: BadgeInput): BadgeState {
  if (link === 'offline') return 'offline';
  if (link === 'connecting' || !connection) return 'connecting';
  if (connection.state !== 'degraded') return connection.state;
  const causes = connection.causes ?? [];
  const onlyRateLimited = causes.length > 0 && causes.every((c) => c === 'rate-limited');
  return onlyRateLimited && othersUseTheBudget ? 'sharing' : 'degraded';
}
