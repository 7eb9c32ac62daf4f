/**
 * sim*: controls of the built-in simulator, only while the active profile is the built-in demo.
 * simState answers null otherwise (the contract's way to say "not on the demo"); the others NOT_FOUND.
 */
import type { z } from 'zod';
import type { simStateSchema } from '../../../shared/bridge/schemas';
import { PartnerError } from '../../../shared/errors';
import type { RunningSimulator } from '../../simulator';
import { notOnDemo } from '../embedded-demo';
import type { ProfileSession } from '../session';
import type { AppContext } from './context';
import type { HandlerGroup } from './types';

type SimStateView = z.output<typeof simStateSchema>;
type Names = 'simState' | 'simSetRefill' | 'simSetDialect' | 'simSetFaults' | 'simSetCompetitors' | 'simSetDemoTraffic' | 'simReset';

/** The simulator refuses bad values with RangeError: that is the caller's mistake, not ours. */
function asBadRequest<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof RangeError || e instanceof TypeError) throw new PartnerError({ code: 'BAD_REQUEST', message: e.message, retryable: false });
    throw e;
  }
}

export function simulatorHandlers(ctx: AppContext): HandlerGroup<Names> {
  const onDemo = (): { session: ProfileSession; sim: RunningSimulator } | null => {
    const session = ctx.currentSession();
    const sim = ctx.demo.running;
    return session && session.profile.demo && sim && !session.isClosed ? { session, sim } : null;
  };
  const required = () =>
    onDemo() ??
    (() => {
      throw notOnDemo();
    })();
  const view = ({ session, sim }: { session: ProfileSession; sim: RunningSimulator }): SimStateView => {
    const state = sim.control.state();
    return {
      url: sim.url,
      refill: state.refill,
      dialect: state.dialect,
      faults: { ...state.faults },
      competitors: state.competitors.map((c) => ({ vendor: c.vendor, endpoint: c.endpoint, rps: c.rps })),
      demoTraffic: session.demoTraffic?.plan() ?? { share: 0, endpoints: [] },
      catalogSize: state.catalogSize,
    };
  };
  return {
    async simState() {
      const demo = onDemo();
      return demo ? view(demo) : null;
    },
    async simSetRefill({ model }) {
      const demo = required();
      demo.sim.control.setRefill(model);
      ctx.demo.refill = model;
      // Anchors taken under the old model say nothing about the new one.
      ctx.telemetry.resetDetector();
      return view(demo);
    },
    /** The demo's payload dialect; the demo profile's service map stays as it is (detection finds the new one). */
    async simSetDialect({ dialect }) {
      const demo = required();
      demo.sim.control.setDialect(dialect);
      return view(demo);
    },
    async simSetFaults(patch) {
      const demo = required();
      asBadRequest(() => demo.sim.control.setFaults(patch));
      return view(demo);
    },
    async simSetCompetitors({ competitors }) {
      const demo = required();
      asBadRequest(() => demo.sim.control.setCompetitors(competitors));
      return view(demo);
    },
    async simSetDemoTraffic({ share, endpoints }) {
      const demo = required();
      demo.session.demoTraffic?.setPlan({ share, endpoints });
      return view(demo);
    },
    async simReset() {
      const demo = required();
      demo.sim.control.resetAll();
      ctx.telemetry.resetDetector();
      return view(demo);
    },
  };
}
