/**
 * A hand-written service on loopback (node:http, https or net) and a client of vendor `v` on it, for the
 * transport tests that need answers no simulator gives: the server listens on a free port before each test,
 * the client is made afresh with the test's options, and both are closed after it.
 */
import type { AddressInfo, Server } from 'node:net';
import { afterEach, beforeEach } from 'vitest';
import { BudgetRegistry, PartnerClient } from '../../electron/client';
import type { ClientOptions } from '../../electron/client';

/** Quick retries, so the six tries of a failure retried would show within a test's time. */
export const QUICK_RETRIES: ClientOptions['retry'] = { baseMs: 1, capMs: 2 };

export interface LoopbackService {
  /** The client of the current test (made in beforeEach). */
  readonly client: PartnerClient;
  /** The server's base URL. */
  readonly url: string;
}

/** Registers the hooks; `options` are the client's besides its base URL, vendor, token and registry. */
export function loopbackService(server: Server, scheme: 'http' | 'https', options: () => Partial<ClientOptions> = () => ({})): LoopbackService {
  let client: PartnerClient | null = null;
  let url = '';
  beforeEach(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    url = `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = new PartnerClient({ baseUrl: url, vendor: 'v', tokens: ['tok-123456'], budgets: new BudgetRegistry(), ...options() });
  });
  afterEach(async () => {
    client?.close();
    (server as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
    await new Promise<void>((r) => server.close(() => r()));
  });
  return {
    get client() {
      if (!client) throw new Error('the loopback client exists only inside a test');
      return client;
    },
    get url() {
      return url;
    },
  };
}
