/**
 * A Retry-After given as an HTTP date, on an answer without a Date header, is read against the wall
 * clock: HTTP dates are wall time. The client's monotonic clock falls behind the wall clock by the
 * time the computer slept; read against it, a date a few seconds off came out hours long (capped at
 * 60 s). The clock here is the system's with its monotonic time three hours behind, as after a sleep;
 * a real loopback server answers 429 with a Retry-After three seconds off and no Date header.
 */
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { BudgetRegistry } from '../../electron/client';
import { loopbackService } from '../helpers/loopback-service';
import type { Clock } from '../../shared/clock';
import { systemClock } from '../../electron/client/clock';

const SLEPT_MS = 3 * 60 * 60 * 1000;

/** The system clock after the computer slept three hours: its monotonic time is that far behind the wall clock. */
const afterSleep: Clock = { ...systemClock, now: () => systemClock.now() - SLEPT_MS, wallNow: () => Date.now() };

describe('a 429 whose Retry-After is a date, without a Date header, after the computer slept', () => {
  const server = createServer((req, res) => {
    req.resume();
    res.sendDate = false;
    res.writeHead(429, {
      'Content-Type': 'application/json',
      'Retry-After': new Date(Date.now() + 3000).toUTCString(),
      'X-Rate-Limit-Limit': '20',
      'X-Rate-Limit-Remaining': '0',
      'X-Rate-Limit-Reset': '1',
    });
    res.end('{"name":"Too Many Requests","message":"Rate limit exceeded.","code":0,"status":429}');
  });
  const service = loopbackService(server, 'http', () => ({
    clock: afterSleep,
    budgets: new BudgetRegistry({ clock: afterSleep }),
    random: () => 0,
    retry: { maxAttempts: 1 },
  }));

  it('pauses the budget until about the date the service named, not for the 60 s cap', async () => {
    await expect(service.client.request('categories')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    const pausedUntil = service.client.budgetSnapshot().find((b) => b.endpoint === 'categories')?.pausedUntil ?? null;
    expect(pausedUntil).not.toBeNull();
    // The date is at most 3 s off (whole seconds); the cap would put it 60 s off.
    expect(pausedUntil! - Date.now()).toBeLessThanOrEqual(5_000);
  });
});
