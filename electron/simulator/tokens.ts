/** Vendor tokens: the defaults, and parsing "VENDOR:TOKEN" specs and token files. */
import type { VendorToken } from './types';

export const DEFAULT_TOKENS: VendorToken[] = [
  { vendor: 'demo', token: 'demo-token-1' },
  { vendor: 'demo', token: 'demo-token-2' },
  { vendor: 'acme', token: 'acme-token-1' },
];

const VENDOR_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
// Visible ASCII without spaces: what fits in "Authorization: Bearer <token>" unchanged.
const TOKEN_PATTERN = /^[\x21-\x7e]{1,256}$/;

/** "VENDOR:TOKEN" (the token may itself contain ':'). Throws RangeError with a clear message. */
export function parseTokenSpec(spec: string): VendorToken {
  const at = spec.indexOf(':');
  if (at < 0) throw new RangeError(`token "${spec}" is not VENDOR:TOKEN`);
  const vendor = spec.slice(0, at).trim();
  const token = spec.slice(at + 1).trim();
  return checkToken({ vendor, token });
}

function checkToken(t: VendorToken): VendorToken {
  if (!VENDOR_PATTERN.test(t.vendor)) throw new RangeError(`vendor "${t.vendor}" must be 1-64 letters, digits, '.', '_' or '-'`);
  if (!TOKEN_PATTERN.test(t.token)) throw new RangeError(`token of vendor "${t.vendor}" must be 1-256 visible ASCII characters without spaces`);
  return t;
}

/** A tokens file: one VENDOR:TOKEN per line; blank lines and '#' comments (at line start or after a space) ignored. */
export function parseTokensFile(text: string): VendorToken[] {
  const out: VendorToken[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    // A comment starts a line or follows whitespace (tokens have no spaces, so '#' inside one is kept).
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (line === '') return;
    try {
      out.push(parseTokenSpec(line));
    } catch (e) {
      throw new RangeError(`line ${i + 1}: ${(e as Error).message}`);
    }
  });
  return out;
}

/** Checks every token, drops exact duplicates, refuses one token for two vendors and an empty list. */
export function normaliseTokens(tokens: readonly VendorToken[]): VendorToken[] {
  const owner = new Map<string, string>();
  const out: VendorToken[] = [];
  for (const t of tokens) {
    checkToken({ vendor: String(t?.vendor ?? ''), token: String(t?.token ?? '') });
    const previous = owner.get(t.token);
    if (previous === t.vendor) continue;
    if (previous !== undefined) throw new RangeError(`token "${t.token}" is given to both "${previous}" and "${t.vendor}"`);
    owner.set(t.token, t.vendor);
    out.push({ vendor: t.vendor, token: t.token });
  }
  if (out.length === 0) throw new RangeError('at least one VENDOR:TOKEN is needed');
  return out;
}
