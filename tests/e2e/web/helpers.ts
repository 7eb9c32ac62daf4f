/**
 * Shared steps of the browser-mode specs: open the app from the URL browser mode printed, save a
 * screenshot, and call the bridge directly (as the page does) to put shared state back.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import type { Page } from '@playwright/test';
import WebSocket from 'ws';
import type { CallName, CallRequest, CallResponse, CallResult } from '../../../shared/bridge/contract';
import { SECRET_FRAGMENT_KEY, WEB_BRIDGE_PATH } from '../../../shared/bridge/websocket-protocol';

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '..', 'screenshots');

export function webUrl(): string {
  const url = process.env.PARTNER_WEB_URL;
  if (!url)
    throw new Error('PARTNER_WEB_URL is not set: run the specs through playwright.config.ts with `test` from ./fixtures (it starts browser mode per worker).');
  return url;
}

export type View = 'Budget' | 'Catalog' | 'Purchases' | 'Requests' | 'Settings';

/** The printed URL opened at a view: the route beside the secret in the fragment (the page keeps the route when it takes the secret out). */
export function urlAt(view: View, url: string = webUrl()): string {
  if (view === 'Budget') return url;
  const at = new URL(url);
  at.hash = `#/${view.toLowerCase()}&${at.hash.slice(1)}`;
  return at.toString();
}

/**
 * expect.poll's intervals for a state that comes after seconds (of traffic, of a view's ticks): its own
 * back off to one read a second, which lost up to a second per wait.
 */
export const STATE_POLL = [250];

/** The theme the app draws (its page background dark or light), not only the one the browser emulates. */
export async function drawnTheme(page: Page): Promise<'light' | 'dark'> {
  const rgb = await page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
  const [r = 0, g = 0, b = 0] = (rgb.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 128 ? 'dark' : 'light';
}

/**
 * Waits until the page is connected (a degraded connection still works). Asked every 50 ms: expect's own
 * retries come every 0.5 s after its first few, which lost a few hundred ms per page opened.
 */
export async function waitConnected(page: Page, timeout = 20_000): Promise<void> {
  const badge = page.getByRole('status', { name: /Connection: (Connected|Degraded)/ });
  await expect.poll(() => badge.isVisible(), { intervals: [50], timeout }).toBe(true);
  await expect(badge).toBeVisible();
}

/** Whether going to `url` only changes the fragment of the page's document (no load: the app stays as it is). */
function sameDocument(page: Page, url: string): boolean {
  const now = new URL(page.url());
  const next = new URL(url);
  return now.origin === next.origin && now.pathname === next.pathname && now.search === next.search;
}

/**
 * Opens the app as QA would (the printed URL; another browser-mode server's with `url`) at a view, as a
 * bookmark of it would (Budget, the landing view, is not drawn first), and waits until it is connected.
 * On a page that already shows the app, the URL only changes the fragment: the view is then chosen in the navigation.
 */
export async function openApp(page: Page, view: View = 'Budget', url: string = webUrl()): Promise<void> {
  const inPlace = sameDocument(page, url);
  await page.goto(inPlace ? url : urlAt(view, url));
  await waitConnected(page);
  if (inPlace && view !== 'Budget') await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: view, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: view })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: view, exact: true })).toHaveAttribute('aria-current', 'page');
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // A full-page shot of a scrolled page draws the sticky header mid-page.
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** One bridge call over a fresh WebSocket, with the page's own origin (the server checks it); `url`: another browser-mode server's. */
export async function bridgeCall<N extends CallName>(name: N, request: CallRequest<N>, url: string = webUrl()): Promise<CallResponse<N>> {
  const page = new URL(url);
  const secret = new URLSearchParams(page.hash.slice(1)).get(SECRET_FRAGMENT_KEY) ?? '';
  const socket = new WebSocket(`ws://${page.host}${WEB_BRIDGE_PATH}?${SECRET_FRAGMENT_KEY}=${encodeURIComponent(secret)}`, {
    headers: { Origin: page.origin },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const result = await new Promise<CallResult<unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name}: no answer in 15 s`)), 15_000);
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { t: string; id?: number; result?: CallResult<unknown>; message?: string };
        if (message.t === 'result' && message.id === 1) {
          clearTimeout(timer);
          resolve(message.result!);
        } else if (message.t === 'error' && message.id === 1) {
          clearTimeout(timer);
          reject(new Error(message.message));
        }
      });
      socket.send(JSON.stringify({ t: 'call', id: 1, name, request }));
    });
    if (!result.ok) throw new Error(`${name} failed: ${result.error.code} ${result.error.message}`);
    return result.value as CallResponse<N>;
  } finally {
    socket.close();
  }
}

/**
 * Demo traffic and the competing consumer off, and the client's queues drained, so that no spec
 * depends on (or is slowed by) another's leftovers.
 */
export async function quietSimulator(): Promise<void> {
  await bridgeCall('simSetDemoTraffic', { share: 0, endpoints: [] });
  await bridgeCall('simSetCompetitors', { competitors: [] });
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const { buckets } = await bridgeCall('budgetSnapshot', {});
    const now = Date.now();
    if (buckets.every((b) => b.queued === 0 && b.inFlight === 0 && (b.pausedUntil === null || b.pausedUntil < now))) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The number in a table cell like "12.5 / 20" or "1,234". */
export function numberIn(text: string | null): number {
  const match = /-?[\d,]+(\.\d+)?/.exec(text ?? '');
  return match ? Number(match[0].replace(/,/g, '')) : NaN;
}
