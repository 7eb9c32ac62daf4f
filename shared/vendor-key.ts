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

export interface VendorService {
  vendor: string;
  baseUrl: string;
}

/** The one key of a vendor at a service: what the ledger, and what is kept per service beside it, are keyed by. */
export function vendorServiceKey(service: VendorService): VendorService {
  return { vendor: vendorKey(service.vendor), baseUrl: baseUrlKey(service.baseUrl) };
}

/** Whether two (vendor, base URL) pairs name one vendor at one service. */
export function sameVendorService(a: VendorService, b: VendorService): boolean {
  const left = vendorServiceKey(a);
  const right = vendorServiceKey(b);
  return left.vendor === right.vendor && left.baseUrl === right.baseUrl;
}
