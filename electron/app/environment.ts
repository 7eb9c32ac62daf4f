/** What a shell (Electron or browser mode) gives the services, and what it gets back. */
import type { CallResult, EventName } from '../../shared/bridge/contract';
import type { NetworkRoute } from '../client/fresh-connection';
import type { ProfileInputDraft } from '../profiles';
import type { TokenVault } from './token-vault';

export type AppLogLevel = 'info' | 'warn' | 'error';
/** Where the services report their own problems (bugs, failed cleanups). Texts are token-free. */
export type AppLog = (level: AppLogLevel, message: string, detail?: unknown) => void;

export interface AppEnvironment {
  shell: 'desktop' | 'web';
  /** Where settings, profiles and downloads live. */
  dataDir: string;
  /** net.fetch in desktop; default globalThis.fetch. Used only for requests safe to resend (client/transport.ts). */
  fetch?: typeof fetch;
  /** Desktop: the system proxy and certificates, for the requests that go on a connection of their own (registration). */
  networkRoute?: NetworkRoute;
  /** Seals tokens at rest. */
  vault: TokenVault;
  /** Desktop: shell.openExternal. Absent (web): openExternal answers NOT_FOUND. */
  openExternal?: (url: string) => Promise<void>;
  /** Desktop: Electron's clipboard.writeText (Copy with token). Absent (web): copyCurlWithToken answers NOT_FOUND. */
  writeClipboard?: (text: string) => void;
  /** Desktop: shell.showItemInFolder / shell.openPath. Absent (web): downloadReveal answers NOT_FOUND. */
  revealFile?: (path: string, action: 'show' | 'open') => Promise<void>;
  /** Desktop: Electron's Notification (shell/notifier.ts). Absent (web): the renderer shows alerts with the Web Notifications API. */
  notify?: (notice: { title: string; body: string }) => void;
  /** Web mode: profiles from flags, kept in memory only. */
  initialProfiles?: ProfileInputDraft[];
  /** Web mode --detect: detect the flag profiles' service maps at start (<= 3 requests each), kept in memory. */
  detectServiceMaps?: boolean;
  /** Default true: a profile without a saved map is detected when it first connects (web mode --no-detect: false). */
  detectAtFirstContact?: boolean;
  /** Default true: start the simulator when no profile is configured. */
  embeddedSimulator?: boolean;
  /** How long after an offline profile's probe settled it is asked again (ms; default OFFLINE_PROBE_MS, 5 s). */
  offlineProbeMs?: number;
  /** --budget-store redis://host:port/db: the budget store of every profile that names none. */
  budgetStore?: string;
  version: string;
  /** Optional: default writes warnings and errors to stderr. */
  log?: AppLog;
}

export interface AppServices {
  /** Validates name + request with the contract; never throws. */
  dispatch(name: string, request: unknown, signal?: AbortSignal): Promise<CallResult<unknown>>;
  /** Batched events (<= ~20/s per stream). */
  onEvent(listener: (name: EventName, payload: unknown) => void): () => void;
  /** Stops simulator, timers, downloads; idempotent. */
  dispose(): Promise<void>;
}
