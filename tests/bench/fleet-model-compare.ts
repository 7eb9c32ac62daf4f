/**
 * The fleet model's safety net: every figure of every scenario and seed, saved as JSON, and compared
 * digit for digit with a later run (`npm run bench -- --only fleet-model --seeds 1,2,3,4,5 --compare FILE`).
 * A refactoring of the client's pacing must leave every figure identical; a change of behaviour shows
 * here as the scenarios and figures that moved. Pure: no files, no clock.
 */

/** One scenario's run for one seed: its name (copies, refill, competitor, fixed work) and every figure it produced. */
export interface FleetModelRun {
  scenario: string;
  seed: number;
  figures: Record<string, unknown>;
}

export interface FleetModelRecord {
  /** What the runs depend on besides the code (run length, fixed-work length), so that two records compare like with like. */
  settings: Record<string, unknown>;
  seeds: number[];
  runs: FleetModelRun[];
}

export interface RunComparison {
  scenario: string;
  seed: number;
  /** `identical`, `missing` (in the saved record only), `new` (in this run only: listed, never a difference) or `differs`. */
  verdict: 'identical' | 'missing' | 'new' | 'differs';
  /** The figures that differ, as `name: saved -> now`. */
  differences: string[];
}

export interface RecordComparison {
  identical: boolean;
  settings: string[];
  runs: RunComparison[];
}

/** Every leaf of a JSON value with its path (`timeline[3][7]`), so that a difference names the figure. */
function leaves(value: unknown, path: string, out: Map<string, unknown>): Map<string, unknown> {
  if (Array.isArray(value)) {
    out.set(`${path}.length`, value.length);
    value.forEach((v, i) => leaves(v, `${path}[${i}]`, out));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) leaves(v, path === '' ? k : `${path}.${k}`, out);
  } else {
    out.set(path, value);
  }
  return out;
}

/** Differences between two JSON values, leaf by leaf; numbers must match exactly (Object.is: every digit, and -0 is not 0). */
export function differences(saved: unknown, now: unknown): string[] {
  const a = leaves(saved, '', new Map());
  const b = leaves(now, '', new Map());
  const out: string[] = [];
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(key);
    const y = b.get(key);
    if (!Object.is(x, y)) out.push(`${key}: ${a.has(key) ? JSON.stringify(x) : '(absent)'} -> ${b.has(key) ? JSON.stringify(y) : '(absent)'}`);
  }
  return out;
}

const runKey = (r: { scenario: string; seed: number }): string => `${r.scenario}#${r.seed}`;

export function compareRecords(saved: FleetModelRecord, now: FleetModelRecord): RecordComparison {
  const settings = differences(saved.settings, now.settings);
  const before = new Map(saved.runs.map((r) => [runKey(r), r]));
  const after = new Map(now.runs.map((r) => [runKey(r), r]));
  const runs: RunComparison[] = [];
  for (const r of now.runs) {
    const old = before.get(runKey(r));
    if (old === undefined) runs.push({ scenario: r.scenario, seed: r.seed, verdict: 'new', differences: [] });
    else {
      const d = differences(old.figures, r.figures);
      runs.push({ scenario: r.scenario, seed: r.seed, verdict: d.length === 0 ? 'identical' : 'differs', differences: d });
    }
  }
  for (const r of saved.runs) if (!after.has(runKey(r))) runs.push({ scenario: r.scenario, seed: r.seed, verdict: 'missing', differences: [] });
  // A new scenario (in this run only) is no difference of the saved ones: it is listed, not counted.
  return { identical: settings.length === 0 && runs.every((r) => r.verdict === 'identical' || r.verdict === 'new'), settings, runs };
}

/** Printable lines: one per scenario and seed, then at most `maxDifferences` differing figures under it. */
export function formatComparison(c: RecordComparison, maxDifferences = 5): string[] {
  const lines: string[] = [];
  if (c.settings.length > 0) lines.push(`settings differ: ${c.settings.join('; ')}`);
  for (const r of c.runs) {
    lines.push(
      `${r.verdict === 'identical' ? 'identical' : r.verdict.toUpperCase()}  ${r.scenario}  seed ${r.seed}${r.verdict === 'differs' ? ` (${r.differences.length} figures)` : ''}`,
    );
    for (const d of r.differences.slice(0, maxDifferences)) lines.push(`    ${d}`);
    if (r.differences.length > maxDifferences) lines.push(`    ... ${r.differences.length - maxDifferences} more`);
  }
  const same = c.runs.filter((r) => r.verdict === 'identical').length;
  const fresh = c.runs.filter((r) => r.verdict === 'new').length;
  const saved = c.runs.length - fresh;
  lines.push(
    c.identical
      ? `All ${same} runs identical, every figure.`
      : `NOT identical: ${saved - same} of ${saved} runs differ or are missing${c.settings.length > 0 ? ', settings differ' : ''}.`,
  );
  if (fresh > 0) lines.push(`${fresh} new runs (not in the saved record, not compared).`);
  return lines;
}
