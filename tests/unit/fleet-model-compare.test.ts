import { describe, expect, it } from 'vitest';
import type { FleetModelRecord } from '../bench/fleet-model-compare';
import { compareRecords, differences, formatComparison } from '../bench/fleet-model-compare';

const record = (goodput: number, timeline: number[][] = [[1, 2]]): FleetModelRecord => ({
  settings: { seconds: 60 },
  seeds: [1],
  runs: [{ scenario: '4 copies whole-second 60 s', seed: 1, figures: { goodput, timeline } }],
});

describe('fleet model comparison (the safety net of pacing refactorings)', () => {
  it('finds two equal records identical', () => {
    const c = compareRecords(record(0.9712345678901234), record(0.9712345678901234));
    expect(c.identical).toBe(true);
    expect(c.runs).toEqual([{ scenario: '4 copies whole-second 60 s', seed: 1, verdict: 'identical', differences: [] }]);
    expect(formatComparison(c).at(-1)).toBe('All 1 runs identical, every figure.');
  });

  it('tells a difference in the last digit, and names the figure', () => {
    const c = compareRecords(record(0.9712345678901234), record(0.9712345678901235));
    expect(c.identical).toBe(false);
    expect(c.runs[0]!.verdict).toBe('differs');
    expect(c.runs[0]!.differences).toEqual(['goodput: 0.9712345678901234 -> 0.9712345678901235']);
  });

  it('names a changed entry deep in a timeline, and a longer one', () => {
    expect(differences({ t: [[1, 2]] }, { t: [[1, 3]] })).toEqual(['t[0][1]: 2 -> 3']);
    expect(differences({ t: [1] }, { t: [1, 0] })).toEqual(['t.length: 1 -> 2', 't[1]: (absent) -> 0']);
  });

  it('reports runs missing from this run and changed settings as not identical, and lists new runs apart', () => {
    const saved = record(1);
    const now: FleetModelRecord = { settings: { seconds: 30 }, seeds: [2], runs: [{ ...saved.runs[0]!, seed: 2 }] };
    const c = compareRecords(saved, now);
    expect(c.identical).toBe(false);
    expect(c.settings).toEqual(['seconds: 60 -> 30']);
    expect(c.runs.map((r) => `${r.verdict} ${r.seed}`)).toEqual(['new 2', 'missing 1']);
    expect(formatComparison(c).slice(-2)).toEqual([
      'NOT identical: 1 of 1 runs differ or are missing, settings differ.',
      '1 new runs (not in the saved record, not compared).',
    ]);
  });

  it('counts a new scenario as no difference of the saved ones (a bench may gain scenarios)', () => {
    const saved = record(1);
    const now: FleetModelRecord = {
      ...saved,
      runs: [...saved.runs, { scenario: '8 copies whole-second catalog 2500 in pages of 25', seed: 1, figures: { goodput: 0.8 } }],
    };
    const c = compareRecords(saved, now);
    expect(c.identical).toBe(true);
    expect(formatComparison(c).slice(-2)).toEqual(['All 1 runs identical, every figure.', '1 new runs (not in the saved record, not compared).']);
  });
});
