/**
 * Background work (catalog downloads, background pages, demo traffic) waits through a shared budget's
 * 429s as long as the budget moves for anyone, and gives up only after this long without any success
 * (issue 10). The app's setting and the CLI's flag default to it; the client's DEFAULT_STALL_LIMIT_MS is it.
 */
export const DEFAULT_GIVE_UP_AFTER_MINUTES = 10;
/** The give-up time's range in whole minutes (the setting, its field and the CLI flag): up to a day. */
export const GIVE_UP_AFTER_MINUTES = { min: 1, max: 1440 } as const;
