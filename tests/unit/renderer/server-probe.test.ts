import { afterEach, describe, expect, it, vi } from 'vitest';
import { bridgeAnswersHttp } from '../../../renderer/src/bridge/server-probe';

const answering = (status: number) => vi.fn(() => Promise.resolve(new Response('', { status }))) as unknown as typeof fetch;

afterEach(() => {
  vi.useRealTimers();
});

describe('bridgeAnswersHttp', () => {
  it("is true only for the bridge's 426 Upgrade Required", async () => {
    const fetchImpl = answering(426);
    await expect(bridgeAnswersHttp('http://127.0.0.1:1/bridge', fetchImpl)).resolves.toBe(true);
    expect(fetchImpl).toHaveBeenCalledWith('http://127.0.0.1:1/bridge', expect.objectContaining({ cache: 'no-store' }));
    await expect(bridgeAnswersHttp('http://127.0.0.1:1/bridge', answering(404))).resolves.toBe(false);
    await expect(bridgeAnswersHttp('http://127.0.0.1:1/bridge', answering(200))).resolves.toBe(false);
  });

  it('is false when the server cannot be reached', async () => {
    const refused = (() => Promise.reject(new TypeError('fetch failed'))) as unknown as typeof fetch;
    await expect(bridgeAnswersHttp('http://127.0.0.1:1/bridge', refused)).resolves.toBe(false);
  });

  it('gives up (false) when the server does not answer in time', async () => {
    vi.useFakeTimers();
    const hanging = ((_url: string, init?: RequestInit) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))))) as unknown as typeof fetch;
    const pending = bridgeAnswersHttp('http://127.0.0.1:1/bridge', hanging, 1000);
    await vi.advanceTimersByTimeAsync(1000);
    await expect(pending).resolves.toBe(false);
  });
});
