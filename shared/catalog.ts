/**
 * Payloads of the built-in simulator (the specification does not show them). The client never
 * relies on them for catalog download; the dashboard reads them loosely (passthrough), so an
 * asset with more or fewer fields still shows.
 */
import { z } from 'zod';

/** The simulator's page-size parameter (Yii2's data provider uses the same name). */
export const DEFAULT_PAGE_SIZE_PARAM = 'per-page';
export const DEFAULT_ID_FIELD = 'id';
export const PAGE_SIZE_MIN = 1;
export const PAGE_SIZE_MAX = 100;
export const PAGE_SIZE_DEFAULT = 20;

export const assetSchema = z.looseObject({
  id: z.union([z.number(), z.string()]),
  title: z.string().optional(),
  category: z.string().optional(),
  price: z.number().optional(),
  currency: z.string().optional(),
});
export type Asset = z.infer<typeof assetSchema>;

export const categorySchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  count: z.number(),
});
export type Category = z.infer<typeof categorySchema>;

export const historyEntrySchema = z.looseObject({
  at: z.string(),
  event: z.string(),
  price: z.number().optional(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** The purchase state machine (simulator's; documented in the README). */
export const PURCHASE_STATES = ['registered', 'validated', 'cancelled'] as const;
export type PurchaseState = (typeof PURCHASE_STATES)[number];

export const purchaseSchema = z.looseObject({
  id: z.string(),
  asset_id: z.union([z.number(), z.string()]),
  state: z.string(),
  client_reference: z.string().optional(),
});
export type Purchase = z.infer<typeof purchaseSchema>;

/** Which purchase operations each state allows; the dashboard enables buttons from it. */
export const PURCHASE_ACTIONS_BY_STATE: Record<PurchaseState, readonly string[]> = {
  registered: ['purchaseInfo', 'validatePurchase', 'viewUrl', 'cancelPurchase'],
  validated: ['purchaseInfo', 'downloadUrl', 'viewUrl', 'cancelPurchase'],
  cancelled: ['purchaseInfo'],
};
