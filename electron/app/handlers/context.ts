/** What every handler group may use: the composition root builds one and hands it to each group. */
import type { Settings } from '../../profiles';
import type { ProfileStore } from '../../profiles';
import type { Telemetry } from '../../telemetry';
import type { BudgetRegistry, ScopeStores } from '../../client';
import type { ProfileScoped } from '../../../shared/bridge/profile-scoped';
import type { BudgetSample } from '../../../shared/rate-limit';
import type { ConnectionView } from '../connection-state';
import type { DownloadController } from '../download-controller';
import type { EmbeddedDemo } from '../embedded-demo';
import type { AppEnvironment, AppLog } from '../environment';
import type { ProfileSession } from '../session';
import type { SessionPool } from '../session-pool';
import type { ProfileSource } from '../profile-source';
import type { LocalStore } from '../../store';
import type { UsageService } from '../../usage/usage-service';
import type { AlertService } from '../../alerts/alert-service';
import type { ExactIds } from '../exact-ids';

export interface AppContext {
  env: AppEnvironment;
  log: AppLog;
  store: ProfileStore;
  telemetry: Telemetry;
  /** The ACTIVE profile's connection state (the `connection` call and event). */
  connection: { current(): ConnectionView };
  /** The connected profiles (several at once) and which one is active. */
  pool: SessionPool;
  /** Saved and built-in demo profiles opened by id (borrowed for a Test connection or a detection). */
  profiles: ProfileSource;
  demo: EmbeddedDemo;
  downloads: DownloadController;
  /** The local store (SQLite): the purchase ledger; degraded with a problem when it cannot be opened. */
  local: LocalStore;
  /** Usage history per (profile, vendor, endpoint) on the local store. */
  usage: UsageService;
  /** Alert rules per profile and the alerts they raised (electron/alerts/). */
  alerts: AlertService;
  budgets: BudgetRegistry;
  /** Each connected scope's budget store, taken by its sessions: short-lived clients look theirs up here. */
  stores: ScopeStores;
  /** The recording fetch every client uses. */
  fetch: typeof fetch;
  /** Ids past 2^53: their digits for the page, and back as the service wrote them. */
  ids: ExactIds;
  /** URLs that downloadUrl/viewUrl returned in this session: the only ones openExternal opens. */
  openable: Set<string>;
  settings(): Settings;
  /**
   * The session of the profile the page showed (every vendor-scoped call names it); throws
   * PROFILE_NOT_CONNECTED when it is not connected. There is no "the active one" here on purpose.
   */
  session(scope: ProfileScoped): ProfileSession;
  /** A connected profile's session (default: the active one); throws NOT_FOUND when it is not connected. */
  sessionFor(profileId?: string): ProfileSession;
  currentSession(): ProfileSession | null;
  /** A sample of a short-lived client of `profileId` (Test connection, detection): telemetry, and that profile's usage and alerts. */
  recordSample(profileId: string, sample: BudgetSample): void;
  /** Connects if needed and makes it the active profile (serialized); the previous one stays connected. */
  select(profileId: string): Promise<ConnectionView>;
  /**
   * A profile changed (reconnected if connected), was renamed only (a connected session keeps going under the
   * new name) or was removed (disconnected; if it was active and no other is connected, the demo or the first
   * saved profile opens instead).
   */
  profileChanged(profileId: string, change: ProfileChange): Promise<void>;
}

export type ProfileChange = 'changed' | 'renamed' | 'removed';
