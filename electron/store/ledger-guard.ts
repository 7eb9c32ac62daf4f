/**
 * The guard's question to a person: which records of an asset stop its registration until they are
 * confirmed, and the words that ask. A confirmation holds for a record in the state it was shown in:
 * one settled since (another window looked it up and found it bought) is asked about again.
 */
import { UNRESOLVED_STATES, confirmationName, recordName } from '../../shared/bridge/ledger-schemas';
import type { LedgerRecord } from '../../shared/bridge/ledger-schemas';
import { PartnerError } from '../../shared/errors';

/** CONFIRMATION_REQUIRED naming the blocking records, unless `seen` confirms each as it is now; null when it does. */
export function confirmationRequired(blocking: readonly LedgerRecord[], seen: readonly string[]): PartnerError | null {
  const unconfirmed = blocking.filter((r) => !seen.includes(confirmationName(r)));
  if (unconfirmed.length === 0) return null;
  const changed = unconfirmed.filter((r) => seen.some((s) => s.startsWith(`${recordName(r)} (`)));
  const since = changed.map((r) => `${recordName(r)} is now ${r.state}`).join('; ');
  const unresolved = unconfirmed.find((r) => UNRESOLVED_STATES.includes(r.state));
  const first = unconfirmed[0]!;
  return new PartnerError({
    code: 'CONFIRMATION_REQUIRED',
    message:
      (since ? `What you confirmed has changed since (${since}): nothing was sent. ` : '') +
      (unresolved
        ? `An earlier registration of this asset may have gone through (reference ${recordName(unresolved)}). Registering again could buy it twice.`
        : `This asset is already bought: purchase ${first.purchaseId ?? recordName(first)}. Registering again buys it a second time.`),
    hint: 'Check it in Purchases, or confirm that you want to register again.',
    retryable: false,
    body: { records: [...blocking] },
  });
}
