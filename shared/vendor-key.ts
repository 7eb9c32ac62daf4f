/**
 * One vendor at one service, however a person typed it. The profile's vendor field is free text
 * (the spec's vendor is the service's account the tokens belong to; the app only has the label), so
 * the purchase ledger's guard knows a vendor by its label folded: case, surrounding and repeated
 * spaces, and Unicode compatibility forms aside ("demo", " Demo " and "ＤＥＭＯ" are one vendor),
 * and a base URL by its one spelling (normalizeBaseUrl).
 */
import { normalizeBaseUrl } from './base-url';

export function vendorKey(label: string): string {
  return label.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The base URL's one spelling; text that is no http(s) URL stays as it is (an old record is still found by itself). */
export function baseUrlKey(baseUrl: string): string {
  try {
    return normalizeBaseUrl(baseUrl.trim());
  } catch {
    return baseUrl;
  }
}

/** Whether two (vendor, base URL) pairs name one vendor at one service. */
export function sameVendorService(a: { vendor: string; baseUrl: string }, b: { vendor: string; baseUrl: string }): boolean {
  return vendorKey(a.vendor) === vendorKey(b.vendor) && baseUrlKey(a.baseUrl) === baseUrlKey(b.baseUrl);
}
