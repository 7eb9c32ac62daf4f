/** The Requests view's pure parts: what its filters keep, the status selector's order, copy as curl, and route parsing. */
import { describe, expect, it } from 'vitest';
import { parseRoute } from '../../../renderer/src/lib/hash-route';
import { shortcutFor } from '../../../renderer/src/lib/shortcuts';
import type { LogEntry } from '../../../renderer/src/live/request-log-store';
import { LOG_ENTRIES_KEPT } from '../../../renderer/src/live/request-log-store';
import { toCurl } from '../../../shared/curl';
import { logFilter, STATUS_FILTERS } from '../../../renderer/src/views/requests/log-filter';
import { statusTone } from '../../../renderer/src/components/Pill';

const entry = (over: Partial<LogEntry>): LogEntry => ({
  id: 1,
  at: 1_000_000,
  vendor: 'demo',
  endpoint: 'purchaseInfo',
  method: 'GET',
  path: '/purchase/info?purchase_id=P-4711',
  status: 200,
  latencyMs: 10,
  waitedMs: 0,
  attempt: 1,
  limit: 50,
  remaining: 49,
  reset: 0,
  errorCode: null,
  ...over,
});

describe('request log filters', () => {
  const base = { endpoint: 'all', status: 'all', rangeS: 0, text: '' } as const;

  it('finds a purchase id or reference in the path and query, case-insensitively', () => {
    const keep = logFilter({ ...base, text: 'p-4711' }, 1_000_000);
    expect(keep(entry({}))).toBe(true);
    expect(keep(entry({ path: '/purchase/info?purchase_id=P-9' }))).toBe(false);
    expect(logFilter({ ...base, text: 'pc-abc' }, 0)(entry({ path: '/purchase/find?client_reference=pc-ABC' }))).toBe(true);
  });

  it('keeps an entry main found the text in (a body), combined with the other filters', () => {
    const registration = entry({ id: 7, endpoint: 'registerPurchase', method: 'POST', path: '/purchase/register', status: 200 });
    const found = new Set([7]);
    expect(logFilter({ ...base, text: 'pc-0042' }, 0)(registration)).toBe(false);
    expect(logFilter({ ...base, text: 'pc-0042', found }, 0)(registration)).toBe(true);
    expect(logFilter({ ...base, text: 'pc-0042', found, status: '429' }, 0)(registration)).toBe(false);
    expect(logFilter({ ...base, text: 'pc-0042', found, endpoint: 'listAssets' }, 0)(registration)).toBe(false);
  });

  it('keeps only the time range asked for', () => {
    const keep = logFilter({ ...base, rangeS: 10 }, 1_000_000);
    expect(keep(entry({ at: 995_000 }))).toBe(true);
    expect(keep(entry({ at: 985_000 }))).toBe(false);
  });

  it('tells 409 from 429 and lists "All statuses" first', () => {
    expect(STATUS_FILTERS[0].label).toBe('All statuses');
    const by = (id: string) => logFilter({ ...base, status: id as never }, 0);
    expect(by('429')(entry({ status: 429 }))).toBe(true);
    expect(by('429')(entry({ status: 409 }))).toBe(false);
    expect(by('409')(entry({ status: 409 }))).toBe(true);
    expect(by('4xx')(entry({ status: 409 }))).toBe(false);
    expect(by('4xx')(entry({ status: 404 }))).toBe(true);
    expect(statusTone(429)).not.toBe(statusTone(409));
  });

  it('keeps as many entries as main does (5,000)', () => {
    expect(LOG_ENTRIES_KEPT).toBe(5000);
  });
});

describe('copy as curl', () => {
  const register = {
    method: 'POST',
    origin: 'http://127.0.0.1:8700',
    target: '/purchase/register',
    headers: { authorization: 'Bearer demo…-2', 'content-length': '40', 'content-type': 'application/json' },
    body: `{"title":"it's"}`,
    tokenHeader: { header: 'authorization', scheme: 'Bearer' },
  };

  it('quotes for the shell and writes the token as "$PARTNER_TOKEN", never the masked text', () => {
    const command = toCurl(register);
    expect(command).toBe(
      `curl -X POST --globoff --path-as-is 'http://127.0.0.1:8700/purchase/register' -H 'content-type: application/json' -H 'authorization: Bearer '"$PARTNER_TOKEN" --data-raw '{"title":"it'\\''s"}'`,
    );
    expect(command).not.toContain('demo…');
  });

  it('writes a bare token header (another presentation) the same way, and the plain token only when asked', () => {
    const apiKey = { ...register, headers: { 'x-api-key': 'demo…-2' }, tokenHeader: { header: 'x-api-key', scheme: null } };
    expect(toCurl(apiKey)).toContain(`-H 'x-api-key: '"$PARTNER_TOKEN"`);
    expect(toCurl(apiKey, { kind: 'plain', token: `to'k` })).toContain(`-H 'x-api-key: to'\\''k'`);
  });

  it('leaves GET implicit, and headers as logged when no token was sent', () => {
    expect(toCurl({ method: 'GET', origin: null, target: '/assets/list?page=2', headers: { accept: 'application/json' }, body: null, tokenHeader: null })).toBe(
      `curl --globoff --path-as-is '/assets/list?page=2' -H 'accept: application/json'`,
    );
  });
});

describe('routes and shortcuts', () => {
  it('parses every hash, a malformed escape included, without throwing', () => {
    expect(parseRoute('#/catalog/%E0%A4%A')).toEqual({ view: 'catalog', param: '%E0%A4%A', at: null, endpoint: null });
    expect(parseRoute('#/catalog/a%2Fb')).toEqual({ view: 'catalog', param: 'a/b', at: null, endpoint: null });
    expect(parseRoute('#/nowhere/1')).toEqual({ view: 'budget', param: null, at: null, endpoint: null });
    expect(parseRoute('')).toEqual({ view: 'budget', param: null, at: null, endpoint: null });
    expect(parseRoute('#/requests/')).toEqual({ view: 'requests', param: null, at: null, endpoint: null });
  });

  it('maps keys to actions: digits and g+letter to views, / search, space live, [ ] ranges, ? help', () => {
    expect(shortcutFor('5', null)).toEqual({ kind: 'view', view: 'requests' });
    expect(shortcutFor('c', 'g')).toEqual({ kind: 'view', view: 'catalog' });
    expect(shortcutFor('c', null)).toBeNull();
    expect(shortcutFor('9', null)).toBeNull();
    expect(shortcutFor('/', null)).toEqual({ kind: 'search' });
    expect(shortcutFor(' ', null)).toEqual({ kind: 'live' });
    expect(shortcutFor('[', null)).toEqual({ kind: 'range', step: -1 });
    expect(shortcutFor('?', null)).toEqual({ kind: 'help' });
  });
});
