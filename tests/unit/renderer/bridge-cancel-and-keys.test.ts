/**
 * Issue 11 item 10 and "also found" (renderer side): react-query's signal becomes a cancel message;
 * vendor data is keyed by profile first; views that failed during an outage refetch when it ends.
 */
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createPartnerBridge, toPartnerApi } from '../../../shared/bridge/api';
import type { CallResult } from '../../../shared/bridge/contract';
import { refetchAfterOutage } from '../../../renderer/src/api/outage';
import { keys } from '../../../renderer/src/api/queries';
import type { Connection } from '../../../renderer/src/api/queries';
import { WebSocketLink } from '../../../renderer/src/bridge/websocket-link';

describe('cancellation across the bridge', () => {
  it('an aborted signal cancels the call under the id the wire was given, and the caller gets CANCELLED', async () => {
    const invoked: Array<number | undefined> = [];
    const cancelled: number[] = [];
    let answer: (r: CallResult<unknown>) => void = () => undefined;
    const bridge = createPartnerBridge(
      (_name, _request, callId) => {
        invoked.push(callId);
        return new Promise((resolve) => (answer = resolve));
      },
      () => () => undefined,
      (callId) => {
        cancelled.push(callId);
        answer({ ok: false, error: { code: 'CANCELLED', message: 'cancelled', retryable: true } });
      },
    );
    const api = toPartnerApi(bridge);
    const controller = new AbortController();
    const search = api.searchAssets({ profileId: 'demo', query: 'a', category: null, limit: 5 }, { signal: controller.signal });
    controller.abort();
    await expect(search).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(invoked).toHaveLength(1);
    expect(cancelled).toEqual([invoked[0]]);
    await expect(api.searchAssets({ profileId: 'demo', query: 'b', category: null, limit: 5 }, { signal: controller.signal })).rejects.toMatchObject({
      code: 'CANCELLED',
    });
    expect(invoked).toHaveLength(1); // already aborted: nothing sent
  });

  it('the WebSocket link sends {t:"cancel"} for the call and answers it CANCELLED at once', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const socket = {
      readyState: 1,
      send: (d: string) => sent.push(JSON.parse(d) as Record<string, unknown>),
      close: () => undefined,
    } as unknown as WebSocket & { onopen: () => void };
    const link = new WebSocketLink({ url: 'ws://x', createSocket: () => socket });
    link.start();
    socket.onopen();
    const call = link.invoke('searchAssets', { query: 'a', category: null, limit: 5 }, 7);
    await Promise.resolve();
    await Promise.resolve();
    const callMessage = sent.find((m) => m.t === 'call')!;
    link.cancel(7);
    await expect(call).resolves.toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(sent).toContainEqual({ t: 'cancel', id: callMessage.id });
    link.close();
  });
});

describe('a call lost with the socket', () => {
  it('is UNKNOWN_OUTCOME when the contract marks it not idempotent (not by its name), NETWORK otherwise', async () => {
    const socket = { readyState: 1, send: () => undefined, close: () => undefined } as unknown as WebSocket & {
      onopen: () => void;
      onclose: (e: { code: number }) => void;
    };
    const link = new WebSocketLink({ url: 'ws://x', createSocket: () => socket });
    link.start();
    socket.onopen();
    const save = link.invoke('saveProfile', {});
    const list = link.invoke('listProfiles', {});
    await Promise.resolve();
    socket.onclose({ code: 1006 });
    await expect(save).resolves.toMatchObject({ ok: false, error: { code: 'UNKNOWN_OUTCOME', retryable: false } });
    await expect(list).resolves.toMatchObject({ ok: false, error: { code: 'NETWORK', retryable: true } });
    link.close();
  });
});

describe('query keys', () => {
  it('put the profile first in every vendor query key', () => {
    expect(keys.assets('p1', null, 20)[0]).toBe('p1');
    expect(keys.search('p1', 'q', null, 10)[0]).toBe('p1');
    expect(keys.history('p1', 3)[0]).toBe('p1');
    expect(keys.categories('p1')[0]).toBe('p1');
    expect(keys.assets('p1', null, 20)).not.toEqual(keys.assets('p2', null, 20));
  });
});

describe('refetch after an outage', () => {
  const view = (state: Connection['state']): Connection => ({ state, profileId: 'p1', vendor: 'acme', baseUrl: 'http://h', demo: false, message: null });

  it('fetches the views that failed during the outage again when the service is back', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let up = false;
    let calls = 0;
    const observer = new QueryObserver(client, {
      queryKey: ['p1', 'categories'],
      queryFn: () => {
        calls++;
        return up ? Promise.resolve(['a']) : Promise.reject(new Error('down'));
      },
    });
    const off = observer.subscribe(() => undefined);
    await new Promise((r) => setTimeout(r, 10));
    expect(observer.getCurrentResult().status).toBe('error');
    up = true;
    expect(refetchAfterOutage(client, view('connected'), view('connected'))).toBeNull();
    await refetchAfterOutage(client, view('offline'), view('connected'));
    expect(calls).toBe(2);
    expect(observer.getCurrentResult().data).toEqual(['a']);
    off();
    client.clear();
  });
});
