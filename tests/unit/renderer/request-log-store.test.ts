import { describe, expect, it, vi } from 'vitest';
import { RequestLogStore } from '../../../renderer/src/live/request-log-store';
import type { LogEntry } from '../../../renderer/src/live/request-log-store';

function entry(id: number, over: Partial<LogEntry> = {}): LogEntry {
  return {
    id,
    at: 1_700_000_000_000 + id,
    vendor: 'acme',
    endpoint: 'listAssets',
    method: 'GET',
    path: '/assets/list',
    status: 200,
    latencyMs: 12,
    waitedMs: 0,
    attempt: 1,
    limit: 20,
    remaining: 19,
    reset: 1,
    errorCode: null,
    ...over,
  };
}

const ids = (entries: readonly LogEntry[]) => entries.map((e) => e.id);

describe('RequestLogStore', () => {
  it('keeps entries ordered by id whatever order they arrive in, newest first on read', () => {
    const store = new RequestLogStore(10);
    store.ingest([entry(3), entry(1), entry(2)], 0);
    expect(store.size).toBe(3);
    expect(ids(store.newest(10))).toEqual([3, 2, 1]);
  });

  it('ignores repeats and anything not newer than what it holds', () => {
    const store = new RequestLogStore(10);
    store.ingest([entry(1), entry(2)], 0);
    store.ingest([entry(2), entry(1), entry(3)], 0);
    expect(ids(store.newest(10))).toEqual([3, 2, 1]);
  });

  it('notifies only when something changed', () => {
    const store = new RequestLogStore(10);
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.ingest([entry(1)], 0);
    expect(listener).toHaveBeenCalledTimes(1);
    const version = store.version;
    store.ingest([entry(1)], 0);
    store.ingest([], 0);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.version).toBe(version);
    store.ingest([], 4);
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    store.ingest([entry(2)], 0);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('stays bounded and counts what it let go', () => {
    const store = new RequestLogStore(3);
    store.ingest(
      [1, 2, 3, 4, 5].map((id) => entry(id)),
      0,
    );
    expect(store.size).toBe(3);
    expect(ids(store.newest(10))).toEqual([5, 4, 3]);
    expect(store.droppedHere).toBe(2);
  });

  it("keeps the highest count of entries main's log let go", () => {
    const store = new RequestLogStore(3);
    store.ingest([], 7);
    store.ingest([], 2);
    expect(store.droppedByMain).toBe(7);
  });

  it('newest honours the maximum and the filter; countMatching counts all kept matches', () => {
    const store = new RequestLogStore(10);
    store.ingest(
      [1, 2, 3, 4, 5, 6].map((id) => entry(id, { status: id % 2 === 0 ? 429 : 200 })),
      0,
    );
    const limited = (e: LogEntry) => e.status === 429;
    expect(ids(store.newest(2, limited))).toEqual([6, 4]);
    expect(ids(store.newest(2))).toEqual([6, 5]);
    expect(store.countMatching(limited)).toBe(3);
    expect(store.newest(0)).toEqual([]);
  });

  it('clear forgets everything, so a fresh backfill with the same ids is taken in', () => {
    const store = new RequestLogStore(2);
    store.ingest(
      [1, 2, 3].map((id) => entry(id)),
      9,
    );
    const listener = vi.fn();
    store.subscribe(listener);
    store.clear();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.size).toBe(0);
    expect(store.droppedHere).toBe(0);
    expect(store.droppedByMain).toBe(0);
    store.ingest([entry(1), entry(2)], 0);
    expect(ids(store.newest(10))).toEqual([2, 1]);
  });
});
