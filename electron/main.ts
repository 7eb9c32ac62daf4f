/**
 * The desktop app's entry (bundled by scripts/build-main.mjs to dist/main/main.cjs). Everything it
 * does lives in shell/desktop.ts, which runs in unit tests against a fake `electron`.
 */
import { app } from 'electron';
import { createAppServices } from './app';
import { startDesktop } from './shell/desktop';

/** Injected by scripts/build-main.mjs from package.json; app.getVersion() is Electron's own when launched on a bare main.cjs. */
declare const __APP_VERSION__: string | undefined;

const version = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : app.getVersion();

startDesktop({ createServices: createAppServices, mainDir: __dirname, version }).catch((error: unknown) => {
  console.error('[desktop] start-up failed', error);
  app.exit(1);
});
