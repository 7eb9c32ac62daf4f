/**
 * One connected profile: its PartnerClient (sharing the process's budget registry), its scope's
 * budget store, its PurchaseService and, on a built-in demo profile, its demo traffic. Closed as a
 * whole on disconnect (several are open at once: session-pool.ts).
 */
import type { BudgetSample } from '../../shared/rate-limit';
import { PartnerClient } from '../client';
import type { BudgetRegistry, ScopeStores, StoreLease } from '../client';
import type { TokenPresentation } from '../profiles';
import { DemoTraffic } from './demo-traffic';
import type { DemoTrafficPlan } from './demo-traffic';
import type { Clock } from '../../shared/clock';
import { PurchaseService } from '../purchases';
import type { ServiceMap } from '../../shared/service-map/schema';
import { profileServiceMap } from '../service-map/profile-map';
import { LearnedNames } from '../service-map/learned-names';
import { keepDetectedLayouts } from '../../shared/service-map/fallback';

/** While the app quits, how long a closing session waits for its purchases' answers: under the desktop shell's 5 s. */
export const QUIT_SETTLE_MS = 3_000;

export interface SessionProfile {
  id: string;
  name: string;
  vendor: string;
  baseUrl: string;
  demo: boolean;
  tokenPresentation: TokenPresentation;
  /** How this service is called and its answers read; absent: the default dialect (not detected yet). */
  serviceMap?: ServiceMap | undefined;
  /** The map holds only an older profile's two names: detected at first contact (profile-map.ts hasSavedMap). */
  serviceMapNamesOnly?: boolean | undefined;
  /** A demo profile's demo traffic from the start (embedded-demo.ts); absent: none until the user asks. */
  demoTraffic?: DemoTrafficPlan | null;
}

export interface SessionDeps {
  fetch: typeof fetch;
  budgets: BudgetRegistry;
  /** Where the client finds its scope's store on each attempt. */
  stores: ScopeStores;
  /** The scope's store, taken for this session (before its first contact): the session's from here on, released in close(). */
  storeLease: StoreLease;
  /** Read on each attempt, so the timeout setting applies to a connected session. */
  timeoutMs: () => number;
  /** Background work's give-up time, read each time as the timeout. */
  stallLimitMs: () => number;
  clock: Clock;
  onSample: (sample: BudgetSample) => void;
  /**
   * A request name a 400 taught (the map with it, marked learned), or an answer layout detected from a
   * first real answer (the map with it): kept for the profile. True when the profile's map took it.
   */
  onLearned?: (map: ServiceMap) => boolean;
}

export class ProfileSession {
  readonly client: PartnerClient;
  /** The tokens the client sends: a download's checkpoint keeps their keyed hashes (never the tokens) to check a resume. */
  readonly tokens: readonly string[];
  readonly purchases: PurchaseService;
  /** The profile's service map: every payload of this session is built and read through it. */
  readonly map: ServiceMap;
  /** The request names this session sends: the map's, and what the service's 400s taught since. */
  readonly names: LearnedNames;
  readonly demoTraffic: DemoTraffic | null;
  private readonly storeLease: StoreLease;
  private readonly unsubscribe: () => void;
  private readonly clock: Clock;
  private hurried: (() => void) | null = null;
  private quitting = false;
  private closed = false;
  private current: SessionProfile;

  /** Throws PartnerError BAD_REQUEST when the profile cannot make a client (a token no header can carry). */
  constructor(profile: SessionProfile, tokens: string[], deps: SessionDeps) {
    this.current = profile;
    this.tokens = [...tokens];
    this.client = new PartnerClient({
      baseUrl: profile.baseUrl,
      vendor: profile.vendor,
      tokens,
      fetch: deps.fetch,
      budgets: deps.budgets,
      stores: deps.stores,
      timeoutMs: deps.timeoutMs,
      stallLimitMs: deps.stallLimitMs,
      tokenPresentation: profile.tokenPresentation,
    });
    this.storeLease = deps.storeLease;
    this.clock = deps.clock;
    this.unsubscribe = this.client.onSample(deps.onSample);
    this.map = profileServiceMap(profile);
    this.names = new LearnedNames(this.map, (map) => deps.onLearned?.(map));
    // What is in use is what the profile's map says (unless the user reviewed it): no note, no detecting again next time.
    keepDetectedLayouts(this.map, (detected) => deps.onLearned?.(detected) === true);
    this.purchases = new PurchaseService(this.client, { map: this.map, names: this.names });
    this.demoTraffic = profile.demo ? new DemoTraffic({ client: this.client, clock: deps.clock, map: this.map }) : null;
    if (profile.demoTraffic) this.demoTraffic?.setPlan(profile.demoTraffic);
  }

  /** The profile as opened, under its latest name. */
  get profile(): SessionProfile {
    return this.current;
  }

  /** A rename changes nothing the session sends (sameConnection): it goes on under the new name. */
  rename(name: string): void {
    this.current = { ...this.current, name };
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Before close(): a registration that has not gone out yet is no longer sent (refused, nothing bought), and
   * the purchase calls on the wire are waited for, at most `ms` (QUIT_SETTLE_MS once hurry() is called: the app
   * quits). close() aborts what is on the wire, and an aborted registration's outcome is unknown.
   */
  async settle(ms: number): Promise<void> {
    this.client.drain();
    const timers: unknown[] = [];
    await Promise.race([
      this.purchases.settled(),
      new Promise<void>((resolve) => {
        timers.push(this.clock.setTimeout(resolve, this.quitting ? Math.min(ms, QUIT_SETTLE_MS) : ms));
        this.hurried = () => timers.push(this.clock.setTimeout(resolve, QUIT_SETTLE_MS));
      }),
    ]);
    this.hurried = null;
    for (const t of timers) this.clock.clearTimeout(t);
  }

  /** The app quits: a settle() under way, or one to come, waits at most QUIT_SETTLE_MS more. */
  hurry(): void {
    if (this.quitting) return;
    this.quitting = true;
    this.hurried?.();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.demoTraffic?.stop();
    this.client.close();
    this.unsubscribe();
    this.storeLease.release();
  }
}
