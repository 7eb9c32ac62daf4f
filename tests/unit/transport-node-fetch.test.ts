/**
 * Node loads its fetch on first use: the transport has it loaded when it is made, so that the load is
 * not paid inside a request after its budget slot (where it made the request reach the service late).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

describe('createTransport on Node', () => {
  const nodeFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = nodeFetch;
  });

  it("loads Node's fetch when made, once per process, with a request that goes nowhere", async () => {
    const calls: string[] = [];
    globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
      calls.push(String(input));
      return nodeFetch(input, init);
    }) as typeof fetch;
    vi.resetModules();
    const { createTransport } = await import('../../electron/client/transport');
    createTransport();
    createTransport({ maxResponseBytes: 1024 });
    expect(calls).toEqual(['data:,']);
  });

  it("leaves a shell's own fetch alone (Electron's net.fetch needs no loading)", async () => {
    const calls: string[] = [];
    globalThis.fetch = ((input: string | URL | Request) => {
      calls.push(String(input));
      return Promise.reject(new Error('not expected'));
    }) as typeof fetch;
    vi.resetModules();
    const { createTransport } = await import('../../electron/client/transport');
    createTransport({ pooled: (() => Promise.reject(new Error('not expected'))) as typeof fetch });
    expect(calls).toEqual([]);
  });
});
