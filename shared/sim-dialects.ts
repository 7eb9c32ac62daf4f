/**
 * Names of the simulator's payload dialects (only the names: what each looks like is the
 * simulator's business, see electron/simulator/dialects/). `default` is the built-in demo's.
 */
export const SIM_DIALECTS = ['default', 'jsonapi', 'camel-minor', 'snake-envelope'] as const;
export type SimDialect = (typeof SIM_DIALECTS)[number];

export function isSimDialect(value: unknown): value is SimDialect {
  return typeof value === 'string' && (SIM_DIALECTS as readonly string[]).includes(value);
}
