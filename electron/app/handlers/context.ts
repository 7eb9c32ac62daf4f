/** What every handler group may use: the composition root builds one and hands it to each group. */
import type { Settings } from '../../profiles';
import type { ProfileStore } from '../../profiles';
import type { Telemetry } from '../../telemetry';
import type { BudgetRegistry } from '../../client';
import type { ConnectionTracker, ConnectionView } from '../connection-state';
import type { DownloadController } from '../download-controller';
import type { EmbeddedDemo } from '../embedded-demo';
import type { AppEnvironment, AppLog } from '../environment';
import type { ActiveSession } from '../session';
import type { LocalStore } from '../../store';
import type { UsageService } from '../../usage/usage-service';
import type { AlertService } from '../../alerts/alert-service';

export interface AppContext {
  env: AppEnvironment;
  log: AppLog;
  store: ProfileStore;
  telemetry: Telemetry;
  connection: ConnectionTracker;
  demo: EmbeddedDemo;
  downloads: DownloadController;
  /** The local store (SQLite): the purchase ledger; degraded with a problem when it cannot be opened. */
  local: LocalStore;
  /** Usage history per (profile, vendor, endpoint) on the local store. */
  usage: UsageService;
  /** Alert rules per profile and the alerts they raised (electron/alerts/). */
  alerts: AlertService;
  budgets: BudgetRegistry;
  /** The recording fetch every client uses. */
  fetch: typeof fetch;
  /** URLs that downloadUrl/viewUrl returned in this session: the only ones openExternal opens. */
  openable: Set<string>;
  settings(): Settings;
  /** The active session; throws NOT_FOUND when no profile is connected. */
  session(): ActiveSession;
  currentSession(): ActiveSession | null;
  /** Switches the active profile (serialized); resolves with the new connection state. */
  select(profileId: string): Promise<ConnectionView>;
  /** Drops the active session, if it is this profile (removed or changed), and falls back to the demo. */
  reconnectIfActive(profileId: string, removed: boolean): Promise<void>;
}
