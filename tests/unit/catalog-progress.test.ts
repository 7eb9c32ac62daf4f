import { describe, expect, it } from 'vitest';
import { ProgressTracker, ProgressEmitter } from '../../electron/catalog/progress';
import type { Clock } from '../../shared/clock';
import type { BudgetSample } from '../../shared/rate-limit';

/** A clock moved by hand, with timers that fire when it passes them. */
class FakeClock implements Clock {
  t = 1_000_000;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 1;
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ at: this.t + ms, fn, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.t = due.at;
      due.fn();
    }
    this.t = end;
  }
}

function sample(status: number, waitedMs = 0): BudgetSample {
  return { vendor: 'demo', endpoint: 'listAssets', at: 0, status, limit: 20, remaining: 1, reset: 0, latencyMs: 5, waitedMs, attempt: 1, headerProblems: [] };
}

const files = { out: '/tmp/x.jsonl', checkpoint: '/tmp/x.jsonl.checkpoint.json', format: 'jsonl' as const };

describe('ProgressTracker', () => {
  it('continues counts from the checkpoint and measures this run', () => {
    const clock = new FakeClock();
    const tracker = new ProgressTracker(() => clock.now(), files);
    tracker.beginRun({ pages: 2, items: 200, bytes: 5000, total: 1000 }, true);
    tracker.setState('running');
    for (let i = 0; i < 4; i++) {
      clock.advance(500);
      tracker.addSample(sample(i === 1 ? 429 : 200, 100));
      if (i !== 1) tracker.addPage(100, 5000 + (i + 1) * 100, 1000);
    }
    const p = tracker.snapshot();
    expect(p).toMatchObject({
      state: 'running',
      resumed: true,
      pages: 5,
      items: 500,
      total: 1000,
      percent: 50,
      requests: 4,
      rateLimited: 1,
      waitedMs: 400,
      elapsedMs: 2000,
    });
    expect(p.statuses).toEqual({ '200': 3, '429': 1 });
    expect(p.requestsPerSecond).toBe(2);
    // 300 items in 2 s this run: 500 left take 3.3 s.
    expect(p.etaSeconds).toBeCloseTo(3.3, 1);
  });

  it('excludes paused time from rates and the ETA', () => {
    const clock = new FakeClock();
    const tracker = new ProgressTracker(() => clock.now(), files);
    tracker.beginRun({ pages: 0, items: 0, bytes: 0, total: 400 }, false);
    tracker.setState('running');
    clock.advance(1000);
    tracker.addSample(sample(200));
    tracker.addPage(100, 10, null);
    tracker.setState('paused');
    clock.advance(60_000);
    tracker.setState('running');
    clock.advance(1000);
    const p = tracker.snapshot();
    expect(p.elapsedMs).toBe(2000);
    expect(p.etaSeconds).toBeCloseTo(6, 5);
    expect(p.total).toBe(400);
  });

  it('has no ETA or percent without a total, and an ETA of 0 when done', () => {
    const clock = new FakeClock();
    const tracker = new ProgressTracker(() => clock.now(), files);
    tracker.beginRun({ pages: 0, items: 0, bytes: 0, total: null }, false);
    tracker.setState('running');
    clock.advance(100);
    tracker.addPage(10, 10, null);
    expect(tracker.snapshot()).toMatchObject({ percent: null, etaSeconds: null });
    tracker.addPage(0, 10, 10);
    tracker.setState('done');
    expect(tracker.snapshot()).toMatchObject({ percent: 100, etaSeconds: 0, state: 'done' });
  });

  it('carries the error of a failed run', () => {
    const tracker = new ProgressTracker(() => 0, files);
    tracker.setState('failed', { code: 'NETWORK', message: 'down', retryable: true });
    expect(tracker.snapshot().error).toEqual({ code: 'NETWORK', message: 'down', retryable: true });
  });
});

describe('ProgressEmitter', () => {
  it('emits at most once per interval, folding changes into one trailing emission', () => {
    const clock = new FakeClock();
    let value = 0;
    const emitter = new ProgressEmitter(clock, 250, () => value);
    const seen: number[] = [];
    emitter.subscribe((v) => seen.push(v));
    value = 1;
    emitter.notify();
    for (let i = 2; i <= 5; i++) {
      clock.advance(20);
      value = i;
      emitter.notify();
    }
    expect(seen).toEqual([1]);
    clock.advance(250);
    expect(seen).toEqual([1, 5]);
    clock.advance(1000);
    expect(seen).toEqual([1, 5]);
  });

  it('emits a forced notification at once and cancels the pending trailing one', () => {
    const clock = new FakeClock();
    let value = 'a';
    const emitter = new ProgressEmitter(clock, 250, () => value);
    const seen: string[] = [];
    const off = emitter.subscribe((v) => seen.push(v));
    emitter.subscribe(() => {
      throw new Error('a broken listener does not stop the others');
    });
    emitter.notify();
    value = 'b';
    emitter.notify();
    value = 'done';
    emitter.notify(true);
    clock.advance(1000);
    expect(seen).toEqual(['a', 'done']);
    off();
    emitter.notify(true);
    expect(seen).toEqual(['a', 'done']);
  });
});
