/** The simulator CLI's flags, parsed into SimulatorOptions (pure, so that tests can call it). */
import { parseArgs } from 'node:util';
import { ENDPOINT_LIST, isEndpointId } from '../../shared/endpoints';
import type { EndpointId } from '../../shared/endpoints';
import { SIM_DIALECTS, isSimDialect } from '../../shared/sim-dialects';
import { checkRefill } from './core';
import { parseTokenSpec, parseTokensFile } from './tokens';
import type { CompetitorConfig, FaultConfig, SimulatorOptions, VendorToken } from './types';

export const DEFAULT_CLI_PORT = 8700;

export const USAGE = `Usage: npm run sim -- [flags]
  --port N                 port to listen on (default ${DEFAULT_CLI_PORT}; 0 picks a free one)
  --host H                 address to listen on (default 127.0.0.1)
  --refill MODEL           whole-second (default) or continuous
  --dialect NAME           payload dialect: ${SIM_DIALECTS.join(', ')} (default: default)
  --catalog-size N         number of assets, 0..10000000 (default 5000)
  --seed S                 integer seed of the generated catalog (default 42)
  --token VENDOR:TOKEN     a token of a vendor; repeat for more (replaces the demo tokens)
  --tokens-file FILE       one VENDOR:TOKEN per line, # comments (replaces the demo tokens)
  --latency MS             added latency per request
  --jitter MS              plus uniform random 0..MS
  --error-rate R           share 0..1 answered 500/503
  --drop-rate R            share 0..1 whose connection is dropped after the action ran
  --garble-rate R          share 0..1 with garbled X-Rate-Limit-* headers
  --idempotency            honour an Idempotency-Key header on registration (replay, 409 in flight)
  --compete VENDOR:ENDPOINT:RPS   another consumer of VENDOR's budget (ENDPOINT: id like
                           listAssets or a path like /assets/list); repeat for more
  --replay FILE.har        send the HAR's requests (the ten endpoints only) through the app's own
                           client, as the first demo vendor, at their recorded relative times;
                           print a summary per endpoint, then stop
  --help                   this text`;

export class CliError extends Error {}

function integer(flag: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = /^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new CliError(`--${flag} must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

function decimal(flag: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) throw new CliError(`--${flag} must be a number from ${min} to ${max}, got "${raw}"`);
  return n;
}

function endpointOf(raw: string): EndpointId {
  if (isEndpointId(raw)) return raw;
  const byPath = ENDPOINT_LIST.find((e) => e.path === raw);
  if (byPath) return byPath.id;
  throw new CliError(`unknown endpoint "${raw}" (use an id such as listAssets or a path such as /assets/list)`);
}

function competitorOf(spec: string): CompetitorConfig {
  const parts = spec.split(':');
  if (parts.length !== 3) throw new CliError(`--compete "${spec}" is not VENDOR:ENDPOINT:RPS`);
  const [vendor = '', endpoint = '', rps = ''] = parts;
  return { vendor, endpoint: endpointOf(endpoint), rps: decimal('compete RPS', rps, 0.001, 10_000) ?? 1 };
}

export type CliParse = { help: true } | { help: false; options: SimulatorOptions & { port: number; host: string }; replay?: string };

/** argv without node and script. Throws CliError with a message fit for the user. */
export function parseCliArgs(argv: readonly string[], readFile: (path: string) => string): CliParse {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        refill: { type: 'string' },
        dialect: { type: 'string' },
        'catalog-size': { type: 'string' },
        seed: { type: 'string' },
        token: { type: 'string', multiple: true },
        'tokens-file': { type: 'string' },
        latency: { type: 'string' },
        jitter: { type: 'string' },
        'error-rate': { type: 'string' },
        'drop-rate': { type: 'string' },
        'garble-rate': { type: 'string' },
        compete: { type: 'string', multiple: true },
        idempotency: { type: 'boolean' },
        replay: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  if (values.help) return { help: true };

  let tokens: VendorToken[] | undefined;
  try {
    if (values['tokens-file'] !== undefined) {
      const file = values['tokens-file'];
      let text: string;
      try {
        text = readFile(file);
      } catch (e) {
        throw new CliError(`cannot read --tokens-file ${file}: ${(e as Error).message}`);
      }
      tokens = parseTokensFile(text).concat();
      if (tokens.length === 0) throw new CliError(`--tokens-file ${file} holds no VENDOR:TOKEN line`);
    }
    if (values.token) tokens = [...(tokens ?? []), ...values.token.map(parseTokenSpec)];
  } catch (e) {
    throw e instanceof CliError ? e : new CliError((e as Error).message);
  }

  let refill;
  try {
    refill = values.refill === undefined ? undefined : checkRefill(values.refill);
  } catch (e) {
    throw new CliError(`--refill: ${(e as Error).message}`);
  }

  const dialect = values.dialect;
  if (dialect !== undefined && !isSimDialect(dialect)) throw new CliError(`--dialect must be one of ${SIM_DIALECTS.join(', ')}, got "${dialect}"`);

  const faults: Partial<FaultConfig> = {};
  const set = (k: keyof FaultConfig, v: number | undefined): void => {
    if (v !== undefined) faults[k] = v;
  };
  set('latencyMs', decimal('latency', values.latency, 0, 60_000));
  set('jitterMs', decimal('jitter', values.jitter, 0, 60_000));
  set('errorRate', decimal('error-rate', values['error-rate'], 0, 1));
  set('dropRate', decimal('drop-rate', values['drop-rate'], 0, 1));
  set('garbleRate', decimal('garble-rate', values['garble-rate'], 0, 1));

  const host = values.host ?? '127.0.0.1';
  if (host.trim() === '') throw new CliError('--host must not be empty');
  const catalogSize = integer('catalog-size', values['catalog-size'], 0, 10_000_000);
  const seed = integer('seed', values.seed, -2_147_483_648, 2_147_483_647);
  if (values.replay !== undefined && values.replay.trim() === '') throw new CliError('--replay needs a HAR file');
  return {
    help: false,
    ...(values.replay !== undefined ? { replay: values.replay } : {}),
    options: {
      port: integer('port', values.port, 0, 65535) ?? DEFAULT_CLI_PORT,
      host,
      ...(refill ? { refill } : {}),
      ...(dialect !== undefined ? { dialect } : {}),
      ...(catalogSize !== undefined ? { catalogSize } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(tokens ? { tokens } : {}),
      ...(values.idempotency ? { idempotencyKeys: true } : {}),
      faults,
      competitors: (values.compete ?? []).map(competitorOf),
    },
  };
}
