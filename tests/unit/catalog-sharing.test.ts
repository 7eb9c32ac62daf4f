/** A download that shares its budget says so in its progress (UI and CLI), as a state, never a failure. */
import { describe, expect, it } from 'vitest';
import { formatProgressLine } from '../../electron/catalog/cli-output';
import { ProgressTracker } from '../../electron/catalog/progress';
import type { BudgetSample } from '../../shared/rate-limit';

const files = { out: '/tmp/c.jsonl', checkpoint: '/tmp/c.jsonl.checkpoint.json', format: 'jsonl' as const };

function sample(status: number, consumers?: number): BudgetSample {
  const s: BudgetSample = {
    vendor: 'v',
    endpoint: 'listAssets',
    at: 0,
    status,
    limit: 20,
    remaining: 3,
    reset: 0,
    latencyMs: 2,
    waitedMs: 40,
    attempt: 1,
    headerProblems: [],
  };
  if (consumers !== undefined) s.consumers = consumers;
  return s;
}

describe('download progress while the budget is shared', () => {
  it('names the endpoint and about how many others share it; clears when we are alone again', () => {
    const tracker = new ProgressTracker(() => 0, files);
    tracker.beginRun({ pages: 0, items: 0, bytes: 0, total: 100 }, false);
    tracker.setState('running');
    tracker.addSample(sample(200, 8));
    const shared = tracker.snapshot();
    expect(shared.sharing?.message).toBe('sharing /assets/list with about 7 other consumers');
    expect(shared.state).toBe('running');
    expect(shared.error).toBeUndefined();
    expect(formatProgressLine(shared)).toContain('sharing /assets/list with about 7 other consumers');
    tracker.addSample(sample(200, 1));
    expect(tracker.snapshot().sharing).toBeNull();
  });

  it('a 429 without an estimate is a wait for the shared budget, not a failure', () => {
    const tracker = new ProgressTracker(() => 0, files);
    tracker.beginRun({ pages: 0, items: 0, bytes: 0, total: null }, false);
    tracker.setState('running');
    tracker.addSample(sample(429));
    expect(tracker.snapshot().sharing?.message).toBe('waiting for the shared budget of /assets/list');
    tracker.setState('done');
    expect(tracker.snapshot().sharing).toBeNull();
  });
});
