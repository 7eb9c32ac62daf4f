/**
 * The budget store's address (issue 10 §2): redis://host:port/db, or rediss:// for TLS, or `machine` for
 * the store every process of this user on this machine shares (a file; issue 23). Checked the
 * same way by the CLI, browser mode, the profile schema and the profile form; shown masked, since
 * the URL may carry a password (redis://:secret@host).
 */
import { z } from 'zod';
import { baseUrlProblem } from './base-url';

/**
 * ioredis takes every query option of the URL as a connection option: `?path=` (a Unix socket) or
 * `?host=` would skip the host check, `?password=` would be kept in plain where a userinfo password
 * is sealed. Only these harmless ones are accepted.
 */
export const STORE_QUERY_OPTIONS: Readonly<Record<string, RegExp>> = Object.freeze({
  family: /^(0|4|6)$/,
  connectionName: /^[\w.:-]{1,64}$/,
});
const QUERY_CREDENTIALS = new Set(['password', 'username', 'user', 'pass']);

/** What is wrong with the URL's query, or null. Names the option, never its value (it may be a password). */
function queryProblem(query: URLSearchParams): string | null {
  for (const [key, value] of query) {
    if (QUERY_CREDENTIALS.has(key.toLowerCase())) {
      return `carries a ${key.toLowerCase()} in its query: write credentials before the host (redis://user:password@host:6379/0), where they are stored sealed`;
    }
    const allowed = Object.prototype.hasOwnProperty.call(STORE_QUERY_OPTIONS, key) ? STORE_QUERY_OPTIONS[key] : undefined;
    if (allowed === undefined) return `has a query option "${key.slice(0, 20)}" that is not accepted (only ${Object.keys(STORE_QUERY_OPTIONS).join(', ')})`;
    if (!allowed.test(value)) return `has a query option ${key} whose value is not accepted`;
  }
  return null;
}

/** The word that names the machine store where a URL may stand. */
export const MACHINE_STORE = 'machine';

/** Whether the store named is the machine store (any case, spaces around it). */
export function isMachineStore(url: string): boolean {
  return url.trim().toLowerCase() === MACHINE_STORE;
}

/** What is wrong with a budget store URL, or null when it is fine. Never repeats the URL (it may hold a password). */
export function budgetStoreProblem(url: string): string | null {
  if (isMachineStore(url)) return null;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return `must be a redis://host:port/db URL or "${MACHINE_STORE}"`;
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') return `must be a redis://host:port/db URL or "${MACHINE_STORE}", not ${parsed.protocol}`;
  if (parsed.hostname === '') return 'needs a host';
  // The base URL's rule for hosts: never a link-local or cloud-metadata address (only an attacker points there).
  const hostProblem = baseUrlProblem(`http://${parsed.host}/`);
  if (hostProblem) return hostProblem;
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d{1,2}$/.test(db)) return `has a database "${db.slice(0, 20)}" that is not a number`;
  return queryProblem(parsed.searchParams);
}

/** The URL as views and logs show it: any user name or password replaced by *** (as hideUrlCredentials does in free text), default port spelt out. */
export function maskStoreUrl(url: string): string {
  if (isMachineStore(url)) return MACHINE_STORE;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return '(not a URL)';
  }
  const credentials = parsed.username !== '' || parsed.password !== '' ? '***@' : '';
  const db = parsed.pathname === '/' ? '' : parsed.pathname;
  return `${parsed.protocol}//${credentials}${parsed.hostname}:${parsed.port || '6379'}${db}`;
}

/**
 * The profile's budget store as saveProfile takes it: absent keeps the stored one, '' removes it
 * (headers only), the masked form the view showed keeps it too (the password never came back).
 */
export const budgetStoreInputSchema = z
  .string()
  .trim()
  .max(500)
  .superRefine((url, ctx) => {
    const problem = url === '' ? null : budgetStoreProblem(url);
    if (problem) ctx.addIssue({ code: 'custom', message: `The budget store ${problem}, e.g. redis://redis.internal:6379/0.` });
  });
