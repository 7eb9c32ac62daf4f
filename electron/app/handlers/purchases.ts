/**
 * The six purchase calls and openExternal. A registration goes through the purchase ledger (its guard
 * and write-ahead); every purchase answer updates the ledger. A URL answer is remembered:
 * openExternal opens only https URLs that downloadUrl/viewUrl returned in this session.
 */
import type { z } from 'zod';
import type { ProfileScoped } from '../../../shared/bridge/profile-scoped';
import type { urlResultSchema } from '../../../shared/bridge/schemas';
import { PartnerError } from '../../../shared/errors';
import type { Purchase as ReadPurchase, PurchaseUrl } from '../../purchases';
import { registerWithLedger } from '../../store';
import type { ProfileSession } from '../session';
import type { AppContext } from './context';
import { ledgerTarget, noteSeen } from './ledger';
import { maskedAnswer } from './service-map';
import type { HandlerGroup } from './types';
import type { Digits } from '../../../shared/json/as-digits';

type Names = 'purchaseInfo' | 'registerPurchase' | 'validatePurchase' | 'downloadUrl' | 'viewUrl' | 'cancelPurchase' | 'findPurchases' | 'openExternal';

const MAX_OPENABLE = 1000;

type UrlResult = z.output<typeof urlResultSchema>;

function toUrlResult(answer: PurchaseUrl): UrlResult {
  return answer;
}

export function purchaseHandlers(ctx: AppContext): HandlerGroup<Names> {
  /** Runs an action that answers with a purchase and records its state in the ledger. */
  const tracked = async (
    scope: ProfileScoped,
    run: (s: ProfileSession) => Promise<ReadPurchase>,
    assetTitle?: string | null,
  ): Promise<Digits<ReadPurchase>> => {
    const session = ctx.session(scope);
    const read = await run(session);
    ctx.ids.noteAnswered(ledgerTarget(session), read.asset_id);
    const purchase = maskedAnswer(ctx, read);
    const ledgerWarning = noteSeen(ctx, session, purchase, assetTitle);
    return ledgerWarning === null ? purchase : { ...purchase, ledgerWarning };
  };
  const remembered = async (scope: ProfileScoped, run: (s: ProfileSession) => Promise<PurchaseUrl>): Promise<UrlResult> => {
    const result = maskedAnswer(ctx, toUrlResult(await run(ctx.session(scope))));
    if (ctx.openable.size >= MAX_OPENABLE) ctx.openable.delete(ctx.openable.values().next().value as string);
    ctx.openable.add(result.url);
    return result;
  };
  return {
    purchaseInfo: ({ purchaseId, ...scope }) => tracked(scope, (s) => s.purchases.info(purchaseId)),
    registerPurchase: ({ assetId, assetTitle, confirmDuplicate, ...scope }) => {
      const session = ctx.session(scope);
      const target = ledgerTarget(session);
      const id = ctx.ids.fromBridge(target, assetId);
      return registerWithLedger(ctx.local.ledger(), {
        target,
        asset: { id: assetId, title: assetTitle },
        seen: confirmDuplicate?.seen,
        send: async (reference, body) => {
          // Kept before it leaves, if the catalog wrote its kind: the Purchases view sends it again so after a restart.
          ctx.ids.noteSent(target, id);
          // Masked before the ledger keeps it or the page shows it: services echo tokens.
          return maskedAnswer(ctx, await session.purchases.register(id, { reference, body }));
        },
      });
    },
    validatePurchase: ({ purchaseId, assetId, ...scope }) =>
      tracked(scope, (s) => s.purchases.validate(purchaseId, assetId === undefined ? {} : { assetId: ctx.ids.fromBridge(ledgerTarget(s), assetId) })),
    cancelPurchase: ({ purchaseId, ...scope }) => tracked(scope, (s) => s.purchases.cancel(purchaseId)),
    downloadUrl: ({ purchaseId, ...scope }) => remembered(scope, (s) => s.purchases.downloadUrl(purchaseId)),
    viewUrl: ({ purchaseId, ...scope }) => remembered(scope, (s) => s.purchases.viewUrl(purchaseId)),
    async findPurchases({ reference, ...scope }) {
      const session = ctx.session(scope);
      const read = await session.purchases.findByReference(reference);
      for (const purchase of read.items) ctx.ids.noteAnswered(ledgerTarget(session), purchase.asset_id);
      const found = maskedAnswer(ctx, read);
      for (const purchase of found.items) if (purchase.id !== '') noteSeen(ctx, session, purchase, null);
      return found;
    },
    async openExternal({ url }) {
      const open = ctx.env.openExternal;
      if (!open) {
        throw new PartnerError({
          code: 'NOT_FOUND',
          message: 'Opening links in the system browser is not available here.',
          hint: 'Copy the link and open it yourself.',
          retryable: false,
        });
      }
      if (!ctx.openable.has(url)) {
        throw new PartnerError({
          code: 'BAD_REQUEST',
          message: 'Only a download or view link that the service returned in this session can be opened.',
          retryable: false,
        });
      }
      await open(url);
      return { ok: true as const };
    },
  };
}
