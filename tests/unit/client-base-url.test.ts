import { describe, expect, it } from 'vitest';
import { normalizeBaseUrl } from '../../electron/client';
import { normalizeBaseUrl as catalogSpelling } from '../../electron/catalog/settings';
import { normalizeBaseUrl as profileSpelling } from '../../electron/profiles';
import { isPartnerError } from '../../shared/errors';

describe('normalizeBaseUrl', () => {
  it('gives one spelling: no trailing slashes, query or fragment; lower-case scheme and host; no default port', () => {
    expect(normalizeBaseUrl('  HTTP://LocalHost:80/api//?q=1#x ')).toBe('http://localhost/api');
    expect(normalizeBaseUrl('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080');
    expect(normalizeBaseUrl('https://partner.example.com/v1/')).toBe('https://partner.example.com/v1');
  });

  it('is the same function for profiles and the catalog download', () => {
    expect(profileSpelling).toBe(normalizeBaseUrl);
    expect(catalogSpelling).toBe(normalizeBaseUrl);
  });

  it('refuses text that is not an http(s) URL with BAD_REQUEST', () => {
    for (const bad of ['', 'partner.example.com', 'ftp://x.example/', 'not a url']) {
      let caught: unknown;
      try {
        normalizeBaseUrl(bad);
      } catch (e) {
        caught = e;
      }
      expect(isPartnerError(caught) && caught.code).toBe('BAD_REQUEST');
    }
  });
});
