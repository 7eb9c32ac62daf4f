/**
 * Starts browser mode once for the web specs (tests/e2e/browser-mode.ts) and hands its URL (with
 * the secret) to the specs: on the built-in demo, or on a real staging service for
 * `npm run test:e2e:real` (tests/e2e/real-service.ts).
 */
import type { FullConfig } from '@playwright/test';
import { startBrowserMode } from './browser-mode';
import { e2eTarget } from './real-service';

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const target = e2eTarget(process.env);
  if (target.kind === 'refused') throw new Error(target.error);
  const webProject = config.projects.some((p) => p.name === 'web');
  if (!webProject || process.env.PARTNER_WEB_URL) return async () => {};
  if (target.kind === 'real') Object.assign(process.env, target.childEnv);
  const server = await startBrowserMode(target.kind === 'real' ? target.args : []);
  process.env.PARTNER_WEB_URL = server.url;
  return server.stop;
}
