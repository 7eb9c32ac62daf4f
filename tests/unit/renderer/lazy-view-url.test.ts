/**
 * The chunk a failed dynamic import names, which a view's "Try again" imports anew under a query of its
 * own (the browser keeps the failed fetch of the plain URL for good; the e2e spec "a view whose code
 * cannot be fetched" retries it in Chromium).
 */
import { describe, expect, it } from 'vitest';
import { failedChunkUrl } from '../../../renderer/src/lib/lazy-view';

describe('failedChunkUrl', () => {
  it("reads the module URL from Chromium's and Firefox's messages, without a query", () => {
    expect(failedChunkUrl(new TypeError('Failed to fetch dynamically imported module: http://127.0.0.1:5173/assets/PurchasesView-Cx1_a.js'))).toBe(
      'http://127.0.0.1:5173/assets/PurchasesView-Cx1_a.js',
    );
    expect(failedChunkUrl(new TypeError('error loading dynamically imported module: app://partner/assets/UsageView-9f.js?retry=2'))).toBe(
      'app://partner/assets/UsageView-9f.js',
    );
  });

  it("is null where the message names none (Safari's), or for what is not an Error", () => {
    expect(failedChunkUrl(new TypeError('Importing a module script failed.'))).toBeNull();
    expect(failedChunkUrl('http://x/a.js')).toBeNull();
  });
});
