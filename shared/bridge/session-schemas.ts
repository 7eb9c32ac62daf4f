/**
 * Several profiles connected at once (issue 12 §4): each connected profile has its own client,
 * budgets and connection state; one of them is the active one, which the detailed views (Catalog,
 * Purchases, Requests, a download) work on. The Overview shows them all.
 */
import { z } from 'zod';
import { ENDPOINT_IDS } from '../endpoints';
import { connectionSchema } from './schemas';

const profileRef = z.object({ id: z.string().min(1).max(200) });

export const connectedProfileSchema = z.object({
  profileId: z.string(),
  name: z.string(),
  vendor: z.string(),
  baseUrl: z.string(),
  demo: z.boolean(),
  /** The one the detailed views show (selectProfile). */
  active: z.boolean(),
  /** This profile's own connection state (the `connection` event/call keep describing the active one). */
  connection: connectionSchema,
});

export const connectedProfilesSchema = z.object({ items: z.array(connectedProfileSchema) });

/** How a fleet's shared budget store (issue 10 §2, Redis) is doing for one profile. */
export const budgetStoreStateSchema = z.object({
  /** 'machine': the store this machine's processes share (a file); 'redis': a fleet's on many machines. */
  kind: z.enum(['none', 'redis', 'machine']),
  /** The store's address with any password masked; null for 'none'. */
  url: z.string().nullable(),
  /** 'fallback': unreachable or slow, so pacing is from headers only until it answers again. */
  state: z.enum(['off', 'connecting', 'connected', 'fallback']),
  message: z.string().nullable(),
});

/** The fleet's use of a vendor's budget as the store counts it, beside this app's own. */
export const fleetUseSchema = z.object({
  profileId: z.string(),
  vendor: z.string(),
  store: budgetStoreStateSchema,
  /** Epoch ms (server-independent: the store's clock) of the first second in each `granted`. */
  fromMs: z.number(),
  endpoints: z.array(
    z.object({
      endpoint: z.enum(ENDPOINT_IDS),
      limit: z.number(),
      /** Slots the store granted per second, every worker of the fleet counted, oldest first (complete seconds only). */
      granted: z.array(z.number()),
    }),
  ),
});

export const sessionCalls = {
  /** Every connected profile, the active one marked. */
  connectedProfiles: { request: z.object({}).strict(), response: connectedProfilesSchema },
  /** Opens a profile in the background (its own client and budgets); the active one is unchanged. Idempotent. */
  connectProfile: { request: profileRef, response: connectedProfileSchema },
  /** Closes a connected profile (its demo traffic, its download); the active one closed: the next connected becomes active. */
  disconnectProfile: { request: profileRef, response: connectedProfilesSchema },
  /** The fleet's use per endpoint over the last `seconds` (default 60) complete seconds; store 'none' when no store is set. */
  fleetUse: {
    request: z.object({ profileId: z.string().min(1).max(200).optional(), seconds: z.number().int().min(1).max(300).optional() }),
    response: fleetUseSchema,
  },
} as const;

export const sessionEvents = {
  /** The connected set or any connected profile's state changed. */
  sessions: connectedProfilesSchema,
} as const;
