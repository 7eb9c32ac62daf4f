/**
 * The purchase ledger's calls: the list (every session) and resolving an unresolved registration,
 * by looking it up at the service or by a person's "I checked".
 */
import type { LedgerRecord } from '../../../shared/bridge/ledger-schemas';
import type { ProfileScoped } from '../../../shared/bridge/profile-scoped';
import { PartnerError } from '../../../shared/errors';
import { sameVendorService } from '../../../shared/vendor-key';
import { assetKey, ledgerPendingWords } from '../../store';
import type { LedgerTarget, SeenPurchase } from '../../store';
import type { ProfileSession } from '../session';
import type { AppContext } from './context';
import type { HandlerGroup } from './types';

type Names = 'ledgerList' | 'ledgerResolve';

export function ledgerTarget(session: ProfileSession): LedgerTarget {
  return { vendor: session.profile.vendor, baseUrl: session.profile.baseUrl, profileId: session.profile.id };
}

/**
 * Records a purchase an action answered with. The action already happened at the service, so a
 * ledger that cannot take it now gets it later (retried until it lands), and the warning for the
 * user says so; never thrown (registrations alone refuse without a ledger).
 */
export function noteSeen(ctx: AppContext, session: ProfileSession, purchase: SeenPurchase, assetTitle: string | null = null): string | null {
  if (!ctx.local.available || purchase.unresolved || purchase.id === '') return null;
  try {
    const ledger = ctx.local.ledger();
    const target = ledgerTarget(session);
    // A purchase of no known asset could be any asset's: its pending write holds every registration back.
    const about = purchase.asset_id === null || purchase.asset_id === '' ? undefined : assetKey(target, purchase.asset_id);
    const landed = ledger.settle(`purchase ${purchase.id} seen`, () => ledger.recordSeen(target, purchase, assetTitle), about);
    return landed.landed ? null : ledgerPendingWords(`Purchase ${purchase.id} is ${purchase.state || 'as shown'} at the service`, landed);
  } catch (e) {
    ctx.log('warn', `Could not record purchase ${purchase.id} in the ledger: ${e instanceof Error ? e.message : String(e)}`);
    return null;
  }
}

/** The session of the profile the page showed, which must be at the record's service: a lookup elsewhere would ask the wrong service. */
function sessionFor(ctx: AppContext, scope: ProfileScoped, record: LedgerRecord): ProfileSession {
  const session = ctx.session(scope);
  if (!sameVendorService(session.profile, record)) {
    throw new PartnerError({
      code: 'BAD_REQUEST',
      message: `This registration was made with vendor ${record.vendor} at ${record.baseUrl}; the connected profile is ${session.profile.vendor} at ${session.profile.baseUrl}.`,
      hint: 'Connect to that profile to look it up.',
      retryable: false,
    });
  }
  return session;
}

export function ledgerHandlers(ctx: AppContext): HandlerGroup<Names> {
  return {
    async ledgerList({ vendor, baseUrl, assetId, state, purchaseState, limit }) {
      if (!ctx.local.available) return { items: [], more: false, states: [], unresolved: 0, vendors: [], problem: ctx.local.problem };
      const ledger = ctx.local.ledger();
      return {
        ...ledger.page({ vendor, baseUrl, assetId, state, purchaseState, limit }),
        states: ledger.states({ vendor, baseUrl, assetId }),
        unresolved: ledger.unresolvedCount(),
        vendors: ledger.vendors(),
        problem: ctx.local.problem,
      };
    },

    async ledgerResolve({ id, action, purchaseId, ...scope }) {
      const ledger = ctx.local.ledger();
      const record = ledger.get(id);
      if (!record) throw new PartnerError({ code: 'NOT_FOUND', message: `No ledger record #${id}.`, retryable: false });
      if (action === 'markChecked') {
        const checked = ledger.markChecked(id);
        return {
          record: checked,
          message:
            checked.state === record.state ? 'Nothing to resolve: this record is settled.' : 'Marked as checked: it no longer stops registering this asset.',
        };
      }
      ledger.refuseInFlight(id);
      const session = sessionFor(ctx, scope, record);
      const knownId = purchaseId ?? record.purchaseId;
      if (knownId) {
        const purchase = await session.purchases.info(knownId);
        if (purchase.asset_id !== null && purchase.asset_id !== '' && String(purchase.asset_id) !== record.assetId) {
          throw new PartnerError({
            code: 'BAD_REQUEST',
            message: `Purchase ${purchase.id} is of asset ${String(purchase.asset_id)}, not of asset ${record.assetId}: not recorded.`,
            retryable: false,
          });
        }
        if (record.reference !== null && purchase.client_reference !== undefined && purchase.client_reference !== record.reference) {
          throw new PartnerError({
            code: 'BAD_REQUEST',
            message: `Purchase ${purchase.id} was registered under reference ${purchase.client_reference}, not this registration's ${record.reference}: not recorded.`,
            hint: 'It is another registration of this asset; this one may still have gone through. Look it up by its reference, or check with the vendor.',
            retryable: false,
          });
        }
        const landed = ledger.settle(
          `lookup of record ${id}: purchase ${purchase.id}`,
          () => ledger.finishRegistration(id, purchase),
          assetKey(record, record.assetId),
        );
        if (!landed.landed) return { record, message: ledgerPendingWords(`Purchase ${purchase.id} is ${purchase.state} at the service`, landed) };
        const settled = landed.value;
        return {
          record: settled,
          message: settled.state === 'registered' ? `Purchase ${purchase.id} is ${purchase.state}.` : (settled.note ?? 'Not recorded.'),
        };
      }
      if (!record.reference)
        throw new PartnerError({ code: 'BAD_REQUEST', message: 'This record has no reference to look up; enter its purchase id.', retryable: false });
      // NOT_FOUND in words when the service map has no lookup by reference.
      // Only items of this reference and asset come back (findByReference checks): anything else is not this registration.
      const found = await session.purchases.findByReference(record.reference, { assetId: record.assetId });
      const [first, ...others] = found.items;
      if (!first && found.missing.length > 0) {
        return {
          record,
          message: `The service's answer to the lookup could not be read whole (not found in it: ${found.missing.join(', ')}), so it does not show that reference ${record.reference} is unknown there. The registration stays unresolved: check with the vendor, enter its purchase id, or set the lookup in the profile's service map.`,
        };
      }
      if (!first && found.warnings.length > 0) {
        return {
          record,
          message: `No purchase in the service's answer has reference ${record.reference} for asset ${record.assetId}, but the answer held other purchases: ${found.warnings.join(' ')} The registration stays unresolved: check with the vendor, or enter its purchase id.`,
        };
      }
      if (!first) {
        return {
          record,
          message: `The service has no purchase with reference ${record.reference}: the registration did not go through. Mark it as checked to register this asset again.`,
        };
      }
      const landed = ledger.settle(
        `lookup of record ${id}: purchase ${first.id}`,
        () => ledger.finishRegistration(id, first),
        assetKey(record, record.assetId),
      );
      // After the record took the first: the others are rows of their own, not rewrites of it.
      for (const other of others) noteSeen(ctx, session, other, record.assetTitle);
      if (!landed.landed) return { record, message: ledgerPendingWords(`Found purchase ${first.id} (${first.state})`, landed) };
      const settled = landed.value;
      if (settled.state !== 'registered') return { record: settled, message: settled.note ?? 'Not recorded.' };
      const more = others.length > 0 ? ` (and ${others.length} more with the same reference, now listed)` : '';
      return { record: settled, message: `Found purchase ${first.id} (${first.state})${more}.` };
    },
  };
}
