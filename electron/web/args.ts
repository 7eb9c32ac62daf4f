/**
 * The command line of `npm run web`. Pure: returns the options or a usage error, never exits.
 *
 *   npm run web -- [--port P] [--host H] [--no-open] [--data-dir DIR] [--renderer-dir DIR] [--no-simulator]
 *                  [--token VENDOR:TOKEN ...] [--base-url URL] [--service-map FILE | --detect | --no-detect]
 *
 * Tokens may also come from PARTNER_CONSOLE_TOKENS="vendor:token,vendor:token" (a command line is
 * visible to other users in the process list; the environment is not). All tokens given here form
 * one profile per vendor against --base-url, and stay in the server process.
 */
import { budgetStoreProblem } from '../../shared/budget-store-url';

export interface WebCliOptions {
  port: number;
  host: string;
  open: boolean;
  dataDir: string | null;
  /** A renderer build to serve instead of dist/renderer (no automatic build then). */
  rendererDir: string | null;
  embeddedSimulator: boolean;
  baseUrl: string | null;
  tokens: Array<{ vendor: string; token: string }>;
  /** A service map file for the profiles of --token (read by the caller; this parser stays pure). */
  serviceMapFile: string | null;
  /** Detect the service map of the profiles of --token at start (at most 3 requests each). */
  detect: boolean;
  /** Keep the built-in shapes: no detection at a profile's first connection (default: detected when no map is saved). */
  noDetect: boolean;
  /** --budget-store redis://host:port/db or machine: share each vendor's budget with other workers (Redis) or processes (machine). */
  budgetStore: string | null;
  help: boolean;
}

export type ParsedWebArgs = { ok: true; options: WebCliOptions } | { ok: false; error: string };

export const WEB_USAGE = `Usage: npm run web -- [options]

  --port P              port to listen on (default: any free port)
  --host H              address to bind (default 127.0.0.1; anything else exposes the app to your network)
  --no-open             print the URL but do not open a browser
  --data-dir DIR        where settings and profiles live (default: partner-console-web in your config folder)
  --renderer-dir DIR    serve this renderer build instead of dist/renderer (not built automatically)
  --no-simulator        do not start the embedded simulator when no profile is configured
  --token VENDOR:TOKEN  a vendor's API token (repeat for more tokens or vendors); needs --base-url
  --base-url URL        the Partner service's base URL for the tokens given
  --service-map FILE    how that service's answers are read: a service map JSON file (docs/service-map.example.json)
  --detect              detect that service's map at start (at most 3 requests), instead of a file;
                        without --service-map this happens anyway when the profile first connects
  --no-detect           no detection: read the service with the built-in shapes
  --budget-store URL    share each vendor's budget with other workers through Redis (redis://host:port/db),
                        or with this machine's other processes (machine)
  --help                this text

Tokens can also be given as PARTNER_CONSOLE_TOKENS="vendor:token,vendor:token".`;

function parseToken(text: string): { vendor: string; token: string } | null {
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1) return null;
  const vendor = text.slice(0, colon).trim();
  const token = text.slice(colon + 1).trim();
  return vendor && token ? { vendor, token } : null;
}

export function parseWebArgs(argv: readonly string[], env: NodeJS.ProcessEnv = {}): ParsedWebArgs {
  const options: WebCliOptions = {
    port: 0,
    host: '127.0.0.1',
    open: true,
    dataDir: null,
    rendererDir: null,
    embeddedSimulator: true,
    baseUrl: null,
    tokens: [],
    serviceMapFile: null,
    detect: false,
    noDetect: false,
    budgetStore: null,
    help: false,
  };
  const fail = (error: string): ParsedWebArgs => ({ ok: false, error });
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string | null => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) return null;
      i += 1;
      return next;
    };
    switch (flag) {
      case '--help':
      case '-h':
        options.help = true;
        break;
      case '--no-open':
        options.open = false;
        break;
      case '--no-simulator':
        options.embeddedSimulator = false;
        break;
      case '--port': {
        const text = value();
        // Decimal digits only: Number() reads '' as 0 (a random port), '0x50' as 80 and '8e3' as 8000.
        const port = text !== null && /^\d+$/.test(text) ? Number(text) : NaN;
        if (!Number.isInteger(port) || port < 0 || port > 65535) return fail(`--port needs a whole number from 0 to 65535 (got ${text ?? 'nothing'}).`);
        options.port = port;
        break;
      }
      case '--host': {
        const host = value();
        if (host === null || host.trim() === '') return fail('--host needs an address, e.g. --host 127.0.0.1.');
        options.host = host.trim();
        break;
      }
      case '--data-dir': {
        const dir = value();
        if (dir === null || dir.trim() === '') return fail('--data-dir needs a folder.');
        options.dataDir = dir;
        break;
      }
      case '--renderer-dir': {
        const dir = value();
        if (dir === null || dir.trim() === '') return fail('--renderer-dir needs a folder holding index.html.');
        options.rendererDir = dir;
        break;
      }
      case '--base-url': {
        const url = value();
        if (url === null) return fail('--base-url needs a URL, e.g. --base-url https://partner.example.com/api.');
        let parsed: URL;
        try {
          parsed = new URL(url);
        } catch {
          return fail(`--base-url is not a URL: ${url}`);
        }
        if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return fail(`--base-url must be http(s): ${url}`);
        options.baseUrl = url.replace(/\/+$/, '');
        break;
      }
      case '--service-map': {
        const file = value();
        if (file === null || file.trim() === '') return fail('--service-map needs a JSON file.');
        options.serviceMapFile = file;
        break;
      }
      case '--detect':
        options.detect = true;
        break;
      case '--no-detect':
        options.noDetect = true;
        break;
      case '--budget-store': {
        const url = value();
        const problem = url === null ? 'needs a URL' : budgetStoreProblem(url);
        if (problem) return fail(`--budget-store ${problem}, e.g. --budget-store redis://127.0.0.1:6379/0.`);
        options.budgetStore = url!.trim();
        break;
      }
      case '--token': {
        const text = value();
        const token = text === null ? null : parseToken(text);
        if (token === null) return fail('--token needs VENDOR:TOKEN, e.g. --token acme:abc123.');
        options.tokens.push(token);
        break;
      }
      default:
        return fail(`Unknown option ${arg}.`);
    }
  }
  for (const item of (env.PARTNER_CONSOLE_TOKENS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const token = parseToken(item);
    if (token === null) return fail('PARTNER_CONSOLE_TOKENS must be "vendor:token,vendor:token".');
    options.tokens.push(token);
  }
  if (options.tokens.length > 0 && options.baseUrl === null) return fail('Tokens need the service they belong to: add --base-url URL.');
  if (options.baseUrl !== null && options.tokens.length === 0) return fail('--base-url needs at least one --token VENDOR:TOKEN.');
  if ((options.serviceMapFile !== null || options.detect) && options.baseUrl === null)
    return fail('--service-map and --detect apply to the service of --base-url and --token.');
  if (options.serviceMapFile !== null && options.detect) return fail('Give either --service-map FILE or --detect, not both.');
  if (options.noDetect && options.detect) return fail('Give either --detect or --no-detect, not both.');
  return { ok: true, options };
}

/** One profile per vendor, with all of that vendor's tokens. */
export function profilesFromArgs(
  options: Pick<WebCliOptions, 'baseUrl' | 'tokens'>,
): Array<{ name: string; vendor: string; baseUrl: string; addTokens: string[] }> {
  if (options.baseUrl === null) return [];
  const byVendor = new Map<string, string[]>();
  for (const { vendor, token } of options.tokens) byVendor.set(vendor, [...(byVendor.get(vendor) ?? []), token]);
  return [...byVendor].map(([vendor, tokens]) => ({ name: vendor, vendor, baseUrl: options.baseUrl!, addTokens: [...new Set(tokens)] }));
}
