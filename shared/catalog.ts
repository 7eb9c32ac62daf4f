/**
 * The dashboard's own shapes of catalog and purchase objects: what the service map's readers
 * (shared/service-map/read.ts) make of any service's answers. Loose (extra fields pass through:
 * an asset's other fields travel beside the named ones). The field names of a service's payloads
 * live only in its service map (DEFAULT_SERVICE_MAP: the built-in simulator's dialect).
 */
import { z } from 'zod';
import { DEFAULT_SERVICE_MAP } from './service-map/schema';
import { exactIdSchema } from './ids';
import { NumberText } from './json/number-text';
import type { CanonicalState } from './service-map/schema';

/** The default map's page-size parameter and asset id field (profile defaults). */
export const DEFAULT_PAGE_SIZE_PARAM = DEFAULT_SERVICE_MAP.list.pageSizeParam ?? 'per-page';
export const DEFAULT_ID_FIELD = DEFAULT_SERVICE_MAP.asset.id;
export const PAGE_SIZE_MIN = 1;
export const PAGE_SIZE_MAX = 100;
export const PAGE_SIZE_DEFAULT = 20;

export const assetSchema = z.looseObject({
  id: exactIdSchema,
  title: z.string().optional(),
  category: z.string().optional(),
  price: z.number().optional(),
  currency: z.string().optional(),
});
export type Asset = z.infer<typeof assetSchema>;
/** An asset as main reads it: its id as the service wrote it (NumberText past 2^53). */
export const readAssetSchema = assetSchema.extend({ id: z.union([z.number(), z.string(), z.instanceof(NumberText)]) });
export type ReadAsset = z.infer<typeof readAssetSchema>;

export const categorySchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  /** null: the service does not say. */
  count: z.number().nullable(),
});
export type Category = z.infer<typeof categorySchema>;

export const historyEntrySchema = z.looseObject({
  /** ISO time. */
  at: z.string(),
  /** The service's word for the change, '' when it gives none. */
  event: z.string(),
  /** The point's value (a price, in major units). */
  price: z.number().optional(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** The canonical purchase states (a service's own words map to them in its service map). */
export const PURCHASE_STATES = ['registered', 'validated', 'cancelled'] as const satisfies readonly CanonicalState[];
export type PurchaseState = (typeof PURCHASE_STATES)[number];

export const purchaseSchema = z.looseObject({
  id: z.string(),
  asset_id: exactIdSchema,
  state: z.string(),
  client_reference: z.string().optional(),
});
export type Purchase = z.infer<typeof purchaseSchema>;

/**
 * Which purchase operations each state allows in the default dialect. A purchase read through a
 * service map carries its own `actions` (from that map's state words): prefer those.
 */
const defaultActions = (state: PurchaseState): readonly string[] => DEFAULT_SERVICE_MAP.states.find((w) => w.state === state)?.actions ?? ['purchaseInfo'];
export const PURCHASE_ACTIONS_BY_STATE: Record<PurchaseState, readonly string[]> = {
  registered: defaultActions('registered'),
  validated: defaultActions('validated'),
  cancelled: defaultActions('cancelled'),
};
