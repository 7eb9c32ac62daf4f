/**
 * The built-in demo: the simulator on 127.0.0.1 (an ephemeral port) and a demo profile on it
 * (vendor 'demo', both demo tokens). The profile is virtual: never written to the settings file
 * (its URL changes every run, its tokens are the simulator's public demo tokens). The simulator
 * starts when the demo profile is selected and stops when another profile is, or on dispose.
 */
import { DEFAULT_PAGE_SIZE_PARAM, DEFAULT_ID_FIELD } from '../../shared/catalog';
import { PartnerError } from '../../shared/errors';
import { maskToken } from '../profiles';
import type { ProfileView } from '../profiles';
import { DEFAULT_TOKENS, startSimulator } from '../simulator';
import type { RefillModel, RunningSimulator, SimulatorOptions } from '../simulator';

export const DEMO_PROFILE_ID = 'demo';
export const DEMO_VENDOR = 'demo';

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

  tokens(): string[] {
    const source = this.sim?.tokens ?? DEFAULT_TOKENS;
    return source.filter((t) => t.vendor === DEMO_VENDOR).map((t) => t.token);
  }

  view(): ProfileView {
    return {
      id: DEMO_PROFILE_ID,
      name: 'Built-in demo service',
      vendor: DEMO_VENDOR,
      baseUrl: this.sim?.url ?? 'http://127.0.0.1 (starts when selected)',
      demo: true,
      tokens: this.tokens().map((t, i) => ({ id: `demo-${i + 1}`, masked: maskToken(t) })),
      tokenPresentation: { header: 'Authorization', scheme: 'Bearer' },
      pageSizeParam: DEFAULT_PAGE_SIZE_PARAM,
      idField: DEFAULT_ID_FIELD,
    };
  }
}
