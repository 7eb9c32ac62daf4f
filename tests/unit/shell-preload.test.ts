import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('../fakes/electron'));

import { eventKey } from '../../shared/bridge/api';
import type { PartnerBridge } from '../../shared/bridge/api';
import { CALL_NAMES, EVENT_NAMES } from '../../shared/bridge/contract';
import { FakeEvent, contextBridge, fakeElectron, ipcRenderer } from '../fakes/electron';

describe('preload', () => {
  let exposed: PartnerBridge;
  const invoked: Array<{ channel: string; args: unknown[] }> = [];

  beforeAll(async () => {
    fakeElectron.reset();
    await import('../../electron/preload');
    exposed = contextBridge.exposed.get('partner') as PartnerBridge;
  });
  beforeEach(() => {
    invoked.length = 0;
    ipcRenderer.route = async (channel, ...args) => {
      invoked.push({ channel, args });
      return { ok: true, value: { channel } };
    };
  });

  it('exposes exactly one object, window.partner', () => {
    expect([...contextBridge.exposed.keys()]).toEqual(['partner']);
  });

  it('has exactly the contract’s calls and one onX per event, and nothing else', () => {
    const expected = [...CALL_NAMES, ...EVENT_NAMES.map((name) => eventKey(name)), 'cancelCall'].sort();
    expect(Object.keys(exposed).sort()).toEqual(expected);
    for (const key of expected) expect(typeof (exposed as unknown as Record<string, unknown>)[key]).toBe('function');
    expect(Object.isFrozen(exposed)).toBe(true);
  });

  it('invokes the call’s own channel with the request alone', async () => {
    const result = await exposed.listAssets({ profileId: 'demo', lastId: null, pageSize: 50 });
    expect(result).toEqual({ ok: true, value: { channel: 'partner:call:listAssets' } });
    expect(invoked).toEqual([{ channel: 'partner:call:listAssets', args: [{ profileId: 'demo', lastId: null, pageSize: 50 }] }]);
  });

  it('turns a failed invoke (no handler yet) into a CallResult error, never a rejection', async () => {
    ipcRenderer.route = () => Promise.reject(new Error("No handler registered for 'partner:call:appInfo'"));
    const result = await exposed.appInfo({});
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('INTERNAL');
      expect(result.error.message).toMatch(/appInfo/);
    }
  });

  it('gives event listeners the payload only, never the Electron event, and unsubscribes', () => {
    const received: unknown[][] = [];
    const unsubscribe = exposed.onBudget((...args: unknown[]) => received.push(args));
    const payload = { aggregates: [] };
    ipcRenderer.emit('partner:event:budget', new FakeEvent({ sender: 'ipc-renderer-internals' }), payload);
    ipcRenderer.emit('partner:event:connection', new FakeEvent(), { state: 'offline' });
    expect(received).toEqual([[payload]]);
    expect(ipcRenderer.listenerCount('partner:event:budget')).toBe(1);
    unsubscribe();
    expect(ipcRenderer.listenerCount('partner:event:budget')).toBe(0);
    ipcRenderer.emit('partner:event:budget', new FakeEvent(), payload);
    expect(received).toHaveLength(1);
  });
});
