/** The period the Usage report opens on: yesterday's, unless yesterday has nothing stored (a first day). */
/** null while yesterday's report is still being read. */
export function openingPeriod(yesterday: { days: readonly { requests: number }[]; problem: string | null } | undefined): 'yesterday' | 'today' | null {
  if (yesterday === undefined) return null;
  // A report that cannot be read says why on the default period; an empty yesterday teaches nothing.
  if (yesterday.problem !== null) return 'yesterday';
  return yesterday.days.every((d) => d.requests === 0) ? 'today' : 'yesterday';
}
