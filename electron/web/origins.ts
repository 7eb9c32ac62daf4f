/**
 * Which Host headers and Origins browser mode answers to. Bound to loopback (the default) that is
 * 127.0.0.1 / localhost at our port; bound elsewhere (--host) the address given, or every local
 * address for a wildcard. Anything else is refused: a page on another origin (or a DNS-rebound name
 * pointing at 127.0.0.1) must not reach the bridge even before the secret is checked.
 */
import os from 'node:os';

export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '';
}

export function isLoopbackHost(host: string): boolean {
  const bare = unbracket(host).toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** host:port as it appears in a URL (IPv6 in brackets), lower case. */
export function hostPort(host: string, port: number): string {
  const bare = unbracket(host).toLowerCase();
  return `${bare.includes(':') ? `[${bare}]` : bare}:${port}`;
}

type Interfaces = ReturnType<typeof os.networkInterfaces>;

/** Every host:port this server may be reached as, lower case. */
export function allowedHostPorts(bindHost: string, port: number, interfaces: Interfaces = os.networkInterfaces(), hostname = os.hostname()): Set<string> {
  const names = new Set<string>();
  if (isWildcardHost(bindHost)) {
    names.add('127.0.0.1').add('localhost').add('::1').add(hostname);
    for (const list of Object.values(interfaces)) for (const info of list ?? []) names.add(info.address);
  } else {
    names.add(bindHost);
    if (isLoopbackHost(bindHost)) names.add('127.0.0.1').add('localhost');
    if (unbracket(bindHost) === '::1' || bindHost === 'localhost') names.add('::1');
  }
  const allowed = new Set<string>();
  for (const name of names) {
    allowed.add(hostPort(name, port));
    // A browser leaves the default port out of Host and Origin.
    if (port === 80) allowed.add(hostPort(name, port).replace(/:80$/, ''));
  }
  return allowed;
}

/** Is this Host header one of ours? */
export function hostIsAllowed(hostHeader: string | undefined, allowed: ReadonlySet<string>): boolean {
  return typeof hostHeader === 'string' && allowed.has(hostHeader.toLowerCase());
}

/** Is this Origin header our own http origin? A missing Origin is refused: browsers always send one. */
export function originIsAllowed(origin: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (typeof origin !== 'string') return false;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  return parsed.protocol === 'http:' && parsed.origin === origin.replace(/\/$/, '') && allowed.has(parsed.host.toLowerCase());
}

/** The host to print in the URL: the bound address, or 127.0.0.1 for a wildcard. */
export function printableHost(bindHost: string): string {
  if (isWildcardHost(bindHost)) return '127.0.0.1';
  const bare = unbracket(bindHost);
  return bare.includes(':') ? `[${bare}]` : bare;
}
