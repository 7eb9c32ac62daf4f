/**
 * A 409 to Cancel or Validate after an earlier attempt's outcome was unknown. The client resends both
 * after a lost answer or a 5xx, so the 409 may answer a resend whose first attempt did the action:
 * "already cancelled" is then a success, not a refusal. Such a 409 is followed by one purchase info:
 * the action's end state is returned as done (with a warning saying how it was found), any other
 * state keeps the refusal, and a lookup that fails leaves the outcome unknown (to be looked up,
 * never "refused"). A 409 to a first attempt is the service's plain refusal, as before.
 */
import { ENDPOINTS } from '../../shared/endpoints';
import { PartnerError, isPartnerError } from '../../shared/errors';
import type { BudgetSample } from '../../shared/rate-limit';
import type { CanonicalState } from '../../shared/service-map/schema';

type Checked = 'cancelPurchase' | 'validatePurchase';

/** The state a purchase is in once the action went through. */
const DONE: Record<Checked, CanonicalState> = { cancelPurchase: 'cancelled', validatePurchase: 'validated' };

interface Looked {
  state: string;
  stateKind?: string | null;
  warnings: string[];
}

/** Sees each attempt's sample: no answer (status 0) or a 5xx leaves that attempt's outcome unknown. */
export type AttemptWatch = (sample: BudgetSample) => void;

/** Runs the action (its requests report their attempts to the watch); a 409 after an unknown outcome is checked (see above). */
export async function checkedAfterConflict<P extends Looked>(
  endpoint: Checked,
  purchaseId: string,
  run: (watch: AttemptWatch) => Promise<P>,
  lookup: () => Promise<P>,
): Promise<P> {
  let unknownBefore = false;
  try {
    return await run((sample) => {
      if (sample.status === 0 || sample.status >= 500) unknownBefore = true;
    });
  } catch (e) {
    if (!isPartnerError(e) || e.code !== 'CONFLICT' || !unknownBefore) throw e;
    let now: P;
    try {
      now = await lookup();
    } catch (lookupError) {
      throw new PartnerError({
        ...e.data,
        code: 'UNKNOWN_OUTCOME',
        message: `${e.message} An earlier attempt, whose answer was lost, may have done it, and purchase ${purchaseId} could not be looked up to tell (${lookupError instanceof Error ? lookupError.message : String(lookupError)}).`,
        hint: `Look purchase ${purchaseId} up before trying again.`,
        retryable: false,
      });
    }
    if (now.stateKind !== DONE[endpoint]) {
      throw new PartnerError({
        ...e.data,
        message: `${e.message} Purchase ${purchaseId} is "${now.state}" at the service (looked up just after an earlier attempt's answer was lost).`,
      });
    }
    const warning = `${ENDPOINTS[endpoint].label} answered 409, and purchase ${purchaseId} is ${now.state} at the service (looked up just after): it is done.`;
    return { ...now, warnings: [...now.warnings, warning] };
  }
}
