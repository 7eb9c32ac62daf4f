/**
 * The rules a profile starts with: on for the demo vendor (so the demo shows alerts at once),
 * offered but off for a new profile (the user turns on what matters for that vendor).
 */
import type { AlertRuleInput } from '../../shared/bridge/alert-schemas';

type DefaultRule = Omit<AlertRuleInput, 'id' | 'profileId'>;

const RULES: readonly Omit<DefaultRule, 'enabled'>[] = [
  { kind: 'use-above', endpoint: null, thresholdPct: 90, minutes: 5 },
  { kind: 'throttled', endpoint: null, thresholdPct: null, minutes: 2 },
  { kind: 'foreign', endpoint: null, thresholdPct: null, minutes: 5 },
  { kind: 'down', endpoint: null, thresholdPct: null, minutes: 2 },
  { kind: 'download-failed', endpoint: null, thresholdPct: null, minutes: 0 },
];

export function defaultRules(demo: boolean): DefaultRule[] {
  return RULES.map((r) => ({ ...r, enabled: demo }));
}
