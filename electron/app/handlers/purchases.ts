/**
 * The six purchase calls and openExternal. A registration goes through the purchase ledger (its guard
 * and write-ahead); every purchase answer updates the ledger. A URL answer is remembered:
 * openExternal opens only https URLs that downloadUrl/viewUrl returned in this session.
 */
import type { z } from 'zod';
import type { urlResultSchema } from '../../../shared/bridge/schemas';
import type { Purchase } from '../../../shared/catalog';
import { PartnerError } from '../../../shared/errors';
import type { PurchaseUrl } from '../../purchases';
import { registerWithLedger } from '../../store';
import type { AppContext } from './context';
import { ledgerTarget, noteSeen } from './ledger';
import type { HandlerGroup } from './types';

type Names = 'purchaseInfo' | 'registerPurchase' | 'validatePurchase' | 'downloadUrl' | 'viewUrl' | 'cancelPurchase' | 'openExternal';

const MAX_OPENABLE = 1000;

type UrlResult = z.output<typeof urlResultSchema>;

function toUrlResult(purchaseId: string, answer: PurchaseUrl): UrlResult {
  return {
    purchaseId: answer.purchase_id === undefined ? purchaseId : String(answer.purchase_id),
    url: answer.url,
    expiresAt: answer.expires_at ?? null,
  };
}

export function purchaseHandlers(ctx: AppContext): HandlerGroup<Names> {
  /** Runs an action that answers with a purchase and records its state in the ledger. */
  const tracked = async (run: (s: ReturnType<AppContext['session']>) => Promise<Purchase>, assetTitle?: string | null): Promise<Purchase> => {
    const session = ctx.session();
    const purchase = await run(session);
    noteSeen(ctx, session, purchase, assetTitle);
    return purchase;
  };
  const remembered = async (purchaseId: string, run: (s: ReturnType<AppContext['session']>) => Promise<PurchaseUrl>): Promise<UrlResult> => {
    const result = toUrlResult(purchaseId, await run(ctx.session()));
    if (ctx.openable.size >= MAX_OPENABLE) ctx.openable.delete(ctx.openable.values().next().value as string);
    ctx.openable.add(result.url);
    return result;
  };
  return {
    purchaseInfo: ({ purchaseId }) => tracked((s) => s.purchases.info(purchaseId)),
    registerPurchase: ({ assetId, assetTitle, confirmDuplicate }) => {
      const session = ctx.session();
      return registerWithLedger(ctx.local.ledger(), {
        target: ledgerTarget(session),
        asset: { id: assetId, title: assetTitle },
        seen: confirmDuplicate?.seen,
        send: (reference) => session.purchases.register(assetId, { reference }),
      });
    },
    validatePurchase: ({ purchaseId }) => tracked((s) => s.purchases.validate(purchaseId)),
    cancelPurchase: ({ purchaseId }) => tracked((s) => s.purchases.cancel(purchaseId)),
    downloadUrl: ({ purchaseId }) => remembered(purchaseId, (s) => s.purchases.downloadUrl(purchaseId)),
    viewUrl: ({ purchaseId }) => remembered(purchaseId, (s) => s.purchases.viewUrl(purchaseId)),
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
