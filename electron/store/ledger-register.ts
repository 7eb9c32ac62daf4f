/**
 * A registration through the ledger: the guard and the write-ahead (one transaction), then the send
 * with the reference just recorded, then the answer recorded. A crash between the write-ahead and
 * the answer leaves the record "sending", which the next start turns into "unknown". A ledger that
 * cannot take the answer at once (locked, full, read-only) gets it later (PurchaseLedger.settle): the
 * purchase is returned with a warning that says so, never shown as a failure.
 */
import { randomUUID } from 'node:crypto';
import { toErrorData } from '../../shared/errors';
import { assetKey } from './ledger';
import type { LedgerTarget, PurchaseLedger, SeenPurchase } from './ledger';
import type { IntentBody } from '../purchases/purchase-service';

export interface LedgerRegistration<P extends SeenPurchase = SeenPurchase> {
  target: LedgerTarget;
  asset: { id: string | number; title: string | null };
  /** confirmDuplicate.seen: the records the person confirmed registering again despite. */
  seen?: readonly string[];
  /** Sends the registration with this client reference, and the intent's body as first sent (resent exactly when known). */
  send(reference: string, body: IntentBody): Promise<P>;
}

export function newClientReference(): string {
  return `pc-${randomUUID()}`;
}

/** What the user reads when the service did it and the ledger has yet to be written (or could not be: `lost`). */
export function ledgerPendingWords(done: string, landing: { reason: string; lost?: boolean; registeringOff?: boolean }): string {
  if (landing.registeringOff) {
    return `${done}, but the purchase ledger file is damaged and could not record it (${landing.reason}). Do not register it again; registering is off until the app is restarted, which says what the ledger still holds.`;
  }
  if (landing.lost) {
    return `${done}, but the purchase ledger could not record it (${landing.reason}). Do not register it again: the Purchases view may not show it as it is at the service.`;
  }
  return `${done}, but the purchase ledger could not be written just now (${landing.reason}). It will be updated as soon as it can: nothing to do, and do not register it again.`;
}

export async function registerWithLedger<P extends SeenPurchase>(ledger: PurchaseLedger, registration: LedgerRegistration<P>): Promise<P> {
  // A confirmed re-register of an unresolved intent resumes its record and its reference (the idempotency key).
  const { record, resend, sentBody } = ledger.beginIntent(registration.target, registration.asset, newClientReference(), registration.seen);
  const reference = record.reference!;
  const about = assetKey(registration.target, registration.asset.id);
  // The body under the key: a resend sends the first one as it was (a service checks key and body agree).
  const body: IntentBody = {
    sent: sentBody,
    keep: (text) => void ledger.settle(`registration ${reference}: its body`, () => ledger.keepSentBody(record.id, text), about),
  };
  let purchase: P;
  try {
    purchase = await ledger.whileSending(record.id, () => registration.send(reference, body));
  } catch (e) {
    ledger.settle(`registration ${reference} failed`, () => ledger.failRegistration(record.id, toErrorData(e), resend), about);
    throw e;
  }
  const landed = ledger.settle(`registration ${reference}: purchase ${purchase.id}`, () => ledger.finishRegistration(record.id, purchase), about);
  return landed.landed
    ? purchase
    : {
        ...purchase,
        ledgerWarning: ledgerPendingWords(`Purchase ${purchase.id || `with reference ${reference}`} is registered at the service`, landed),
      };
}
