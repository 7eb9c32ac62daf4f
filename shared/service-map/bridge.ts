/**
 * What the service map adds to the bridge: the three serviceMap* calls' shapes and the tolerant
 * reading fields (missing, warnings, raw) that catalog and purchase answers carry.
 */
import { z } from 'zod';
import { CANONICAL_STATES, PURCHASE_ACTIONS, serviceMapSchema } from './schema';

/** Added to answers read through the map. Optional so that older producers still fit. */
export const readInfoShape = {
  /** Map fields that could not be found in the answer (e.g. "asset.price"). */
  missing: z.array(z.string()).optional(),
  /** Things the user should fix or know (e.g. "the page-size parameter `limit` seems ignored"). */
  warnings: z.array(z.string()).optional(),
  /** How the answer was read, not a fault (e.g. "read with a detected layout: save it in the service map"). */
  notes: z.array(z.string()).optional(),
  /** The answer as received (tokens masked) when part of it could not be read. */
  raw: z.unknown().optional(),
};

/** A purchase as read through the map (added to shared/catalog.ts's purchase). */
export const purchaseReadShape = {
  ...readInfoShape,
  /** The canonical state of the service's word; 'unknown' when the map does not name the word. */
  stateKind: z.enum([...CANONICAL_STATES, 'unknown']).optional(),
  /** The actions the state allows (every action when the state is unknown). */
  actions: z.array(z.enum(PURCHASE_ACTIONS)).optional(),
  /** A registration the service accepted (2xx) whose purchase could not be read: it may exist. */
  unresolved: z.boolean().optional(),
  /** The service did it, but the purchase ledger is not written yet (it will be): said to the user. */
  ledgerWarning: z.string().optional(),
};

const profileId = z.object({ profileId: z.string().min(1) });

export const serviceMapViewSchema = z.object({
  map: serviceMapSchema,
  /** 'default': no map saved for the profile, the built-in (simulator) dialect applies; 'detected': found at first contact (or Detect again), not yet reviewed. */
  source: z.enum(['default', 'saved', 'detected']),
});

/** One field's detection: the value chosen, how sure (0..1), and why. */
export const fieldEvidenceSchema = z.object({ field: z.string(), confidence: z.number().min(0).max(1), evidence: z.string() });

export const detectionSchema = z.object({
  map: serviceMapSchema,
  /** Overall confidence 0..1 (the weakest essential field). */
  confidence: z.number().min(0).max(1),
  /** Per map field ("list.items", "asset.price", "list.pageSizeParam"...). */
  fields: z.array(fieldEvidenceSchema),
  /** The sampled answers, tokens masked (categories, list, search), null where not fetched. */
  samples: z.object({ categories: z.unknown().nullable(), list: z.unknown().nullable(), search: z.unknown().nullable() }),
  warnings: z.array(z.string()),
  /** Requests spent (at most 3). */
  requests: z.number().int(),
});
export type Detection = z.output<typeof detectionSchema>;

export const serviceMapCalls = {
  serviceMapGet: { request: profileId, response: serviceMapViewSchema },
  /** `detected`: saved as detected, not yet reviewed (Detect again in place); absent: the user's own (reviewed). */
  serviceMapSave: { request: profileId.extend({ map: serviceMapSchema, detected: z.boolean().optional() }), response: serviceMapViewSchema },
  /** Probes the profile's service (<= 3 requests) and proposes a map; saves nothing. */
  serviceMapDetect: { request: profileId, response: detectionSchema },
} as const;
