/**
 * What a Partner service base URL may be, in one place for the profile form, the stored profiles
 * and the catalog CLI: http(s), no credentials in it (they would be shown and logged; tokens have
 * their own place), and never a link-local or cloud-metadata address (169.254.0.0/16, fe80::/10,
 * the IPv4-mapped forms, fd00:ec2::254, metadata.google.internal), which only an attacker points at.
 * And its one spelling (normalizeBaseUrl), which every budget, profile and download is keyed by.
 */
import { PartnerError } from './errors';

const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'fd00:ec2::254']);

/** 169.254.x.y as IPv4, or as the last 32 bits of an IPv4-mapped/compatible IPv6 address. */
function isLinkLocalV4(host: string): boolean {
  if (/^169\.254\.\d+\.\d+$/.test(host)) return true;
  const mapped = /^::(?:ffff:)?(?:0:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped) return parseInt(mapped[1]!, 16) >> 8 === 169 && (parseInt(mapped[1]!, 16) & 0xff) === 254;
  const dotted = /^::(?:ffff:)?(?:0:)?(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  return dotted !== null && dotted[1]!.startsWith('169.254.');
}

/** fe80::/10: the first 10 bits are 1111 1110 10. */
function isLinkLocalV6(host: string): boolean {
  return /^fe[89ab][0-9a-f]?:/.test(host);
}

/** Why the base URL cannot be used, in words without the credentials it may hold; null when it is fine. */
export function baseUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must start with http:// or https://';
  if (url.username !== '' || url.password !== '') {
    return 'must not carry a user name or password (user:password@); the vendor token goes in the token field';
  }
  // The URL parser has already turned 2852039166, 0xa9fea9fe and [::ffff:169.254.169.254] into canonical forms.
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  if (isLinkLocalV4(host) || isLinkLocalV6(host)) return `points at a link-local address (${host}), where cloud metadata services live; refused`;
  if (METADATA_HOSTS.has(host)) return `points at a cloud metadata service (${host}); refused`;
  return null;
}

/** The text with any `scheme://user:password@` credentials replaced, for messages and logs. */
export function hideUrlCredentials(text: string): string {
  // A password in a query (`?password=`, which ioredis honours) is one too.
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@"'<>]*@/gi, '$1***@').replace(/([?&](?:password|pass)=)[^&#\s"'<>]*/gi, '$1***');
}

/**
 * One spelling per base URL (the only one: the client's budgets, profiles and the catalog download use
 * it): no trailing slash, no query or fragment, lower-case scheme and host, default port dropped.
 * Throws PartnerError BAD_REQUEST for text that is not an http(s) URL.
 */
export function normalizeBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    url = new URL('invalid:');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PartnerError({
      code: 'BAD_REQUEST',
      message: `The base URL must be an http(s) URL, got ${JSON.stringify(String(baseUrl).slice(0, 100))}.`,
      retryable: false,
    });
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}
