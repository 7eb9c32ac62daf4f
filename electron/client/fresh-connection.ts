/**
 * A request on a connection of its own (transport.ts: what is not safe to resend), routed as the
 * shell's own network stack would route it: through the system proxy for its URL, trusting the
 * certificates the system trusts. Without a route (browser mode, the CLI) it goes as Node's fetch
 * does: direct, Node's certificates.
 */
import tls from 'node:tls';
import { Agent, ProxyAgent, fetch as undiciFetch } from 'undici';
import type { Dispatcher } from 'undici';

/** Where the shell's stack would send a request, for a connection made beside it. */
export interface NetworkRoute {
  /** The proxy for this URL (http:// or https://host:port), or null: direct. */
  proxyFor(url: string): Promise<string | null>;
  /** Certificates to trust (PEM), replacing Node's own set; absent: Node's. */
  ca?: readonly string[] | undefined;
}

/**
 * The proxy a PAC result names ("PROXY host:port; DIRECT", as Electron's session.resolveProxy gives):
 * the first entry this connection can use. A SOCKS entry is passed over for the next one (direct in the
 * end): a network that needs it refuses the connection, which is a failure with nothing sent.
 */
export function proxyFromPac(pac: string): string | null {
  for (const entry of pac.split(';')) {
    const [kind, hostPort] = entry.trim().split(/\s+/);
    const scheme = kind?.toUpperCase();
    if (scheme === 'DIRECT') return null;
    if ((scheme === 'PROXY' || scheme === 'HTTPS') && hostPort) return `${scheme === 'HTTPS' ? 'https' : 'http'}://${hostPort}`;
  }
  return null;
}

/** Node's certificates and the system's (Node 22.15 and later; older ones: null, Node's alone). */
export function systemTrust(): string[] | null {
  const read = (tls as { getCACertificates?: (kind: 'default' | 'system') => string[] }).getCACertificates;
  if (!read) return null;
  try {
    return [...new Set([...read('default'), ...read('system')])];
  } catch {
    return null;
  }
}

/**
 * The route failed before anything was sent: the proxy could not be resolved, or it refused the tunnel
 * (407 asks for credentials this connection cannot give, 403 forbids the host). Its code is one the
 * client reads as "not connected" (http.ts), so a registration that met it is known not to have gone.
 */
export class RouteRefusedError extends Error {
  readonly code = 'ROUTE_REFUSED';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RouteRefusedError';
  }
}

/** undici's words when a proxy answers CONNECT with anything but 200. */
const TUNNEL_REFUSED = /Proxy response \((\d+)\) !== 200 when HTTP Tunneling/;

function tunnelRefusal(e: unknown, proxy: string): RouteRefusedError | null {
  for (let x: unknown = e, depth = 0; x instanceof Error && depth < 5; x = x.cause, depth++) {
    const status = TUNNEL_REFUSED.exec(x.message)?.[1];
    if (status) {
      const why = status === '407' ? ': it asks for credentials' : '';
      return new RouteRefusedError(`the proxy ${new URL(proxy).host} refused the connection (${status}${why})`, { cause: e });
    }
  }
  return null;
}

async function proxyOf(url: string, route: NetworkRoute | undefined): Promise<string | null> {
  if (!route) return null;
  try {
    return await route.proxyFor(url);
  } catch (e) {
    throw new RouteRefusedError(`the system proxy for this address could not be found (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
}

function dispatcherFor(url: string, proxy: string | null, ca: readonly string[] | undefined): Dispatcher {
  const trust = ca ? { ca: [...ca] } : undefined;
  const one = { pipelining: 0, connections: 1 };
  if (proxy === null) return new Agent({ ...one, ...(trust ? { connect: trust } : {}) });
  // Through the proxy on a connection of its own, closed after the answer: never resent. https is tunnelled
  // (CONNECT); http goes in absolute form, as Chromium sends it (proxies commonly refuse CONNECT to port 80).
  const tunnel = new URL(url).protocol === 'https:';
  return new ProxyAgent({ ...one, uri: proxy, proxyTunnel: tunnel, ...(trust ? { requestTls: trust, proxyTls: trust } : {}) });
}

/** One request on a connection of its own that asks the server to close it, and no pool to resend on. */
export async function fetchOnFreshConnection(url: string, init: RequestInit | undefined, route?: NetworkRoute): Promise<Response> {
  const proxy = await proxyOf(url, route);
  const agent = dispatcherFor(url, proxy, route?.ca);
  try {
    const res = await undiciFetch(url, { ...(init as object), dispatcher: agent } as Parameters<typeof undiciFetch>[1]);
    // close() lets the body finish, then frees the socket.
    void agent.close().catch(() => undefined);
    return res as unknown as Response;
  } catch (e) {
    void agent.destroy().catch(() => undefined);
    throw (proxy !== null && tunnelRefusal(e, proxy)) || e;
  }
}
