/**
 * The composition root: builds the services both shells serve (IPC in the desktop app, a WebSocket
 * in browser mode) and exposes them as one dispatch function and one event stream.
 */
import { DEFAULT_GIVE_UP_AFTER_MINUTES } from '../../shared/background-work';
import { profileInputSchema } from '../../shared/bridge/schemas';
import { PartnerError, toErrorData } from '../../shared/errors';
import type { BudgetSample } from '../../shared/rate-limit';
import { BudgetRegistry, PartnerClient, ScopeStores } from '../client';
import type { StoreLease } from '../client';
import { createTransport } from '../client/transport';
import { appUserAgent } from '../client/user-agent';
import { DEFAULT_MAX_RESPONSE_MIB, ProfileStore, redactText } from '../profiles';
import { timerClock } from '../../shared/clock';
import { LocalStore } from '../store';
import { UsageService } from '../usage/usage-service';
import { AlertService } from '../alerts/alert-service';
import { createTelemetry } from '../telemetry';
import { foreignServers } from '../telemetry/foreign-servers';
import { createDispatcher, describeIssues } from './dispatcher';
import { DownloadController } from './download-controller';
import { DEMO_PROFILE_ID, EmbeddedDemo } from './embedded-demo';
import type { AppEnvironment, AppLog, AppServices } from './environment';
import { EventHub } from './event-hub';
import { createHandlers } from './handlers';
import { ProfileSource } from './profile-source';
import type { OpenedProfile } from './profile-source';
import { detectAtFirstContact } from '../service-map/first-contact';
import { hasSavedMap, profileServiceMap } from '../service-map/profile-map';
import { applyLearnedPatch, learnedPatch, mergePatches, namesOnly } from '../../shared/service-map/learned-patch';
import type { LearnedPatch } from '../../shared/service-map/learned-patch';
import { serviceMapHandlers } from './handlers/service-map';
import type { AppContext } from './handlers';
import { ProfileSession } from './session';
import { SessionPool } from './session-pool';
import { ExactIds } from './exact-ids';

/** Beyond one attempt's timeout, how long a closing session waits for its purchases' answers on the wire. */
const SETTLE_SLACK_MS = 2_000;

const defaultLog: AppLog = (level, message, detail) => {
  if (level === 'info') return;
  console.error(`[partner-console ${level}] ${message}`, ...(detail === undefined ? [] : [detail]));
};

export async function createAppServices(env: AppEnvironment): Promise<AppServices> {
  const rawLog = env.log ?? defaultLog;
  const store = new ProfileStore({ dataDir: env.dataDir, vault: env.vault });
  const demo = new EmbeddedDemo(env.embeddedSimulator !== false);
  const knownTokens = (): string[] => [...store.knownTokens(), ...demo.tokens()];
  const redact = (text: string): string => redactText(text, knownTokens());
  const log: AppLog = (level, message, detail) => rawLog(level, redact(message), typeof detail === 'string' ? redact(detail) : detail);
  if (store.settingsProblem) log('warn', store.settingsProblem);

  const events = new EventHub();
  const budgets = new BudgetRegistry();
  const stores = new ScopeStores();
  // Which connected profile's client sent a sample: set just before telemetry records it.
  const origin = new WeakMap<BudgetSample, string>();

  const telemetry = createTelemetry({
    maskContext: () => ({
      tokens: [...store.knownTokens(), ...(demo.running ? demo.tokens() : [])],
      tokenHeaders: new Set([...store.tokenHeaders(), 'authorization']),
    }),
    // Each server of a vendor has its own budget, so its own estimate of others' use; our requests in flight are its budget's.
    ...foreignServers({
      connected: () => pool.sessions().map((s) => s.profile),
      savedBaseUrl: (profileId) => store.get(profileId)?.baseUrl,
      profileOf: (sample) => origin.get(sample),
      inFlightAt: (server, vendor, endpoint) => budgets.inFlight(server, vendor, endpoint),
    }),
    refillModel: (vendor) => (pool.sessions().some((s) => s.profile.demo && s.profile.vendor === vendor) ? demo.refill : null),
    // Into the usage history and the alerts of the profile whose client sent it (a Test connection's: the tested
    // profile's, never another connected profile of the vendor that may be on another server). Two connected profiles
    // of one vendor each keep their own samples; the foreign-use detector keeps one estimate per server (serverOf).
    onRecorded: (sample, foreignUse) => {
      const profileId = origin.get(sample);
      if (profileId === undefined) return;
      usage.record(profileId, sample, foreignUse);
      alerts.sample(sample, foreignUse, profileId);
    },
  });
  telemetry.onBudget((p) => events.emit('budget', p));
  telemetry.onRequestLog((p) => events.emit('requestLog', p));
  const downloads = new DownloadController((v) => {
    events.emit('downloadProgress', v);
    alerts.download(downloads.profileId, v.state, v.error?.message ?? null);
  });
  // The purchase ledger lives here; a store that cannot be opened turns registering off, with the reason.
  const local = new LocalStore(env.dataDir, { redact });
  if (local.problem) log('warn', local.problem);
  const usage = new UsageService(local, {
    clock: timerClock,
    settings: store.settings().usageHistory,
    onError: (e) => log('warn', `Usage history: ${toErrorData(e).message}`),
  });
  const alerts = new AlertService(local, {
    clock: timerClock,
    quiet: () => store.settings().alerts?.quiet === true,
    emit: (e) => events.emit('alert', e),
    notify: env.notify,
    onError: (e) => log('warn', `Alerts: ${toErrorData(e).message}`),
  });
  const openable = new Set<string>();
  const profiles: ProfileSource = new ProfileSource(store, demo, () => pool.demoConnected());
  // The shell's fetch only for what is safe to resend; a fresh undici connection for the rest (transport.ts).
  const recordingFetch = createTransport({
    pooled: env.fetch,
    ...(env.networkRoute ? { route: env.networkRoute } : {}),
    maxResponseBytes: () => (store.settings().maxResponseMiB ?? DEFAULT_MAX_RESPONSE_MIB) * 1024 * 1024,
    userAgent: appUserAgent(env.version),
    observe: (inner) => telemetry.wrapFetch(inner),
  });

  // Names a 400 taught on a profile with no saved map (the built-in shapes): kept here, not saved as a map (that
  // would stop detection for good), and applied on top of the map its next connection detects.
  const learnedWithoutMap = new Map<string, LearnedPatch>();

  function recordSample(profileId: string, sample: BudgetSample): void {
    origin.set(sample, profileId);
    telemetry.record(sample);
  }

  async function openSession(id: string, onSample: (s: BudgetSample) => void): Promise<ProfileSession> {
    const opened = await profiles.open(id);
    const { profile } = opened;
    // The estimates of others' use stay: each is of one server's budget (foreign-servers.ts), which this profile's
    // requests join; forgetting it mid-second would take our earlier requests of that second for another consumer's.
    // A fleet's shared budget (Redis), from the profile or the command line; headers only without one. Taken
    // before the first contact (which paces through it too) and handed to the session, which releases it in
    // close(); released here if the session never opens.
    const url = (demo.isDemo(id) ? undefined : store.openBudgetStore(id)) ?? env.budgetStore;
    const lease = stores.take({ baseUrl: profile.baseUrl, vendor: profile.vendor }, url, (line) => log('warn', line));
    try {
      return await sessionWith(id, opened, lease, onSample);
    } catch (e) {
      lease.release();
      throw e;
    }
  }

  /** The profile's session on the store taken for it (after a first contact when it has no service map). */
  async function sessionWith(id: string, opened: OpenedProfile, lease: StoreLease, onSample: (s: BudgetSample) => void): Promise<ProfileSession> {
    let { profile, tokens } = opened;
    if (!profile.demo && !hasSavedMap(profile) && env.detectAtFirstContact !== false) ({ profile, tokens } = await firstContact(id, profile, tokens));
    const startMap = profileServiceMap(profile);
    return new ProfileSession(profile, tokens, {
      fetch: recordingFetch,
      budgets,
      stores,
      storeLease: lease,
      timeoutMs: () => store.settings().timeoutMs,
      stallLimitMs: () => (store.settings().giveUpAfterMinutes ?? DEFAULT_GIVE_UP_AFTER_MINUTES) * 60_000,
      clock: timerClock,
      onSample: (s) => {
        recordSample(id, s);
        onSample(s);
      },
      // Only what was learned, into the map the profile holds now (the user may have saved one since the
      // session started); the demo's map is fixed. Reviewed stays as it was, and takes no detected layout.
      onLearned: (map) => {
        if (demo.isDemo(id)) return false;
        const learned = learnedPatch(startMap, map);
        const record = store.get(id);
        if (!record || !learned) return false;
        if (!record.serviceMap || !hasSavedMap(record)) {
          learnedWithoutMap.set(id, mergePatches(learnedWithoutMap.get(id), learned));
          return true;
        }
        const reviewed = record.serviceMapDetected !== true;
        const patch = reviewed ? namesOnly(learned) : learned;
        if (!patch) return false;
        try {
          store.saveServiceMap(id, applyLearnedPatch(record.serviceMap, patch), { detected: !reviewed });
          return !reviewed || !learned.layout;
        } catch (e) {
          log('warn', `Could not save what the session learned about the service's names or answers: ${toErrorData(e).message}`);
          return false;
        }
      },
    });
  }

  /** No saved map: detect it now (<= 3 requests), keep it as detected-not-reviewed, open with it. */
  async function firstContact(id: string, profile: OpenedProfile['profile'], tokens: string[]): Promise<OpenedProfile> {
    const client = new PartnerClient({
      baseUrl: profile.baseUrl,
      vendor: profile.vendor,
      tokens,
      fetch: recordingFetch,
      budgets,
      stores,
      timeoutMs: store.settings().timeoutMs,
      tokenPresentation: profile.tokenPresentation,
      // A service that does not answer must not hold the connection long: the session's own probe retries.
      retry: { maxAttempts: 2 },
    });
    const unsubscribe = client.onSample((s) => recordSample(id, s));
    try {
      const found = await detectAtFirstContact(client, profileServiceMap(profile));
      // Detection takes seconds: a map saved meanwhile (the user's) always wins, and this detection is discarded.
      const now = store.get(id);
      if (!now || hasSavedMap(now)) return await profiles.open(id);
      if (found.map === null) {
        log('warn', `${profile.name}: no service map saved and detection found none (${found.reason}): the built-in shapes are used until Detect is run.`);
        return { profile, tokens };
      }
      const learned = learnedWithoutMap.get(id);
      store.saveServiceMap(id, learned ? applyLearnedPatch(found.map, learned) : found.map, { detected: true });
      learnedWithoutMap.delete(id);
      log(
        'info',
        `${profile.name}: service map detected at first contact with ${found.requests} requests (confidence ${found.proposal.confidence}), not yet reviewed.`,
      );
      return profiles.open(id);
    } finally {
      unsubscribe();
      client.close();
    }
  }

  const pool: SessionPool = new SessionPool({
    clock: timerClock,
    describe: (id) => profiles.describe(id),
    open: openSession,
    closing: async (s) => {
      if (downloads.profileId === s.profile.id) await downloads.stop();
      // A purchase on the wire gets its answer before the session closes: one attempt's timeout and a little
      // (while quitting, the session's hurry() cuts that to what the shell allows).
      await s.settle(store.settings().timeoutMs + SETTLE_SLACK_MS);
    },
    demoIdle: () => profiles.demoIdle(),
    activated(id) {
      try {
        store.setActive(id);
      } catch (e) {
        log('warn', `Could not remember the active profile: ${toErrorData(e).message}`);
      }
    },
    onConnection: (v) => events.emit('connection', v),
    onState: (v) => alerts.connection(v.profileId, v.state),
    onSessions(items) {
      events.emit('sessions', { items });
      alerts.watch(pool.sessions().map((s) => ({ profileId: s.profile.id, vendor: s.profile.vendor, demo: s.profile.demo })));
    },
    ...(env.offlineProbeMs === undefined ? {} : { offlineProbeMs: env.offlineProbeMs }),
    redact,
  });

  /** The profile to open at start: the remembered one, the first flag or saved profile, else the demo. */
  function initialProfileId(flagIds: string[]): string | null {
    const remembered = store.activeId;
    if (remembered && demo.isDemo(remembered) && demo.enabled) return remembered;
    if (remembered && store.get(remembered)) return remembered;
    if (flagIds[0]) return flagIds[0];
    const saved = store.list()[0];
    if (saved) return saved.id;
    return demo.enabled ? DEMO_PROFILE_ID : null;
  }

  const ctx: AppContext = {
    env,
    log,
    store,
    telemetry,
    connection: { current: () => pool.connection() },
    pool,
    profiles,
    demo,
    downloads,
    local,
    usage,
    alerts,
    budgets,
    stores,
    fetch: recordingFetch,
    recordSample,
    openable,
    ids: new ExactIds(local.idKinds(), undefined, (m) => log('warn', m)),
    settings: () => store.settings(),
    session: (scope) => pool.sessionOf(scope),
    sessionFor: (profileId) => pool.sessionFor(profileId),
    currentSession: () => pool.active(),
    select: (id) => pool.select(id),
    async profileChanged(profileId, change) {
      const name = store.get(profileId)?.name;
      if (change === 'renamed' && name !== undefined && pool.rename(profileId, name)) return;
      if (change !== 'removed') {
        // Saved either way: a reconnect that fails shows in that profile's connection state, not as a failed save.
        return pool.reconnect(profileId).catch((e) => log('warn', `The profile was saved; reconnecting it failed: ${toErrorData(e).message}`));
      }
      learnedWithoutMap.delete(profileId);
      const wasActive = pool.connection().profileId === profileId;
      await pool.disconnect(profileId);
      // The active one removed and none other connected: fall back as at start (the demo, else the first saved).
      const fallback = demo.enabled ? DEMO_PROFILE_ID : (store.list()[0]?.id ?? null);
      if (wasActive && pool.connection().profileId === null && fallback) {
        await pool.select(fallback).catch((e) => log('warn', `Could not switch to another profile: ${toErrorData(e).message}`));
      }
    },
  };

  // Web mode: profiles from flags, in memory only.
  const flagIds: string[] = [];
  for (const [i, draft] of (env.initialProfiles ?? []).entries()) {
    const parsed = profileInputSchema.safeParse(draft);
    if (!parsed.success) {
      throw new PartnerError({
        code: 'BAD_REQUEST',
        message: `Profile #${i + 1} from the command line is invalid: ${describeIssues(parsed.error.issues)}.`,
        retryable: false,
      });
    }
    flagIds.push(store.save(parsed.data, { ephemeral: true }).id);
  }

  const dispatch = createDispatcher(createHandlers(ctx), { log, tokens: knownTokens });

  // Web mode --detect: each flag profile's service map, detected before it connects.
  for (const id of env.detectServiceMaps ? flagIds : []) {
    try {
      const found = await serviceMapHandlers(ctx).serviceMapDetect({ profileId: id });
      store.saveServiceMap(id, found.map, { detected: true });
      log('warn', `Detected the service map of ${store.view(id).name} (confidence ${found.confidence})${found.warnings.map((w) => `\n  ${w}`).join('')}`);
    } catch (e) {
      log('warn', `Service map detection failed: ${redact(toErrorData(e).message)}`);
    }
  }

  const first = initialProfileId(flagIds);
  if (first) {
    await pool.select(first).catch((e) => log('warn', `Could not open profile at start: ${redact(toErrorData(e).message)}`));
  } else {
    pool.idle('No profile is configured; add one to connect.');
  }

  let disposed = false;
  let disposing: Promise<void> | null = null;
  return {
    dispatch: (name, request, signal) => {
      if (disposed) return Promise.resolve({ ok: false, error: { code: 'CANCELLED', message: 'The app is shutting down.', retryable: false } });
      return dispatch(name, request, signal);
    },
    onEvent: (listener) => events.on(listener),
    dispose() {
      disposing ??= (async () => {
        disposed = true;
        await pool.dispose().catch((e) => log('error', `Cleanup failed: ${toErrorData(e).message}`));
        await demo.stop(); // even under a Test connection still running
        await downloads.stop();
        telemetry.dispose();
        alerts.dispose();
        budgets.dispose();
        stores.closeAll();
        local.close();
        events.clear();
      })();
      return disposing;
    },
  };
}
