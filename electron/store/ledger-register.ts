/**
 * A registration through the ledger: the guard and the write-ahead (one transaction), then the send
 * with the reference just recorded, then the answer recorded. A crash between the write-ahead and
 * the answer leaves the record "sending", which the next start turns into "unknown".
 */
import { randomUUID } from 'node:crypto';
import { toErrorData } from '../../shared/errors';
import type { LedgerTarget, PurchaseLedger, SeenPurchase } from './ledger';

export interface LedgerRegistration<P extends SeenPurchase = SeenPurchase> {
  target: LedgerTarget;
  asset: { id: string | number; title: string | null };
  /** confirmDuplicate.seen: the records the person confirmed registering again despite. */
  seen?: readonly string[];
  /** Sends the registration with this client reference. */
  send(reference: string): Promise<P>;
}

export function newClientReference(): string {
  return `pc-${randomUUID()}`;
}

export async function registerWithLedger<P extends SeenPurchase>(ledger: PurchaseLedger, registration: LedgerRegistration<P>): Promise<P> {
  const reference = newClientReference();
  const record = ledger.beginRegistration(registration.target, registration.asset, reference, registration.seen);
  let purchase: P;
  try {
    purchase = await registration.send(reference);
  } catch (e) {
    ledger.failRegistration(record.id, toErrorData(e));
    throw e;
  }
  ledger.finishRegistration(record.id, purchase);
  return purchase;
}
