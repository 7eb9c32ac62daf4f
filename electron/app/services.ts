/**
 * The composition root: builds the services both shells serve (IPC in the desktop app, a WebSocket
 * in browser mode) and exposes them as one dispatch function and one event stream.
 */
import { profileInputSchema } from '../../shared/bridge/schemas';
import { PartnerError, toErrorData } from '../../shared/errors';
import { BudgetRegistry } from '../client';
import { createTransport } from '../client/transport';
import { DEFAULT_MAX_RESPONSE_MIB, ProfileStore, redactTokens } from '../profiles';
import { timerClock } from '../../shared/clock';
import { LocalStore } from '../store';
import { UsageService } from '../usage/usage-service';
import { AlertService } from '../alerts/alert-service';
import { createTelemetry } from '../telemetry';
import { ConnectionTracker } from './connection-state';
import type { ConnectionView } from './connection-state';
import { createDispatcher, describeIssues } from './dispatcher';
import { DownloadController } from './download-controller';
import { DEMO_PROFILE_ID, EmbeddedDemo } from './embedded-demo';
import type { AppEnvironment, AppLog, AppServices } from './environment';
import { EventHub } from './event-hub';
import { createHandlers } from './handlers';
import { serviceMapHandlers } from './handlers/service-map';
import type { AppContext } from './handlers';
import { ActiveSession } from './session';
import type { SessionProfile } from './session';

const defaultLog: AppLog = (level, message, detail) => {
  if (level === 'info') return;
  console.error(`[partner-console ${level}] ${message}`, ...(detail === undefined ? [] : [detail]));
};

export async function createAppServices(env: AppEnvironment): Promise<AppServices> {
  const rawLog = env.log ?? defaultLog;
  const store = new ProfileStore({ dataDir: env.dataDir, vault: env.vault });
  const demo = new EmbeddedDemo(env.embeddedSimulator !== false);
  const knownTokens = (): string[] => [...store.knownTokens(), ...demo.tokens()];
  const redact = (text: string): string => redactTokens(text, knownTokens());
  const log: AppLog = (level, message, detail) => rawLog(level, redact(message), typeof detail === 'string' ? redact(detail) : detail);
  if (store.settingsProblem) log('warn', store.settingsProblem);

  const events = new EventHub();
  const budgets = new BudgetRegistry();
  let session: ActiveSession | null = null;
  let disposed = false;

  const telemetry = createTelemetry({
    maskContext: () => ({
      tokens: [...store.knownTokens(), ...(demo.running ? demo.tokens() : [])],
      tokenHeaders: new Set([...store.tokenHeaders(), 'authorization']),
    }),
    // Every request of ours to that bucket still unanswered (all clients share the registry).
    inFlight: (vendor, endpoint) => {
      const s = session;
      if (!s || s.profile.vendor !== vendor) return 0;
      return budgets.bucket(s.profile.baseUrl, vendor, endpoint).snapshot().inFlight;
    },
    refillModel: (vendor) => (session?.profile.demo && session.profile.vendor === vendor ? demo.refill : null),
    // Into the usage history under the profile that sent it (a closing session's late samples are dropped).
    onRecorded: (sample, foreignUse) => {
      if (session && session.profile.vendor === sample.vendor) usage.record(session.profile.id, sample, foreignUse);
      alerts.sample(sample, foreignUse);
    },
  });
  telemetry.onBudget((p) => events.emit('budget', p));
  telemetry.onRequestLog((p) => events.emit('requestLog', p));
  const connection = new ConnectionTracker({
    clock: timerClock,
    onChange: (v) => {
      events.emit('connection', v);
      alerts.connection(v.profileId, v.state);
    },
  });
  const downloads = new DownloadController((v) => {
    events.emit('downloadProgress', v);
    alerts.download(v.state, v.error?.message ?? null);
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
  // The shell's fetch only for what is safe to resend; a fresh undici connection for the rest (transport.ts).
  const baseFetch = createTransport({ pooled: env.fetch, maxResponseBytes: () => (store.settings().maxResponseMiB ?? DEFAULT_MAX_RESPONSE_MIB) * 1024 * 1024 });
  const recordingFetch = telemetry.wrapFetch(baseFetch);

  /** Ends the active session: demo traffic, download, client; the simulator too unless `keepDemo`. */
  async function closeSession(keepDemo: boolean): Promise<void> {
    const s = session;
    session = null;
    alerts.watch(null);
    if (s) {
      s.demoTraffic?.stop();
      await downloads.stop();
      s.close();
    }
    if (!keepDemo) await demo.stop();
  }

  async function profileFor(id: string): Promise<{ profile: SessionProfile; tokens: string[] }> {
    if (id === DEMO_PROFILE_ID) {
      const sim = await demo.ensure();
      const v = demo.view();
      return { profile: { ...v, baseUrl: sim.url }, tokens: demo.tokens() };
    }
    const record = store.get(id);
    if (!record) throw new PartnerError({ code: 'NOT_FOUND', message: `No profile with id "${id}".`, retryable: false });
    return { profile: { ...record, demo: false }, tokens: store.openTokens(id) };
  }

  async function connect(id: string, force: boolean): Promise<ConnectionView> {
    // Choosing the profile that is already connected changes nothing (demo traffic keeps running).
    if (!force && session && !session.isClosed && session.profile.id === id) return connection.current();
    if (disposed) throw new PartnerError({ code: 'CANCELLED', message: 'The app is shutting down.', retryable: false });
    if (id !== DEMO_PROFILE_ID && !store.get(id)) throw new PartnerError({ code: 'NOT_FOUND', message: `No profile with id "${id}".`, retryable: false });
    if (id === DEMO_PROFILE_ID && !demo.enabled) throw new PartnerError({ code: 'NOT_FOUND', message: 'The built-in demo service is turned off in this run.', retryable: false });
    await closeSession(id === DEMO_PROFILE_ID);
    telemetry.resetDetector();
    const placeholder = id === DEMO_PROFILE_ID ? demo.view() : store.view(id);
    connection.setTarget({ profileId: id, vendor: placeholder.vendor, baseUrl: placeholder.baseUrl, demo: placeholder.demo });
    try {
      const { profile, tokens } = await profileFor(id);
      // A fleet's shared budget (Redis), from the profile or the command line; headers only without one.
      budgets.useStore((id === DEMO_PROFILE_ID ? undefined : store.get(id)?.budgetStore) ?? env.budgetStore, (line) => log('warn', line));
      session = new ActiveSession(profile, tokens, {
        fetch: recordingFetch,
        budgets,
        timeoutMs: () => store.settings().timeoutMs,
        clock: timerClock,
        onSample: (s) => {
          telemetry.record(s);
          connection.record(s);
        },
      });
      connection.setTarget({ profileId: id, vendor: profile.vendor, baseUrl: profile.baseUrl, demo: profile.demo });
      alerts.watch({ profileId: id, vendor: profile.vendor, demo: profile.demo });
    } catch (e) {
      const data = toErrorData(e);
      connection.fail(redact(data.message));
      throw e;
    }
    try {
      store.setActive(id);
    } catch (e) {
      log('warn', `Could not remember the active profile: ${toErrorData(e).message}`);
    }
    // One cheap request, so that the state moves from "connecting" without waiting for a click.
    const probe = session;
    void probe.client.request('categories', { priority: 'background' }).catch(() => undefined);
    return connection.current();
  }

  // Profile switches never interleave.
  let chain: Promise<unknown> = Promise.resolve();
  function select(id: string, force = false): Promise<ConnectionView> {
    const next = chain.then(() => connect(id, force));
    chain = next.catch(() => undefined);
    return next;
  }

  /** The profile to open at start: the remembered one, the first flag or saved profile, else the demo. */
  function initialProfileId(flagIds: string[]): string | null {
    const remembered = store.activeId;
    if (remembered === DEMO_PROFILE_ID && demo.enabled) return DEMO_PROFILE_ID;
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
    connection,
    demo,
    downloads,
    local,
    usage,
    alerts,
    budgets,
    fetch: recordingFetch,
    openable,
    settings: () => store.settings(),
    session() {
      if (session && !session.isClosed) return session;
      throw new PartnerError({
        code: 'NOT_FOUND',
        message: 'No vendor profile is connected.',
        hint: 'Select or add a profile first.',
        retryable: false,
      });
    },
    currentSession: () => (session && !session.isClosed ? session : null),
    select: (id) => select(id),
    async reconnectIfActive(profileId, removed) {
      if (connection.current().profileId !== profileId) return;
      if (!removed) {
        await select(profileId, true);
        return;
      }
      const fallback = demo.enabled ? DEMO_PROFILE_ID : (store.list()[0]?.id ?? null);
      if (fallback) await select(fallback).catch((e) => log('warn', `Could not switch to another profile: ${toErrorData(e).message}`));
      else {
        await chain.then(() => closeSession(false));
        connection.setTarget(null);
      }
    },
  };

  // Web mode: profiles from flags, in memory only.
  const flagIds: string[] = [];
  for (const [i, draft] of (env.initialProfiles ?? []).entries()) {
    const parsed = profileInputSchema.safeParse(draft);
    if (!parsed.success) {
      throw new PartnerError({ code: 'BAD_REQUEST', message: `Profile #${i + 1} from the command line is invalid: ${describeIssues(parsed.error.issues)}.`, retryable: false });
    }
    flagIds.push(store.save(parsed.data, { ephemeral: true }).id);
  }

  const dispatch = createDispatcher(createHandlers(ctx), { log, tokens: knownTokens });

  // Web mode --detect: each flag profile's service map, detected before it connects.
  for (const id of env.detectServiceMaps ? flagIds : []) {
    try {
      const found = await serviceMapHandlers(ctx).serviceMapDetect({ profileId: id });
      store.saveServiceMap(id, found.map);
      log('warn', `Detected the service map of ${store.view(id).name} (confidence ${found.confidence})${found.warnings.map((w) => `\n  ${w}`).join('')}`);
    } catch (e) {
      log('warn', `Service map detection failed: ${redact(toErrorData(e).message)}`);
    }
  }

  const first = initialProfileId(flagIds);
  if (first) {
    await select(first).catch((e) => log('warn', `Could not open profile at start: ${redact(toErrorData(e).message)}`));
  } else {
    connection.setTarget(null, 'No profile is configured; add one to connect.');
  }

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
        await chain.catch(() => undefined);
        await closeSession(false).catch((e) => log('error', `Cleanup failed: ${toErrorData(e).message}`));
        connection.dispose();
        telemetry.dispose();
        alerts.dispose();
        budgets.dispose();
        local.close();
        events.clear();
      })();
      return disposing;
    },
  };
}
