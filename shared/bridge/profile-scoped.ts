/**
 * The profile a vendor-scoped call works on: the one whose data the page showed when the person
 * acted. Main runs the call on that profile's session or refuses it (PROFILE_NOT_CONNECTED), never
 * on whichever profile is active when the call arrives (another page or a switch may have changed it).
 */
import { z } from 'zod';

export const profileScoped = z.object({
  profileId: z.string().trim().min(1, 'the profile the page showed is required').max(200),
  /**
   * Where that profile pointed when the page read what it acts on: a profile edited since (the same
   * id, now another vendor or service) is refused, so that an action on what the page shows never
   * goes to a service it was not read from. Absent: not checked. The bounds only cap the payload:
   * above any profile's own, so that no valid profile is refused.
   */
  shownAt: z.object({ vendor: z.string().max(1_000), baseUrl: z.string().max(100_000) }).optional(),
});

export type ProfileScoped = z.output<typeof profileScoped>;
