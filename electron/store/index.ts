/** The app's local store (SQLite in the data folder): the purchase ledger, with its migrations. */
export { LocalStore } from './local-store';
export { openDatabase, openDatabaseReadOnly, STORE_FILE_NAME } from './database';
export { BUSY_TIMEOUT_MS } from './sqlite-open';
export { migrate, schemaVersion, MIGRATIONS, USAGE_LEVELS } from './migrations';
export type { Migration } from './migrations';
export { PurchaseLedger, assetKey } from './ledger';
export type { LedgerOptions, LedgerQuery, LedgerTarget, RegistrationIntent, SeenPurchase } from './ledger';
export { registerWithLedger, newClientReference, ledgerPendingWords } from './ledger-register';
export type { LedgerRegistration } from './ledger-register';
export { UsageStore, DEFAULT_USAGE_RETENTION, MAX_PENDING_BUCKETS } from './usage-store';
export type { UsageLevel, UsageQuery, UsageRetention, UsageRow, UsageStoreOptions, UsagePointAggregate } from './usage-store';
export type { UsageAggregate } from './usage-aggregate';
export { AlertStore, ALERT_PRUNE_BATCH, ALERT_RETENTION_MS } from './alert-store';
export { errorMessage, isLockedOut, isPassingStoreFailure } from './store-errors';
export type { AlertStart } from './alert-store';
export { IdKindStore } from './id-kind-store';
export type { IdKind, IdService, IdSource, KeptKind } from './id-kind-store';
