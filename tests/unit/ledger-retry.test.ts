/** The ledger's write retry: in order, bounded backoff, passing store failures only. */
import { describe, expect, it } from 'vitest';
import { LedgerWriteRetry, RETRY_MAX_MS } from '../../electron/store/ledger-retry';
import { isPassingStoreFailure } from '../../electron/store/store-errors';

const busy = (): never => {
  throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
};

function harness() {
  const timers: { fn: () => void; ms: number }[] = [];
  const retry = new LedgerWriteRetry({ setTimer: (fn, ms) => (timers.push({ fn, ms }), {}), clearTimer: () => undefined });
  const fire = (): void => timers.shift()!.fn();
  return { retry, timers, fire };
}

describe('LedgerWriteRetry', () => {
  it('keeps writes the store cannot take in order, retries with a bounded backoff, and lands them when it can', () => {
    const { retry, timers, fire } = harness();
    let locked = true;
    const written: string[] = [];
    const write = (what: string) => () => (locked ? busy() : written.push(what));
    expect(retry.write('first', write('registered'))).toEqual({ landed: false, reason: 'database is locked' });
    // A later write waits behind the earlier one, even if it alone could land.
    expect(retry.write('second', () => written.push('validated'))).toMatchObject({ landed: false });
    for (let i = 0; i < 7; i++) fire();
    expect(timers.map((t) => t.ms)).toEqual([RETRY_MAX_MS]);
    expect(retry.pending).toBe(2);
    locked = false;
    fire();
    expect(written).toEqual(['registered', 'validated']);
    expect(retry.pending).toBe(0);
    expect(retry.write('third', () => 3)).toEqual({ landed: true, value: 3 });
  });

  it('records the delays it waits: 250 ms doubling to the cap', () => {
    const { retry, timers, fire } = harness();
    retry.write('w', busy);
    const delays: number[] = [];
    for (let i = 0; i < 7; i++) {
      delays.push(timers[0]!.ms);
      fire();
    }
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000]);
  });

  it('waits out a lock, a full disk, a read-only file or an I/O error; never a constraint or a bug', () => {
    const failure = (code: string) => Object.assign(new Error(code), { code });
    for (const code of ['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_FULL', 'SQLITE_READONLY', 'SQLITE_READONLY_DBMOVED', 'SQLITE_IOERR_WRITE', 'SQLITE_CANTOPEN']) {
      expect(isPassingStoreFailure(failure(code))).toBe(true);
    }
    for (const code of ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_ERROR', 'SQLITE_MISMATCH']) expect(isPassingStoreFailure(failure(code))).toBe(false);
    expect(isPassingStoreFailure(new Error('plain'))).toBe(false);
  });

  it('throws what is not a passing store failure, and keeps nothing for it', () => {
    const { retry, timers } = harness();
    expect(() =>
      retry.write('bug', () => {
        throw new Error('ledger record 9 is gone');
      }),
    ).toThrow('is gone');
    expect(retry.pending).toBe(0);
    expect(timers).toEqual([]);
  });
});
