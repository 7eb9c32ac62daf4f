/**
 * The bridge calls that work on a vendor's session, each with a valid request but for its
 * `profileId` (which the tests fill in). A new call whose handler uses a session belongs here: the
 * contract test fails until it is listed and its schema requires the profile the page showed.
 */
import type { CallName } from '../../shared/bridge/contract';

export const PROFILE_SCOPED_EXAMPLES = {
  listAssets: { lastId: null, pageSize: 5 },
  searchAssets: { query: 'a', category: null, limit: 5 },
  categories: {},
  assetHistory: { assetId: 1 },
  downloadStart: { format: 'jsonl', resume: false },
  downloadResume: {},
  downloadPause: {},
  downloadCancel: { deleteFiles: false },
  purchaseInfo: { purchaseId: 'p_1' },
  registerPurchase: { assetId: 1, assetTitle: null },
  validatePurchase: { purchaseId: 'p_1' },
  downloadUrl: { purchaseId: 'p_1' },
  viewUrl: { purchaseId: 'p_1' },
  cancelPurchase: { purchaseId: 'p_1' },
  findPurchases: { reference: 'pc-1' },
  ledgerResolve: { id: 1, action: 'lookup' },
  simReplayHar: { har: { log: { entries: [{ startedDateTime: '2026-01-01T00:00:00Z', request: { method: 'GET', url: 'http://x/assets/categories' } }] } } },
} satisfies Partial<Record<CallName, Record<string, unknown>>>;

export type ProfileScopedCall = keyof typeof PROFILE_SCOPED_EXAMPLES;

export const PROFILE_SCOPED_CALLS = Object.keys(PROFILE_SCOPED_EXAMPLES) as ProfileScopedCall[];
