/** The Alerts view's Lasted column: a firing alert says how long it has fired so far, not a dash. */
import { describe, expect, it } from 'vitest';
import { lastedText } from '../../../renderer/src/views/alerts/alert-lasted';

const START = 1_700_000_000_000;

describe('lastedText', () => {
  it('gives a firing alert its time so far and "(ongoing)"', () => {
    expect(lastedText({ startedAt: START, endedAt: null }, START + 245_000)).toBe('4 min 05 s (ongoing)');
  });

  it('gives an ended alert its duration, however late it is read', () => {
    expect(lastedText({ startedAt: START, endedAt: START + 42_000 }, START + 3_600_000)).toBe('42 s');
  });

  it('never says 0 s: an alert lasts at least a second', () => {
    expect(lastedText({ startedAt: START, endedAt: null }, START + 100)).toBe('1 s (ongoing)');
  });
});
