import { describe, expect, it, vi } from 'vitest';
import { CALL_NAMES, calls } from '../../shared/bridge/contract';
import type { CallName } from '../../shared/bridge/contract';
import { PartnerError } from '../../shared/errors';
import { createDispatcher } from '../../electron/app/dispatcher';
import { createHandlers } from '../../electron/app/handlers';
import type { AppContext, CallHandlers } from '../../electron/app/handlers';

/** Handlers that answer `answers[name]` (or throw it when it is a function that throws). */
function fakeHandlers(impl: Partial<Record<CallName, (req: unknown) => unknown>> = {}) {
  const seen: { name: CallName; req: unknown }[] = [];
  const handlers = Object.fromEntries(
    CALL_NAMES.map((name) => [
      name,
      async (req: unknown) => {
        seen.push({ name, req });
        const f = impl[name];
        return f ? f(req) : { ok: true };
      },
    ]),
  ) as unknown as CallHandlers;
  return { handlers, seen };
}

function errorOf(result: { ok: boolean; error?: { message: string } }): string {
  expect(result.ok).toBe(false);
  return result.error?.message ?? '';
}

function setup(impl: Partial<Record<CallName, (req: unknown) => unknown>> = {}) {
  const { handlers, seen } = fakeHandlers(impl);
  const log = vi.fn();
  const dispatch = createDispatcher(handlers, { log, tokens: () => ['sekrit-token-123', 'quo"te\\token-9'] });
  return { dispatch, seen, log };
}

describe('createHandlers', () => {
  it('has exactly one handler for every call of the contract', () => {
    const handlers = createHandlers({} as AppContext);
    expect(Object.keys(handlers).sort()).toEqual([...CALL_NAMES].sort());
    for (const name of CALL_NAMES) expect(typeof handlers[name]).toBe('function');
  });
});

describe('dispatch: requests', () => {
  it('refuses an unknown call name', async () => {
    const { dispatch } = setup();
    expect(await dispatch('deleteEverything', {})).toEqual({
      ok: false,
      error: { code: 'BAD_REQUEST', message: 'Unknown call "deleteEverything".', retryable: false },
    });
    expect((await dispatch('__proto__', {})).ok).toBe(false);
    expect((await dispatch('toString', {})).ok).toBe(false);
  });

  it('validates every call: a non-object request is refused before any handler runs', async () => {
    const { dispatch, seen } = setup();
    for (const name of CALL_NAMES) {
      const result = await dispatch(name, 42);
      expect(result.ok, name).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe('BAD_REQUEST');
        expect(result.error.message).toContain(`Invalid request for ${name}`);
        expect(result.error.retryable).toBe(false);
      }
    }
    expect(seen).toEqual([]);
  });

  it('names the field and the rule in the message', async () => {
    const { dispatch, seen } = setup();
    expect(errorOf(await dispatch('listAssets', { profileId: 'demo', lastId: null, pageSize: 500 }))).toBe(
      'Invalid request for listAssets: pageSize: Too big: expected number to be <=100.',
    );
    const missing = errorOf(await dispatch('searchAssets', { query: 'x' }));
    expect(missing).toContain('category');
    expect(missing).toContain('limit');
    expect(errorOf(await dispatch('simSetCompetitors', { competitors: [{ vendor: 'acme', endpoint: 'nope', rps: 5 }] }))).toContain('competitors.0.endpoint');
    expect(errorOf(await dispatch('categories', { surprise: true }))).toContain('surprise');
    expect(errorOf(await dispatch('openExternal', { url: 'http://example.com/' }))).toContain('url: only https URLs are opened');
    expect(errorOf(await dispatch('listAssets', null))).toContain('Invalid request for listAssets:');
    expect(seen).toEqual([]);
  });

  it('passes the parsed request, defaults applied, to the handler; undefined counts as {}', async () => {
    const { dispatch, seen } = setup({
      saveProfile: (req) => ({
        id: 'p1',
        name: 'x',
        vendor: 'v',
        baseUrl: 'https://x.example',
        demo: false,
        tokens: [],
        tokenPresentation: (req as { tokenPresentation?: unknown }).tokenPresentation ?? { header: 'Authorization', scheme: 'Bearer' },
        pageSizeParam: 'per-page',
        idField: 'id',
      }),
      connectedProfiles: () => ({ items: [] }),
    });
    const saved = await dispatch('saveProfile', { name: ' Acme ', vendor: 'acme', baseUrl: 'https://x.example' });
    expect(saved.ok).toBe(true);
    expect(seen[0]!.req).toMatchObject({ name: 'Acme', addTokens: [], removeTokenIds: [] });
    // What a save leaves out stays out: the profile keeps its own (the store applies defaults to a new one only).
    expect(seen[0]!.req).not.toHaveProperty('tokenPresentation');
    expect(seen[0]!.req).not.toHaveProperty('pageSizeParam');
    expect((await dispatch('connectedProfiles', undefined)).ok).toBe(true);
  });
});

describe('dispatch: answers and errors', () => {
  it('returns the value, normalised by the response schema', async () => {
    const { dispatch } = setup({ removeProfile: () => ({ ok: true, leaked: 'x' }) });
    expect(await dispatch('removeProfile', { id: 'p1' })).toEqual({ ok: true, value: { ok: true } });
  });

  it('turns a PartnerError into its data, tokens masked', async () => {
    const { dispatch, log } = setup({
      purchaseInfo: () => {
        throw new PartnerError({
          code: 'NOT_FOUND',
          message: 'No purchase for sekrit-token-123',
          status: 404,
          retryable: false,
          body: { echo: 'sekrit-token-123' },
        });
      },
    });
    const result = await dispatch('purchaseInfo', { profileId: 'demo', purchaseId: 'p_1' });
    expect(result).toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'No purchase for sekr…23', status: 404, retryable: false, body: { echo: 'sekr…23' } },
    });
    expect(log).not.toHaveBeenCalled();
  });

  it('masks a token with a quote and a backslash in it inside a body object', async () => {
    const token = 'quo"te\\token-9';
    const { dispatch } = setup({
      purchaseInfo: () => {
        throw new PartnerError({
          code: 'NOT_FOUND',
          message: `No purchase for ${token}`,
          status: 404,
          retryable: false,
          body: { echo: [token, { [token]: 1 }] },
        });
      },
    });
    const result = await dispatch('purchaseInfo', { profileId: 'demo', purchaseId: 'p_1' });
    expect(JSON.stringify(result)).not.toContain('te\\\\token');
    expect(result).toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'No purchase for quo"…-9', status: 404, retryable: false, body: { echo: ['quo"…-9', { 'quo"…-9': 1 }] } },
    });
  });

  it('turns any other thrown value into INTERNAL, logged, never thrown', async () => {
    const { dispatch, log } = setup({
      categories: () => {
        throw new TypeError('x is undefined');
      },
      connection: () => {
        throw 'a string';
      },
    });
    expect(await dispatch('categories', { profileId: 'demo' })).toEqual({
      ok: false,
      error: { code: 'INTERNAL', message: 'Unexpected error: x is undefined', retryable: false },
    });
    expect(await dispatch('connection', {})).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'Unexpected error: a string', retryable: false } });
    expect(log).toHaveBeenCalledTimes(2);
    expect(log.mock.calls[0]![0]).toBe('error');
  });

  it('reports a handler answer outside the contract as INTERNAL and logs it', async () => {
    const { dispatch, log } = setup({ categories: () => ({ items: [{ id: 7 }] }) });
    const result = await dispatch('categories', { profileId: 'demo' });
    expect(result).toEqual({
      ok: false,
      error: { code: 'INTERNAL', message: 'The app produced an invalid answer for categories; this is a bug.', retryable: false },
    });
    expect(log).toHaveBeenCalledWith('error', expect.stringContaining('items.0.id'));
  });

  it('turns a rejected promise into data too', async () => {
    const { dispatch } = setup({ appInfo: () => Promise.reject(new PartnerError({ code: 'CONFLICT', message: 'busy', retryable: true })) });
    expect(await dispatch('appInfo', {})).toEqual({ ok: false, error: { code: 'CONFLICT', message: 'busy', retryable: true } });
  });

  it('covers the contract: every request schema is an object schema', () => {
    for (const name of CALL_NAMES) expect(calls[name].request.safeParse(42).success).toBe(false);
  });
});
