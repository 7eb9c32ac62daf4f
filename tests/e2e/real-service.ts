/**
 * Which service the web specs run against: the built-in demo (default), or a real staging service
 * when PARTNER_E2E_REAL=1 (`npm run test:e2e:real`). Pure: reads an environment, answers what to
 * start and which specs to run, or why it refuses. Only `@real` specs (read-only user stories) run
 * against a real service; `@purchase` specs only with PARTNER_ALLOW_PURCHASES=1.
 */

export interface DemoTarget {
  kind: 'demo';
}

export interface RealTarget {
  kind: 'real';
  /** Arguments for browser mode (tests/e2e/browser-mode.ts): the base URL, no embedded simulator. */
  args: string[];
  /** The token goes to browser mode in its environment, not its command line (visible in the process list). */
  childEnv: { PARTNER_CONSOLE_TOKENS: string };
  grep: RegExp;
  /** null: purchase specs allowed. */
  grepInvert: RegExp | null;
}

export type E2eTarget = DemoTarget | RealTarget | { kind: 'refused'; error: string };

const REQUIRED = ['PARTNER_BASE_URL', 'PARTNER_VENDOR', 'PARTNER_TOKEN'] as const;

export function e2eTarget(env: Readonly<Record<string, string | undefined>>): E2eTarget {
  if (env.PARTNER_E2E_REAL !== '1') return { kind: 'demo' };
  const missing = REQUIRED.filter((name) => !env[name]?.trim());
  if (missing.length > 0) {
    return {
      kind: 'refused',
      error: `npm run test:e2e:real needs ${missing.join(', ')} in the environment (the staging service's base URL, the vendor and its token); nothing was run.`,
    };
  }
  const baseUrl = env.PARTNER_BASE_URL!.trim();
  let url: URL | null = null;
  try {
    url = new URL(baseUrl);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    return { kind: 'refused', error: `PARTNER_BASE_URL is not an http(s) URL: ${baseUrl}; nothing was run.` };
  }
  const vendor = env.PARTNER_VENDOR!.trim();
  if (vendor.includes(':') || vendor.includes(',')) return { kind: 'refused', error: 'PARTNER_VENDOR may not contain ":" or ","; nothing was run.' };
  const purchases = env.PARTNER_ALLOW_PURCHASES === '1';
  return {
    kind: 'real',
    args: ['--base-url', baseUrl, '--no-simulator'],
    childEnv: { PARTNER_CONSOLE_TOKENS: `${vendor}:${env.PARTNER_TOKEN!.trim()}` },
    grep: purchases ? /@real|@purchase/ : /@real/,
    grepInvert: purchases ? null : /@purchase/,
  };
}
