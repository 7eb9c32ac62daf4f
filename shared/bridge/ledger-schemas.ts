/**
 * The purchase ledger on the bridge: its record, its states, and the ledgerList / ledgerResolve calls
 * (spread into contract.ts's `calls`). The ledger itself lives in main (electron/store/).
 */
import { z } from 'zod';
import { profileScoped } from './profile-scoped';

/**
 * A registration's state in the ledger (the service's own state word is `purchaseState`):
 * - sending: written before the registration was sent, no answer yet;
 * - unknown: sent, but the outcome is unknown (no answer, an unreadable 2xx, the app died meanwhile);
 * - registered: the service holds this purchase (its later actions update `purchaseState`);
 * - failed: the service refused it definitely (a 4xx, a 429 after retries): nothing was bought;
 * - checked: was unknown; a person checked it and said so (no purchase found, or settled elsewhere).
 */
export const LEDGER_STATES = ['sending', 'unknown', 'registered', 'failed', 'checked'] as const;
export type LedgerState = (typeof LEDGER_STATES)[number];
/** States a person must resolve before the asset is registered again without asking. */
export const UNRESOLVED_STATES: readonly LedgerState[] = ['sending', 'unknown'];

export const ledgerRecordSchema = z.object({
  id: z.number().int(),
  vendor: z.string(),
  baseUrl: z.string(),
  profileId: z.string(),
  assetId: z.string(),
  assetTitle: z.string().nullable(),
  /** The registration's client reference; null for a purchase found by id that was registered elsewhere. */
  reference: z.string().nullable(),
  purchaseId: z.string().nullable(),
  state: z.enum(LEDGER_STATES),
  /** The service's state word, last seen (e.g. "validated"). */
  purchaseState: z.string().nullable(),
  /** Its canonical kind where the service map names it ('cancelled' ends a purchase's life). */
  purchaseStateKind: z.string().nullable(),
  /** Why the record is in its state, in words (the error of an unknown or failed registration). */
  note: z.string().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type LedgerRecord = z.output<typeof ledgerRecordSchema>;

/** Does this record stop a new registration of its asset? Unresolved, or a purchase not cancelled. */
export function blocksRegistration(r: LedgerRecord): boolean {
  if (UNRESOLVED_STATES.includes(r.state)) return true;
  return r.state === 'registered' && r.purchaseStateKind !== 'cancelled';
}

/** What names a record to a person: its reference, or its purchase id. */
export function recordName(r: LedgerRecord): string {
  return r.reference ?? r.purchaseId ?? `#${r.id}`;
}

/**
 * What a person confirms a record by: its name and the state the dialog showed it in. A record
 * settled since (an unknown registration another window found bought) is no longer confirmed.
 * Sending and unknown are one standing: the same intent under the same key, resent as it was.
 */
export function confirmationName(r: LedgerRecord): string {
  return `${recordName(r)} (${UNRESOLVED_STATES.includes(r.state) ? 'unresolved' : r.state})`;
}

/**
 * Names the records the person saw when they confirmed registering again (confirmationName of
 * each). A record not named here, or named in another state, still stops the registration.
 */
export const confirmDuplicateSchema = z.object({ seen: z.array(z.string().min(1).max(200)).min(1).max(100) });

export const ledgerCalls = {
  /** The ledger of every session, unresolved records first, then newest first. */
  ledgerList: {
    request: z.object({
      vendor: z.string().max(200).nullish(),
      /** With assetId: one asset's records at one service (the Register button's view of it). */
      baseUrl: z.string().max(2000).nullish(),
      assetId: z.union([z.number(), z.string().max(200)]).nullish(),
      /** A state, or 'unresolved' (sending or unknown). */
      state: z.union([z.enum(LEDGER_STATES), z.literal('unresolved')]).nullish(),
      /** A registered purchase's state word at the service ("cancelled"; "registered" also for one without a word). */
      purchaseState: z.string().max(200).nullish(),
      limit: z.number().int().min(1).max(1000).default(200),
    }),
    response: z.object({
      items: z.array(ledgerRecordSchema),
      /** More records match than `items` holds (it stops at the limit). */
      more: z.boolean(),
      /** Every state the records of this vendor, service and asset are in, whatever the state filters (the filter's choices). */
      states: z.array(ledgerRecordSchema.pick({ state: true, purchaseState: true })),
      /** Unresolved records in the whole ledger (not only those listed). */
      unresolved: z.number().int(),
      vendors: z.array(z.string()),
      /** Why the ledger cannot be used (registrations are refused meanwhile), or null. */
      problem: z.string().nullable(),
    }),
  },
  /** Settles an unresolved record: look it up at the service (by purchase id or reference), or mark it checked. */
  ledgerResolve: {
    request: z
      .object({
        id: z.number().int(),
        action: z.enum(['lookup', 'markChecked']),
        /** lookup: a purchase id the person found (verified with purchase info before it is recorded). */
        purchaseId: z.string().trim().min(1).max(200).optional(),
      })
      .extend(profileScoped.shape),
    response: z.object({ record: ledgerRecordSchema, message: z.string() }),
  },
} as const;
