/** The app's services on one profile of the demo vendor at a given service, connected: shared by the app integration tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';
import { callApp, until } from './app-calls';

export interface ConnectedApp {
  app: AppServices;
  /** The app's data folder (its store file lives there). */
  dir: string;
  /** Disposes of the app and removes its data folder. */
  dispose(): Promise<void>;
}

/** App services (web shell, tokens in memory) whose one profile, `name`, is vendor demo at `baseUrl`; resolves once connected. */
export async function connectedApp(baseUrl: string, name = 'Sim'): Promise<ConnectedApp> {
  const dir = mkdtempSync(join(tmpdir(), 'connected-app-'));
  const app = await createAppServices({
    shell: 'web',
    dataDir: dir,
    vault: memoryVault(),
    version: '0.0.0-test',
    embeddedSimulator: false,
    initialProfiles: [{ name, vendor: 'demo', baseUrl, addTokens: ['demo-token-1'] }],
    log: () => undefined,
  });
  const dispose = async (): Promise<void> => {
    await app.dispose();
    rmSync(dir, { recursive: true, force: true });
  };
  await until(async () => (await callApp(app, 'connection', {})).state === 'connected');
  return { app, dir, dispose };
}
