/**
 * `npm run web`: browser mode. Builds the renderer if it is missing, serves it and the bridge on
 * loopback, prints the one URL (with this run's secret in the fragment) and opens it.
 */
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createShellLog, installCrashGuards } from '../shell/log';
import { WEB_USAGE, parseWebArgs, profilesFromArgs } from './args';
import { openInBrowser } from './open-browser';
import { isLoopbackHost } from './origins';
import { URL_LINE_PREFIX } from './protocol';
import { DEFAULT_RENDERER_DIR, REPO_ROOT, startWebServer } from './server';
import { parseServiceMap } from '../../shared/service-map/schema';
import type { ServiceMap } from '../../shared/service-map/schema';

const STOP_DEADLINE_MS = 5_000;

function ensureRendererBuilt(): boolean {
  if (existsSync(path.join(DEFAULT_RENDERER_DIR, 'index.html'))) return true;
  // Test harnesses that build first (npm test) set this: a missing build is then reported, not made.
  if (process.env.PARTNER_WEB_NO_BUILD === '1') {
    console.error(`The renderer is not built (${DEFAULT_RENDERER_DIR}) and PARTNER_WEB_NO_BUILD=1: serving the bridge only; run \`npm run build:renderer\`.`);
    return true;
  }
  console.error('The renderer is not built yet: running `npx vite build` (once)…');
  // Vite's output goes to stderr so that stdout carries only the URL line.
  const result = spawnSync('npx', ['vite', 'build'], { cwd: REPO_ROOT, stdio: ['ignore', 2, 2], shell: process.platform === 'win32' });
  if (result.status === 0 && existsSync(path.join(DEFAULT_RENDERER_DIR, 'index.html'))) return true;
  console.error(`Building the renderer failed${result.error ? ` (${result.error.message})` : ''}: run \`npm run build:renderer\` and read its errors.`);
  return false;
}

async function main(): Promise<number> {
  const parsed = parseWebArgs(process.argv.slice(2), process.env);
  if (!parsed.ok) {
    console.error(`${parsed.error}\n\n${WEB_USAGE}`);
    return 2;
  }
  const options = parsed.options;
  if (options.help) {
    console.log(WEB_USAGE);
    return 0;
  }
  const log = createShellLog('web');
  installCrashGuards(log);
  if (options.rendererDir === null && !ensureRendererBuilt()) return 1;
  if (options.rendererDir !== null && !existsSync(path.join(options.rendererDir, 'index.html'))) {
    console.error(`--renderer-dir ${options.rendererDir} holds no index.html.`);
    return 1;
  }
  if (!isLoopbackHost(options.host)) {
    console.error(
      `WARNING: binding to ${options.host} makes Partner Console reachable from other machines. The secret in the URL still guards the bridge, but the traffic is plain HTTP: use this only on a network you trust.`,
    );
  }
  let serviceMap: ServiceMap | undefined;
  if (options.serviceMapFile !== null) {
    let text: string;
    try {
      text = readFileSync(options.serviceMapFile, 'utf8');
    } catch (e) {
      console.error(`--service-map: cannot read ${options.serviceMapFile}: ${(e as NodeJS.ErrnoException).code ?? String(e)}.`);
      return 2;
    }
    const map = parseServiceMap(text);
    if (!map.ok) {
      console.error(`--service-map ${options.serviceMapFile} is not a valid service map: ${map.errors.join('; ')}.`);
      return 2;
    }
    serviceMap = map.map;
  }
  const server = await startWebServer({
    port: options.port,
    host: options.host,
    dataDir: options.dataDir ?? undefined,
    rendererDir: options.rendererDir ?? undefined,
    embeddedSimulator: options.embeddedSimulator,
    initialProfiles: profilesFromArgs(options).map((p) => (serviceMap ? { ...p, serviceMap } : p)),
    detectServiceMaps: options.detect,
    detectAtFirstContact: !options.noDetect,
    ...(options.budgetStore ? { budgetStore: options.budgetStore } : {}),
    log,
  });
  console.log(`${URL_LINE_PREFIX}${server.url}`);
  if (options.open) {
    const notOpened = openInBrowser(server.url, (message) => log(message));
    if (notOpened !== null) console.error(`Not opening a browser: ${notOpened}. Open the URL above yourself.`);
  }
  const stop = (signal: string) => {
    // A stop that hangs (a socket that will not close) ends the process anyway; a second signal
    // finds no listener left and ends it at once.
    console.error(`${signal}: stopping…`);
    setTimeout(() => {
      console.error('Stopping took over 5 s: exiting.');
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    server.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  return -1; // keep running
}

main().then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    console.error(`Partner Console (browser mode) could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
