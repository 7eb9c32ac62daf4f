/**
 * The built-in demo: the simulator on 127.0.0.1 (an ephemeral port) and virtual profiles on it, one
 * per simulator vendor: 'demo' (both demo tokens) and 'demo-acme' (vendor acme), so that two vendors
 * can be connected side by side out of the box. The profiles are never written to the settings file
 * (their URL changes every run, their tokens are the simulator's public demo tokens). The simulator
 * starts when a demo profile connects and stops when none is connected any more, or on dispose.
 */
import { DEFAULT_PAGE_SIZE_PARAM, DEFAULT_ID_FIELD } from '../../shared/catalog';
import { PartnerError } from '../../shared/errors';
import { maskToken } from '../profiles';
import type { ProfileView } from '../profiles';
import { DEFAULT_TOKENS, startSimulator } from '../simulator';
import type { RefillModel, RunningSimulator, SimulatorOptions } from '../simulator';
import type { DemoTrafficPlan } from './demo-traffic';

export const DEMO_PROFILE_ID = 'demo';
export const DEMO_VENDOR = 'demo';

export interface DemoProfileSpec {
  id: string;
  name: string;
  vendor: string;
  /** Demo traffic from the moment it connects (the simulator panel changes it); none: the user switches it on. */
  traffic: DemoTrafficPlan | null;
}

/** The virtual profiles, the first one the default. acme runs a light background load so the two rows differ. */
export const DEMO_PROFILES: readonly DemoProfileSpec[] = [
  { id: DEMO_PROFILE_ID, name: 'Built-in demo service', vendor: DEMO_VENDOR, traffic: null },
  { id: 'demo-acme', name: 'Built-in demo service: acme', vendor: 'acme', traffic: { share: 0.2, endpoints: ['listAssets', 'categories', 'searchAssets'] } },
];

export function demoProfileSpec(id: string): DemoProfileSpec | undefined {
  return DEMO_PROFILES.find((p) => p.id === id);
}

/**
 * The simulator's default tokens are public (the README lists them): Settings shows them beside the demo
 * profile so that a user can try them with curl. Any other token (one the simulator was started with) stays masked.
 */
export function publicDemoText(token: string): { publicText?: string } {
  return DEFAULT_TOKENS.some((t) => t.token === token) ? { publicText: token } : {};
}

export function notOnDemo(): PartnerError {
  return new PartnerError({
    code: 'NOT_FOUND',
    message: 'Not connected to the built-in demo service.',
    hint: 'Select the built-in demo profile to use the simulator controls.',
    retryable: false,
  });
}

export class EmbeddedDemo {
  private sim: RunningSimulator | null = null;
  private starting: Promise<RunningSimulator> | null = null;
  /** Cached, so that telemetry can ask for every sample without reading the simulator's whole state. */
  refill: RefillModel = 'whole-second';

  constructor(
    readonly enabled: boolean,
    private readonly options: SimulatorOptions = {},
  ) {}

  get running(): RunningSimulator | null {
    return this.sim;
  }

  /** Starts the simulator once (concurrent callers share the start). */
  ensure(): Promise<RunningSimulator> {
    if (!this.enabled) {
      return Promise.reject(new PartnerError({ code: 'NOT_FOUND', message: 'The built-in demo service is turned off in this run.', retryable: false }));
    }
    if (this.sim) return Promise.resolve(this.sim);
    this.starting ??= startSimulator({ host: '127.0.0.1', port: 0, ...this.options })
      .then((sim) => {
        this.sim = sim;
        this.refill = sim.control.state().refill;
        return sim;
      })
      .finally(() => (this.starting = null));
    return this.starting;
  }

  async stop(): Promise<void> {
    const pending = this.starting;
    if (pending) await pending.catch(() => undefined);
    const sim = this.sim;
    this.sim = null;
    if (sim) await sim.stop();
  }

  /** Is this one of the built-in demo profiles (whether or not the demo is enabled in this run)? */
  isDemo(id: string): boolean {
    return demoProfileSpec(id) !== undefined;
  }

  /** The demo tokens of one vendor, or of every demo vendor (for masking). */
  tokens(vendor?: string): string[] {
    const source = this.sim?.tokens ?? DEFAULT_TOKENS;
    const vendors = new Set(vendor === undefined ? DEMO_PROFILES.map((p) => p.vendor) : [vendor]);
    return source.filter((t) => vendors.has(t.vendor)).map((t) => t.token);
  }

  /** The profiles listed when the demo is enabled. */
  views(): ProfileView[] {
    return this.enabled ? DEMO_PROFILES.map((p) => this.view(p.id)) : [];
  }

  view(id: string = DEMO_PROFILE_ID): ProfileView {
    const spec = demoProfileSpec(id);
    if (!spec) throw new PartnerError({ code: 'NOT_FOUND', message: `No built-in demo profile "${id}".`, retryable: false });
    return {
      id: spec.id,
      name: spec.name,
      vendor: spec.vendor,
      baseUrl: this.sim?.url ?? 'http://127.0.0.1 (starts when selected)',
      demo: true,
      tokens: this.tokens(spec.vendor).map((t, i) => ({ id: `${spec.id}-${i + 1}`, masked: maskToken(t), ...publicDemoText(t) })),
      tokenPresentation: { header: 'Authorization', scheme: 'Bearer' },
      pageSizeParam: DEFAULT_PAGE_SIZE_PARAM,
      idField: DEFAULT_ID_FIELD,
    };
  }
}
