/**
 * Browser mode: the same services and the same renderer build as the desktop app, served over
 * HTTP + a WebSocket on loopback for a browser (QA, Playwright, machines without Electron).
 *
 * One port serves both: GET for the built renderer (with the desktop's CSP, plus connect-src for
 * our own ws://), and an upgrade on /bridge for the bridge, accepted only with this run's secret
 * and our own Origin. See protocol.ts for the contract with the page.
 */
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';
import type { Duplex } from 'node:stream';
import type { AppEnvironment, AppServices } from '../app';
import { memoryVault } from '../app/token-vault';
import { lockDataDir } from '../catalog/file-lock';
import { HARDENING_HEADERS, contentSecurityPolicy } from '../shell/csp';
import { createShellLog } from '../shell/log';
import type { ShellLog } from '../shell/log';
import { readStaticFile } from '../shell/static-files';
import { defaultWebDataDir } from './data-dir';
import { allowedHostPorts, hostIsAllowed, hostPort, originIsAllowed, printableHost } from './origins';
import { MAX_CLIENT_MESSAGE_BYTES, SECRET_FRAGMENT_KEY, SECRET_QUERY_KEY, WEB_BRIDGE_PATH } from './protocol';
import { createSecret, secretMatches } from './secret';
import { createWsBridge } from './ws-bridge';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DEFAULT_RENDERER_DIR = path.join(REPO_ROOT, 'dist', 'renderer');

export interface WebServerOptions {
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Default 127.0.0.1. Anything but loopback exposes the app to the network: the CLI warns. */
  host?: string;
  /** The built renderer; default dist/renderer of this checkout. */
  rendererDir?: string;
  /** Services to serve (the caller keeps ownership); default: made here and disposed by stop(). */
  services?: AppServices;
  /** For services made here: where settings and profiles live (default under the user's config dir). */
  dataDir?: string;
  /** For services made here: profiles from flags; their tokens stay in this process (memory vault). */
  initialProfiles?: AppEnvironment['initialProfiles'];
  /** Detect the flag profiles' service maps at start. */
  detectServiceMaps?: boolean;
  /** False (--no-detect): profiles without a saved map keep the built-in shapes. */
  detectAtFirstContact?: boolean;
  /** --budget-store redis://host:port/db (see AppEnvironment.budgetStore). */
  budgetStore?: string;
  /** For services made here: start the simulator when no profile is configured (default true). */
  embeddedSimulator?: boolean;
  log?: ShellLog;
}

export interface RunningWebServer {
  /** The one URL to open: http://HOST:PORT/#secret=… */
  url: string;
  /** http://HOST:PORT, the Origin the bridge accepts. */
  origin: string;
  secret: string;
  port: number;
  host: string;
  /** ws://HOST:PORT/bridge (add ?secret=…). */
  bridgeUrl: string;
  services: AppServices;
  /** Closes sockets, the server and (if made here) the services; idempotent. */
  stop(): Promise<void>;
}

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

function refuseUpgrade(socket: Duplex, status: 401 | 403 | 404 | 400, reason: string): void {
  const body = `${reason}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

export async function startWebServer(options: WebServerOptions = {}): Promise<RunningWebServer> {
  const log = options.log ?? createShellLog('web');
  const bindHost = options.host ?? '127.0.0.1';
  const rendererDir = options.rendererDir ?? DEFAULT_RENDERER_DIR;
  const ownsServices = options.services === undefined;
  const dataDir = options.dataDir ?? defaultWebDataDir();
  // Two servers on one data folder would overwrite each other's settings and downloads: the second is refused.
  const dataLock = ownsServices ? await lockDataDir(dataDir) : null;
  // Loaded only when needed: with injected services (tests) the whole service graph stays unloaded.
  let services: AppServices;
  try {
    services =
      options.services ??
      (await (
        await import('../app')
      ).createAppServices({
        shell: 'web',
        dataDir,
        vault: memoryVault(),
        initialProfiles: options.initialProfiles,
        ...(options.detectServiceMaps ? { detectServiceMaps: true } : {}),
        ...(options.detectAtFirstContact === false ? { detectAtFirstContact: false } : {}),
        embeddedSimulator: options.embeddedSimulator,
        ...(options.budgetStore ? { budgetStore: options.budgetStore } : {}),
        version: packageVersion(),
      }));
  } catch (error) {
    await dataLock?.release();
    throw error;
  }

  const secret = createSecret();
  const bridge = createWsBridge(services, log);
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE_BYTES });
  let allowed = new Set<string>();
  let port = 0;

  const server = http.createServer((request, response) => {
    handleHttp(request, response).catch((error: unknown) => {
      log('request failed', error);
      if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end('Internal error');
    });
  });

  async function handleHttp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const hostHeader = request.headers.host;
    if (!hostIsAllowed(hostHeader, allowed)) {
      response.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end('Unknown Host header.');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      response.end('Method not allowed.');
      return;
    }
    const pathname = new URL(request.url ?? '/', 'http://placeholder').pathname;
    const headers: Record<string, string> = {
      'Content-Security-Policy': contentSecurityPolicy({ connectSrc: [`ws://${hostHeader!.toLowerCase()}`] }),
      'Cache-Control': 'no-cache',
      ...HARDENING_HEADERS,
    };
    if (pathname === WEB_BRIDGE_PATH) {
      response.writeHead(426, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', Upgrade: 'websocket' });
      response.end('This is the WebSocket bridge.');
      return;
    }
    if ((pathname === '/' || pathname === '/index.html') && !existsSync(path.join(rendererDir, 'index.html'))) {
      response.writeHead(503, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
      response.end(`The renderer is not built (${path.join(rendererDir, 'index.html')} is missing): run \`npm run build:renderer\`.`);
      return;
    }
    const file = await readStaticFile(rendererDir, pathname);
    response.writeHead(file.status, { ...headers, 'Content-Type': file.contentType, 'Content-Length': String(file.body.length) });
    response.end(request.method === 'HEAD' ? undefined : file.body);
  }

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {});
    let url: URL;
    try {
      url = new URL(request.url ?? '/', 'http://placeholder');
    } catch {
      return refuseUpgrade(socket, 400, 'Bad request.');
    }
    if (url.pathname !== WEB_BRIDGE_PATH) return refuseUpgrade(socket, 404, 'Not found.');
    if (!hostIsAllowed(request.headers.host, allowed) || !originIsAllowed(request.headers.origin, allowed)) {
      // JSON.stringify: the header is the caller's text; no control characters reach the terminal.
      log(`refused a bridge connection from origin ${request.headers.origin === undefined ? '(none)' : JSON.stringify(request.headers.origin.slice(0, 200))}`);
      return refuseUpgrade(socket, 403, 'Origin not allowed.');
    }
    if (!secretMatches(secret, url.searchParams.get(SECRET_QUERY_KEY))) {
      log('refused a bridge connection with a missing or wrong secret');
      return refuseUpgrade(socket, 401, 'Missing or wrong secret: open the URL printed by `npm run web`.');
    }
    wss.handleUpgrade(request, socket, head, (ws) => bridge.accept(ws));
  });
  server.on('clientError', (_error, socket: Socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, bindHost, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    bridge.close();
    if (ownsServices) await services.dispose();
    await dataLock?.release();
    throw error;
  }
  port = (server.address() as AddressInfo).port;
  allowed = allowedHostPorts(bindHost, port);
  server.on('error', (error) => log('server error', error));

  const origin = `http://${hostPort(printableHost(bindHost), port)}`;
  let stopping: Promise<void> | null = null;
  return {
    url: `${origin}/#${SECRET_FRAGMENT_KEY}=${secret}`,
    origin,
    secret,
    port,
    host: bindHost,
    bridgeUrl: `ws://${hostPort(printableHost(bindHost), port)}${WEB_BRIDGE_PATH}`,
    services,
    stop() {
      stopping ??= (async () => {
        bridge.close();
        wss.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        if (ownsServices) await services.dispose();
        await dataLock?.release();
      })();
      return stopping;
    },
  };
}
