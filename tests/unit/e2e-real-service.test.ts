/** The e2e global setup picks a real staging service from the environment only when asked, refuses without its variables, and keeps purchases out unless allowed. */
import { describe, expect, it } from 'vitest';
import { e2eTarget } from '../e2e/real-service';

const REAL = { PARTNER_E2E_REAL: '1', PARTNER_BASE_URL: 'https://staging.example.com/api', PARTNER_VENDOR: 'acme', PARTNER_TOKEN: 'tok-123' };

describe('e2eTarget', () => {
  it('runs on the built-in demo unless real mode is asked for, whatever else is set', () => {
    expect(e2eTarget({})).toEqual({ kind: 'demo' });
    expect(e2eTarget({ ...REAL, PARTNER_E2E_REAL: undefined })).toEqual({ kind: 'demo' });
  });

  it('starts browser mode on the base URL without the simulator, the token in the environment, only @real specs', () => {
    const target = e2eTarget(REAL);
    expect(target).toEqual({
      kind: 'real',
      args: ['--base-url', 'https://staging.example.com/api', '--no-simulator'],
      childEnv: { PARTNER_CONSOLE_TOKENS: 'acme:tok-123' },
      grep: /@real/,
      grepInvert: /@purchase/,
    });
    if (target.kind !== 'real') throw new Error('not real');
    expect(target.args.join(' ')).not.toContain('tok-123');
    expect(target.grep.test('vendor staff browse the catalog page by page @real')).toBe(true);
    expect(target.grepInvert!.test('vendor staff register a purchase @purchase')).toBe(true);
  });

  it('lets purchase specs run only with PARTNER_ALLOW_PURCHASES=1', () => {
    expect(e2eTarget({ ...REAL, PARTNER_ALLOW_PURCHASES: 'yes' })).toMatchObject({ grepInvert: /@purchase/ });
    expect(e2eTarget({ ...REAL, PARTNER_ALLOW_PURCHASES: '1' })).toMatchObject({ grep: /@real|@purchase/, grepInvert: null });
  });

  it('refuses, naming what is missing or wrong, and runs nothing', () => {
    const refused = e2eTarget({ PARTNER_E2E_REAL: '1', PARTNER_VENDOR: 'acme', PARTNER_TOKEN: ' ' });
    expect(refused).toEqual({ kind: 'refused', error: expect.stringContaining('PARTNER_BASE_URL, PARTNER_TOKEN') });
    expect(e2eTarget({ ...REAL, PARTNER_BASE_URL: 'ftp://x' })).toMatchObject({ kind: 'refused', error: expect.stringContaining('not an http(s) URL') });
    expect(e2eTarget({ ...REAL, PARTNER_VENDOR: 'a:b' })).toMatchObject({ kind: 'refused' });
  });
});
