/**
 * The connected profiles (issue 12 §4): one ProfileSession and one ConnectionTracker per profile, and
 * which of them is ACTIVE (what Catalog, Purchases, Requests and the download work on).
 * - select: connects if needed and makes it active; the previously active one stays connected.
 * - connect: connects in the background (idempotent); the active one is unchanged.
 * - disconnect: closes one; if it was active, the next connected becomes active, or none.
 * Opening, closing and switching never interleave (one chain). A profile whose opening failed stays
 * listed, offline with the reason, until it is selected again or disconnected.
 */
import type { z } from 'zod';
import type { ProfileScoped } from '../../shared/bridge/profile-scoped';
import type { connectedProfileSchema } from '../../shared/bridge/session-schemas';
import type { Clock } from '../../shared/clock';
import { PartnerError, toErrorData } from '../../shared/errors';
import type { BudgetSample } from '../../shared/rate-limit';
import { ConnectionTracker } from './connection-state';
import type { ConnectionTarget, ConnectionView } from './connection-state';
import type { ProfileSession } from './session';

export type ConnectedProfile = z.output<typeof connectedProfileSchema>;

/** What is known of a profile before (and after) it opens. */
export interface PoolTarget extends ConnectionTarget {
  name: string;
}

export interface SessionPoolDeps {
  clock: Clock;
  /** The profile as listed; throws NOT_FOUND for a profile that cannot be connected here. */
  describe(id: string): PoolTarget;
  /** Opens the profile's session, its client's samples fed to `onSample`. */
  open(id: string, onSample: (sample: BudgetSample) => void): Promise<ProfileSession>;
  /** Before a session closes: what else belongs to it (the download, its purchases on the wire); a quitting app has hurried the session. */
  closing(session: ProfileSession): Promise<void>;
  /** No demo profile is connected any more: the embedded simulator may stop. */
  demoIdle(): Promise<void>;
  /** An open profile became the active one (remember it for the next start). */
  activated(id: string): void;
  /** The active profile's connection state (the `connection` event). */
  onConnection(view: ConnectionView): void;
  /** Any connected profile's state, the active one's included (alerts). */
  onState(view: ConnectionView): void;
  /** The connected set or a state changed (the `sessions` event); coalesced per tick. */
  onSessions(items: ConnectedProfile[]): void;
  redact(text: string): string;
  /** How long after a probe settled an offline profile is asked again (default OFFLINE_PROBE_MS). */
  offlineProbeMs?: number;
}

interface Entry {
  target: PoolTarget;
  tracker: ConnectionTracker;
  session: ProfileSession | null;
  /** While offline with an open session: the next probe. */
  probeTimer: unknown;
  /** The session whose probe (its retries included) is under way: one at a time. */
  probing: ProfileSession | null;
}

/** How often an offline profile is asked again (one cheap request), so that it comes back by itself. */
export const OFFLINE_PROBE_MS = 5000;

export const NO_PROFILE_CONNECTED = 'No profile connected.';

/** `name`: the profile's, when it is listed (the active one whose opening failed). */
function notConnected(id: string | undefined, name?: string): PartnerError {
  return id === undefined
    ? new PartnerError({ code: 'NOT_FOUND', message: 'No vendor profile is connected.', hint: 'Select or add a profile first.', retryable: false })
    : new PartnerError({ code: 'NOT_FOUND', message: `The profile "${name ?? id}" is not connected.`, hint: 'Connect it first.', retryable: false });
}

/** A vendor-scoped call named a profile that is not connected: refused, never run on another profile. */
function profileNotConnected(name: string): PartnerError {
  return new PartnerError({
    code: 'PROFILE_NOT_CONNECTED',
    message: `Profile "${name}" is not connected: nothing was sent.`,
    hint: 'Connect it (Settings), then try again; the page may show another profile now.',
    retryable: false,
  });
}

export class SessionPool {
  private readonly entries = new Map<string, Entry>();
  private activeId: string | null = null;
  /** What the connection says while no profile is active. */
  private idleMessage = 'No profile is selected.';
  private chain: Promise<unknown> = Promise.resolve();
  private sessionsQueued = false;
  private disposed = false;
  /** Sessions whose closing runs (waiting for their purchases' answers). */
  private readonly settling = new Set<ProfileSession>();

  constructor(private readonly deps: SessionPoolDeps) {}

  /** The active profile's connection state; offline with a reason while none is active. */
  connection(): ConnectionView {
    const entry = this.activeId === null ? undefined : this.entries.get(this.activeId);
    if (entry) return entry.tracker.current();
    return { state: 'offline', profileId: null, vendor: null, baseUrl: null, demo: false, message: this.idleMessage };
  }

  /** The active profile's open session, if any. */
  active(): ProfileSession | null {
    return this.activeId === null ? null : this.openSession(this.activeId);
  }

  /** A connected profile's session (default: the active one); NOT_FOUND when it is not connected. */
  sessionFor(profileId?: string): ProfileSession {
    // Without an id, the active one: when it failed to open, say so, not that no profile is connected.
    const id = profileId ?? this.activeId ?? undefined;
    const session = id === undefined ? null : this.openSession(id);
    if (!session) throw notConnected(id, id === undefined ? undefined : this.entries.get(id)?.target.name);
    return session;
  }

  /**
   * The session of the profile a page showed; PROFILE_NOT_CONNECTED when it is not connected (never
   * the active one instead), or when it now points elsewhere than the page showed it at.
   */
  sessionOf(scope: ProfileScoped): ProfileSession {
    const session = this.openSession(scope.profileId);
    if (!session) throw profileNotConnected(this.nameOf(scope.profileId));
    const { vendor, baseUrl } = session.profile;
    if (scope.shownAt && (scope.shownAt.vendor !== vendor || scope.shownAt.baseUrl !== baseUrl)) {
      throw new PartnerError({
        code: 'PROFILE_NOT_CONNECTED',
        message: `Profile "${session.profile.name}" now points at vendor ${vendor} at ${baseUrl}; the page showed vendor ${scope.shownAt.vendor} at ${scope.shownAt.baseUrl}: nothing was sent.`,
        hint: 'The profile was edited since the page read this. Open it again from the profile it points at now.',
        retryable: false,
      });
    }
    return session;
  }

  /** Every open session (telemetry and alerts look through them). */
  sessions(): ProfileSession[] {
    return [...this.entries.values()].flatMap((e) => (e.session && !e.session.isClosed ? [e.session] : []));
  }

  /** Is a built-in demo profile connected (then the embedded simulator must keep running)? */
  demoConnected(): boolean {
    return [...this.entries.values()].some((e) => e.target.demo);
  }

  list(): ConnectedProfile[] {
    return [...this.entries.entries()].map(([id, e]) => this.describeEntry(id, e));
  }

  /** Connects if needed (`force`: reconnects) and makes it active; the connection state of it. */
  select(id: string, force = false): Promise<ConnectionView> {
    return this.serial(async () => {
      const entry = await this.ensure(id, force, true);
      return entry.tracker.current();
    });
  }

  /** Connects in the background; the active profile is unchanged (the first one connected becomes active). */
  connect(id: string): Promise<ConnectedProfile> {
    return this.serial(async () => this.describeEntry(id, await this.ensure(id, false, this.activeId === null)));
  }

  /** Reconnects a connected profile (its settings changed); nothing when it is not connected. */
  reconnect(id: string): Promise<void> {
    return this.serial(async () => {
      if (this.entries.has(id)) await this.ensure(id, true, false);
    });
  }

  /**
   * A connected profile's new name (nothing it sends changed): its open session goes on. False when it has no
   * open session (not connected, or still opening from the record before the rename: reconnect it instead).
   */
  rename(id: string, name: string): boolean {
    const entry = this.entries.get(id);
    const session = entry?.session;
    if (!entry || !session || session.isClosed) return false;
    entry.target = { ...entry.target, name };
    session.rename(name);
    this.sessionsChanged();
    return true;
  }

  disconnect(id: string): Promise<ConnectedProfile[]> {
    return this.serial(async () => {
      await this.close(id);
      return this.list();
    });
  }

  /** No profile to open at start: says why. */
  idle(message: string): void {
    this.idleMessage = message;
    if (this.activeId === null) this.deps.onConnection(this.connection());
  }

  /** Closes every session (the app is shutting down), beside a switch under way. */
  async dispose(): Promise<void> {
    this.disposed = true;
    // A reconnect or disconnect under way may be waiting for a purchase's answer: now at most as long as
    // quitting allows. All close together, beside the switch under way, so that the waits do not add up
    // (the shell gives quitting a few seconds in all).
    for (const session of this.settling) session.hurry();
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all([this.chain.catch(() => undefined), ...all.map((entry) => this.closeEntry(entry))]);
    await this.deps.demoIdle();
  }

  /** What belongs to a session is closed (closing), then the session; while it waits, dispose() can hurry it. */
  private async closeSession(session: ProfileSession, quitting: boolean): Promise<void> {
    this.settling.add(session);
    if (quitting) session.hurry();
    try {
      await this.deps.closing(session);
    } finally {
      this.settling.delete(session);
    }
    session.close();
  }

  private serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.chain.then(run);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private openSession(id: string): ProfileSession | null {
    const session = this.entries.get(id)?.session ?? null;
    return session && !session.isClosed ? session : null;
  }

  private nameOf(id: string): string {
    const listed = this.entries.get(id)?.target.name;
    if (listed) return listed;
    try {
      return this.deps.describe(id).name;
    } catch {
      return id; // not a profile here (removed, or never saved)
    }
  }

  private describeEntry(id: string, e: Entry): ConnectedProfile {
    return {
      profileId: id,
      name: e.target.name,
      vendor: e.target.vendor,
      baseUrl: e.target.baseUrl,
      demo: e.target.demo,
      active: id === this.activeId,
      connection: e.tracker.current(),
    };
  }

  /** The open entry of `id`, opened (again, with `force` or after a failure) as needed. */
  private async ensure(id: string, force: boolean, activate: boolean): Promise<Entry> {
    const existing = this.entries.get(id);
    if (existing?.session && !existing.session.isClosed && !force) {
      if (activate) this.activate(id);
      return existing;
    }
    if (this.disposed) throw new PartnerError({ code: 'CANCELLED', message: 'The app is shutting down.', retryable: false });
    const target = this.deps.describe(id);
    const entry = existing ?? this.add(id, target);
    if (existing?.session) {
      await this.closeSession(existing.session, false);
      existing.session = null;
      if (this.disposed) throw new PartnerError({ code: 'CANCELLED', message: 'The app is shutting down.', retryable: false });
    }
    entry.target = target;
    entry.tracker.setTarget(target);
    if (activate) this.activate(id);
    let session: ProfileSession;
    try {
      session = await this.deps.open(id, (sample) => entry.tracker.record(sample));
      // Disconnected while it opened: close what was just opened.
      if (this.entries.get(id) !== entry) {
        session.close();
        throw notConnected(id);
      }
      entry.session = session;
      const p = session.profile;
      entry.target = { profileId: id, name: p.name, vendor: p.vendor, baseUrl: p.baseUrl, demo: p.demo };
      entry.tracker.setTarget(entry.target);
    } catch (e) {
      entry.tracker.fail(this.deps.redact(toErrorData(e).message));
      throw e;
    }
    if (this.activeId === id) this.deps.activated(id);
    // One cheap request, so that the state moves from "connecting" without waiting for a click.
    this.probe(entry, session);
    return entry;
  }

  /**
   * Offline only changes with an answer: with nothing else sent (demo traffic stopped with requests in
   * flight, the service back after an outage) it would stay offline. Asks again while it is, 5 s after the
   * last probe settled (its retries included), so that probes never pile up on a service that does not answer.
   */
  private watchOffline(entry: Entry): void {
    if (entry.probing || entry.probeTimer !== null || entry.tracker.current().state !== 'offline' || !entry.session) return;
    entry.probeTimer = this.deps.clock.setTimeout(() => {
      entry.probeTimer = null;
      const session = entry.session;
      if (!session || session.isClosed || entry.tracker.current().state !== 'offline') return;
      this.probe(entry, session);
    }, this.deps.offlineProbeMs ?? OFFLINE_PROBE_MS);
  }

  /** One cheap request (with the client's retries); when it settles, the next is scheduled if still offline. */
  private probe(entry: Entry, session: ProfileSession): void {
    entry.probing = session;
    const settled = (): void => {
      if (entry.probing === session) entry.probing = null;
      if (entry.session === session && !session.isClosed) this.watchOffline(entry);
    };
    session.client.request('categories', { priority: 'background' }).then(settled, settled);
  }

  private add(id: string, target: PoolTarget): Entry {
    const entry: Entry = {
      target,
      session: null,
      probeTimer: null,
      probing: null,
      tracker: new ConnectionTracker({
        clock: this.deps.clock,
        onChange: (view) => {
          if (this.entries.get(id) !== entry) return;
          if (this.activeId === id) this.deps.onConnection(view);
          this.deps.onState(view);
          this.sessionsChanged();
          this.watchOffline(entry);
        },
      }),
    };
    this.entries.set(id, entry);
    this.sessionsChanged();
    return entry;
  }

  /** Makes `id` the active one; an open one is remembered for the next start. */
  private activate(id: string | null): void {
    if (id !== null && this.openSession(id)) this.deps.activated(id);
    if (this.activeId === id) return;
    this.activeId = id;
    this.deps.onConnection(this.connection());
    this.sessionsChanged();
  }

  private async close(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    await this.closeEntry(entry);
    if (this.activeId === id) {
      const next = this.entries.keys().next();
      this.idleMessage = NO_PROFILE_CONNECTED;
      this.activate(next.done ? null : next.value);
    }
    this.sessionsChanged();
    if (!this.demoConnected()) await this.deps.demoIdle();
  }

  private async closeEntry(entry: Entry): Promise<void> {
    entry.tracker.dispose();
    if (entry.probeTimer !== null) this.deps.clock.clearTimeout(entry.probeTimer);
    entry.probeTimer = null;
    if (!entry.session) return;
    await this.closeSession(entry.session, this.disposed);
  }

  private sessionsChanged(): void {
    if (this.sessionsQueued) return;
    this.sessionsQueued = true;
    queueMicrotask(() => {
      this.sessionsQueued = false;
      if (!this.disposed) this.deps.onSessions(this.list());
    });
  }
}
