/**
 * Where a profile comes from: the saved profiles (ProfileStore) or the built-in demo profiles on the
 * embedded simulator (EmbeddedDemo). One place that knows both, for connecting, testing and detecting.
 */
import { PartnerError } from '../../shared/errors';
import type { ProfileStore } from '../profiles';
import { demoProfileSpec } from './embedded-demo';
import type { EmbeddedDemo } from './embedded-demo';
import type { SessionProfile } from './session';
import type { PoolTarget } from './session-pool';

export interface OpenedProfile {
  profile: SessionProfile;
  tokens: string[];
}

function notFound(id: string): PartnerError {
  return new PartnerError({ code: 'NOT_FOUND', message: `No profile with id "${id}".`, retryable: false });
}

export class ProfileSource {
  /** Demo profiles opened for a moment right now: the simulator must outlive them. */
  private borrowedDemos = 0;

  constructor(
    private readonly store: ProfileStore,
    private readonly demo: EmbeddedDemo,
    /** Is a demo profile connected (then the simulator keeps running)? */
    private readonly demoInUse: () => boolean,
  ) {}

  /** The profile as listed, before it opens; throws NOT_FOUND for one that cannot be connected in this run. */
  describe(id: string): PoolTarget {
    const isDemo = this.demo.isDemo(id);
    if (isDemo && !this.demo.enabled)
      throw new PartnerError({ code: 'NOT_FOUND', message: 'The built-in demo service is turned off in this run.', retryable: false });
    const view = isDemo ? this.demo.view(id) : this.store.get(id);
    if (!view) throw notFound(id);
    return { profileId: id, name: view.name, vendor: view.vendor, baseUrl: view.baseUrl, demo: isDemo };
  }

  /** The profile and its plain tokens; a demo profile starts the embedded simulator (the caller stops it). */
  async open(id: string): Promise<OpenedProfile> {
    const spec = demoProfileSpec(id);
    if (spec) {
      const sim = await this.demo.ensure();
      const view = this.demo.view(id);
      return { profile: { ...view, baseUrl: sim.url, demoTraffic: spec.traffic }, tokens: this.demo.tokens(view.vendor) };
    }
    const record = this.store.get(id);
    if (!record) throw notFound(id);
    return { profile: { ...record, demo: false }, tokens: this.store.openTokens(id) };
  }

  /**
   * The profile opened for a moment (Test connection, detection): a simulator started for it stops
   * afterwards unless a demo profile is connected by then.
   */
  async borrow<T>(id: string, use: (opened: OpenedProfile) => Promise<T>): Promise<T> {
    const demo = this.demo.isDemo(id);
    if (demo) this.borrowedDemos += 1;
    try {
      return await use(await this.open(id));
    } finally {
      if (demo) {
        this.borrowedDemos -= 1;
        await this.demoIdle();
      }
    }
  }

  /** No demo profile connected: stops the simulator unless one is borrowed (a test or detection under way). */
  async demoIdle(): Promise<void> {
    if (this.borrowedDemos === 0 && !this.demoInUse()) await this.demo.stop();
  }
}
