/**
 * Starts browser mode once for the web specs (tests/e2e/browser-mode.ts) and hands its URL (with
 * the secret) to the specs.
 */
import type { FullConfig } from '@playwright/test';
import { startBrowserMode } from './browser-mode';

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const webProject = config.projects.some((p) => p.name === 'web');
  if (!webProject || process.env.PARTNER_WEB_URL) return async () => {};
  const server = await startBrowserMode();
  process.env.PARTNER_WEB_URL = server.url;
  return server.stop;
}
