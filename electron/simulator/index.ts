/**
 * The Partner Catalog and Purchase Service, simulated on plain node:http: all ten endpoints, both
 * refill models, every header, the exact error bodies, a seeded catalog, per-vendor purchases,
 * faults, competing consumers and a control API. Embeddable (port 0) and run by cli.ts.
 */
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import { createControlHandler } from './control-api';
import { createCore } from './core';
import { createPartnerHandler } from './partner-api';
import type { RunningSimulator, SimulatorOptions } from './types';

export type {
  CompetitorConfig,
  Counter,
  FaultConfig,
  RefillModel,
  RunningSimulator,
  SimulatorControl,
  SimulatorOptions,
  SimulatorState,
  VendorSummary,
  VendorToken,
} from './types';
export { DEFAULT_TOKENS, parseTokenSpec, parseTokensFile } from './tokens';
export { DEFAULT_CATALOG_SIZE, DEFAULT_SEED } from './core';
export { REFILL_MODELS } from './budget';
export { RATE_LIMITED_BODY } from './partner-api';
export { DIALECTS } from './dialects';
export { SIM_DIALECTS } from '../../shared/sim-dialects';
export type { SimDialect } from '../../shared/sim-dialects';
export { SEARCH_TOTAL_CAP, MAX_CATALOG_SIZE } from './asset-catalog';

/** The base URL clients use: a wildcard listen address is reached over loopback. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** Starts a simulator; rejects with a clear error on bad options or a port in use. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const port = options.port ?? 0;
  const host = options.host ?? '127.0.0.1';
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`port must be an integer from 0 to 65535, got ${port}`);
  if (typeof host !== 'string' || host.trim() === '') throw new RangeError('host must be a non-empty string');
  const core = createCore(options);
  const partner = createPartnerHandler(core);
  const control = createControlHandler(core.control, core.clock);

  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (path === '/_sim' || path.startsWith('/_sim/')) control(req, res, path);
    else partner(req, res, path, q < 0 ? '' : url.slice(q + 1));
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (e: Error): void => {
      core.stopTimers();
      reject(new Error(`simulator could not listen on ${host}:${port}: ${e.message}`));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  // A socket error after listening (a client resetting) must never crash the process.
  server.on('error', () => {});
  core.startCompetitors();

  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  let stopping: Promise<void> | null = null;

  return {
    url: `http://${urlHost(host)}:${actualPort}`,
    port: actualPort,
    tokens: core.tokens.map((t) => ({ ...t })),
    control: core.control,
    stop(): Promise<void> {
      stopping ??= new Promise<void>((resolve) => {
        core.stopTimers();
        server.close(() => resolve());
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
      });
      return stopping;
    },
  };
}
