import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BACKOFF_BASE_MS, BACKOFF_CAP_MS, REFUSALS_BEFORE_CHECK, SECRET_REFUSED_PROBLEM, WebSocketLink } from '../../../renderer/src/bridge/websocket-link';
import type { WebSocketLinkOptions } from '../../../renderer/src/bridge/websocket-link';

/** Just enough of a browser WebSocket: the test plays the server. */
class FakeSocket {
  readyState = 0;
  readonly sent: Array<{ t: string; id: number; name: string; request: unknown }> = [];
  onopen: (() => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;

  constructor(readonly url: string) {}

  send(data: string): void {
    if (this.readyState !== 1) throw new Error('not open');
    this.sent.push(JSON.parse(data) as FakeSocket['sent'][number]);
  }
  close(): void {
    this.drop(1000);
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.();
  }
  /** The server goes away, or refuses the upgrade (then it was never open). */
  drop(code = 1006): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.({ code });
  }
  deliver(message: unknown): void {
    this.onmessage?.({ data: typeof message === 'string' ? message : JSON.stringify(message) });
  }
}

let sockets: FakeSocket[];
let links: WebSocketLink[];

function makeLink(options: Partial<WebSocketLinkOptions> = {}): WebSocketLink {
  const link = new WebSocketLink({
    url: 'ws://127.0.0.1:1/bridge?secret=s',
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket as unknown as WebSocket;
    },
    random: () => 1, // no jitter: the delay is the full backoff
    serverAnswers: () => Promise.resolve(false),
    ...options,
  });
  links.push(link);
  link.start();
  return link;
}

const last = () => sockets[sockets.length - 1]!;
const retryDelay = (link: WebSocketLink) => link.get().retryAt! - Date.now();

beforeEach(() => {
  vi.useFakeTimers();
  sockets = [];
  links = [];
});
afterEach(() => {
  for (const link of links) link.close();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('WebSocketLink calls and events', () => {
  it('sends a call and resolves it with the matching result', async () => {
    const link = makeLink();
    last().open();
    const pending = link.invoke('listAssets', { page: 1 });
    await vi.advanceTimersByTimeAsync(0);
    const call = last().sent[0]!;
    expect(call).toMatchObject({ t: 'call', name: 'listAssets', request: { page: 1 } });
    last().deliver({ t: 'result', id: call.id + 1000, result: { ok: true, value: 'not mine' } });
    last().deliver({ t: 'result', id: call.id, result: { ok: true, value: [1, 2] } });
    await expect(pending).resolves.toEqual({ ok: true, value: [1, 2] });
  });

  it('a call made while connecting waits for the socket to open', async () => {
    const link = makeLink();
    const pending = link.invoke('categories', {});
    await vi.advanceTimersByTimeAsync(100);
    expect(last().sent).toHaveLength(0);
    last().open();
    await vi.advanceTimersByTimeAsync(0);
    expect(last().sent).toHaveLength(1);
    last().deliver({ t: 'result', id: last().sent[0]!.id, result: { ok: true, value: 'ok' } });
    await expect(pending).resolves.toEqual({ ok: true, value: 'ok' });
  });

  it('a call made while connecting fails as NETWORK (nothing sent) when the socket never opens in time', async () => {
    const link = makeLink({ connectWaitMs: 1000 });
    const pending = link.invoke('categories', {});
    await vi.advanceTimersByTimeAsync(1000);
    await expect(pending).resolves.toMatchObject({ ok: false, error: { code: 'NETWORK', retryable: true } });
    expect(last().sent).toHaveLength(0);
  });

  it('calls in flight resolve to NETWORK errors when the socket drops; a registration is UNKNOWN_OUTCOME, never safe to resend', async () => {
    const link = makeLink();
    last().open();
    const list = link.invoke('listAssets', {});
    const register = link.invoke('registerPurchase', {});
    await vi.advanceTimersByTimeAsync(0);
    expect(last().sent).toHaveLength(2);
    last().drop();
    await expect(list).resolves.toMatchObject({ ok: false, error: { code: 'NETWORK', retryable: true } });
    const failed = await register;
    expect(failed).toMatchObject({ ok: false, error: { code: 'UNKNOWN_OUTCOME', retryable: false } });
    expect(failed.ok ? '' : failed.error.hint).toMatch(/before registering again/);
  });

  it('a server error message for a call resolves it as INTERNAL; unreadable messages are ignored', async () => {
    const link = makeLink();
    last().open();
    const pending = link.invoke('listAssets', {});
    await vi.advanceTimersByTimeAsync(0);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    last().deliver('{not json');
    last().deliver({ t: 'error', id: null, message: 'unreadable' });
    last().deliver({ t: 'error', id: last().sent[0]!.id, message: 'bad call' });
    await expect(pending).resolves.toMatchObject({ ok: false, error: { code: 'INTERNAL', message: 'bad call' } });
  });

  it('delivers events to every listener, survives a throwing one, and stops after unsubscribe', () => {
    const link = makeLink();
    last().open();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const seen: unknown[] = [];
    link.on('budget', () => {
      throw new Error('listener bug');
    });
    const off = link.on('budget', (p) => seen.push(p));
    last().deliver({ t: 'event', name: 'budget', payload: { n: 1 } });
    off();
    last().deliver({ t: 'event', name: 'budget', payload: { n: 2 } });
    expect(seen).toEqual([{ n: 1 }]);
  });
});

describe('WebSocketLink reconnecting', () => {
  it('reconnects a socket that was open and dropped, with backoff that grows and resets once open', async () => {
    const link = makeLink();
    last().open();
    const statuses: string[] = [];
    link.subscribe(() => statuses.push(link.get().state));
    last().drop();
    expect(link.get()).toMatchObject({ state: 'offline', refused: false });
    expect(retryDelay(link)).toBe(BACKOFF_BASE_MS);
    await vi.advanceTimersByTimeAsync(BACKOFF_BASE_MS);
    expect(sockets).toHaveLength(2);
    expect(link.get().state).toBe('connecting');
    last().drop(); // the restart is not up yet
    expect(retryDelay(link)).toBe(BACKOFF_BASE_MS * 2);
    await vi.advanceTimersByTimeAsync(BACKOFF_BASE_MS * 2);
    last().open();
    expect(link.get().state).toBe('open');
    expect(statuses).toEqual(['offline', 'connecting', 'offline', 'connecting', 'open']);
    last().drop();
    expect(retryDelay(link)).toBe(BACKOFF_BASE_MS);
  });

  it('while the server is down, keeps retrying with a delay capped at BACKOFF_CAP_MS', async () => {
    const serverAnswers = vi.fn(() => Promise.resolve(false));
    const link = makeLink({ serverAnswers });
    const delays: number[] = [];
    for (let i = 0; i < 12; i++) {
      last().drop();
      await vi.advanceTimersByTimeAsync(0); // lets the server check settle
      expect(link.get()).toMatchObject({ state: 'offline', refused: false });
      delays.push(retryDelay(link));
      await vi.advanceTimersByTimeAsync(delays[delays.length - 1]!);
    }
    expect(sockets).toHaveLength(13);
    expect(delays.slice(0, 4)).toEqual([500, 1000, 2000, 4000]);
    expect(Math.max(...delays)).toBe(BACKOFF_CAP_MS);
    expect(delays.every((d, i) => i === 0 || d >= delays[i - 1]!)).toBe(true);
    expect(serverAnswers).toHaveBeenCalled();
  });

  it('stops retrying and says the secret is no longer valid after a few refusals while the server answers HTTP', async () => {
    const link = makeLink({ serverAnswers: () => Promise.resolve(true) });
    for (let i = 0; i < REFUSALS_BEFORE_CHECK; i++) {
      expect(link.get().refused).toBe(false);
      last().drop(); // the upgrade got 401: closed without ever opening
      await vi.advanceTimersByTimeAsync(BACKOFF_CAP_MS);
    }
    expect(sockets).toHaveLength(REFUSALS_BEFORE_CHECK);
    expect(link.get()).toEqual({ state: 'offline', retryAt: null, problem: SECRET_REFUSED_PROBLEM, refused: true });
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(sockets).toHaveLength(REFUSALS_BEFORE_CHECK);

    const call = await link.invoke('listAssets', {});
    expect(call).toMatchObject({ ok: false, error: { code: 'NETWORK', hint: SECRET_REFUSED_PROBLEM } });
  });

  it('retryNow after a refusal tries once more (and a socket that opens clears the state)', async () => {
    const link = makeLink({ serverAnswers: () => Promise.resolve(true) });
    for (let i = 0; i < REFUSALS_BEFORE_CHECK; i++) {
      last().drop();
      await vi.advanceTimersByTimeAsync(BACKOFF_CAP_MS);
    }
    expect(link.get().refused).toBe(true);
    link.retryNow();
    expect(sockets).toHaveLength(REFUSALS_BEFORE_CHECK + 1);
    expect(link.get()).toMatchObject({ state: 'connecting', refused: false });
    last().drop();
    await vi.advanceTimersByTimeAsync(0);
    expect(link.get().refused).toBe(true);
    link.retryNow();
    last().open();
    expect(link.get()).toEqual({ state: 'open', retryAt: null, problem: null, refused: false });
  });

  it('a drop of an open socket is not a refusal: it takes refusals in a row, counted from the last open', async () => {
    const link = makeLink({ serverAnswers: () => Promise.resolve(true) });
    last().drop();
    await vi.advanceTimersByTimeAsync(BACKOFF_CAP_MS);
    last().drop();
    await vi.advanceTimersByTimeAsync(BACKOFF_CAP_MS);
    last().open(); // two refusals, then it opened: the count starts again
    last().drop();
    for (let i = 0; i < REFUSALS_BEFORE_CHECK - 1; i++) {
      await vi.advanceTimersByTimeAsync(BACKOFF_CAP_MS);
      last().drop();
    }
    await vi.advanceTimersByTimeAsync(0);
    expect(link.get()).toMatchObject({ state: 'offline', refused: false });
    expect(link.get().retryAt).not.toBeNull();
  });

  it('ignores a server check that answers after the user already retried', async () => {
    let answer: (up: boolean) => void = () => undefined;
    const link = makeLink({ serverAnswers: () => new Promise<boolean>((resolve) => (answer = resolve)) });
    for (let i = 0; i < REFUSALS_BEFORE_CHECK; i++) {
      last().drop();
      await vi.advanceTimersByTimeAsync(BACKOFF_CAP_MS);
    }
    expect(link.get()).toMatchObject({ state: 'offline', retryAt: null, refused: false });
    link.retryNow();
    answer(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(link.get()).toMatchObject({ state: 'connecting', refused: false });
  });

  it('a failing server check counts as "server down": keep retrying', async () => {
    const link = makeLink({ serverAnswers: () => Promise.reject(new Error('fetch failed')) });
    for (let i = 0; i < REFUSALS_BEFORE_CHECK + 2; i++) {
      last().drop();
      await vi.advanceTimersByTimeAsync(BACKOFF_CAP_MS);
    }
    expect(sockets).toHaveLength(REFUSALS_BEFORE_CHECK + 3);
    expect(link.get().refused).toBe(false);
  });

  it('close stops reconnecting', async () => {
    const link = makeLink();
    last().open();
    link.close();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(sockets).toHaveLength(1);
  });
});
