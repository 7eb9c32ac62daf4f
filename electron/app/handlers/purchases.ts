/**
 * The six purchase calls, the session's purchase list, and openExternal. A URL answer is remembered:
 * openExternal opens only https URLs that downloadUrl/viewUrl returned in this session.
 */
import type { Purchase } from '../../../shared/catalog';
import { PartnerError } from '../../../shared/errors';
import type { UrlResult } from '../purchase-actions';
import type { AppContext } from './context';
import type { HandlerGroup } from './types';

type Names = 'purchaseInfo' | 'registerPurchase' | 'validatePurchase' | 'downloadUrl' | 'viewUrl' | 'cancelPurchase' | 'sessionPurchases' | 'openExternal';

const MAX_OPENABLE = 1000;

export function purchaseHandlers(ctx: AppContext): HandlerGroup<Names> {
  /** Runs an action that answers with a purchase and records its state. */
  const tracked = async (run: (s: ReturnType<AppContext['session']>) => Promise<Purchase>, assetTitle?: string | null): Promise<Purchase> => {
    const session = ctx.session();
    const purchase = await run(session);
    ctx.purchases.record(session.profile.id, purchase, assetTitle);
    return purchase;
  };
  const remembered = async (run: (s: ReturnType<AppContext['session']>) => Promise<UrlResult>): Promise<UrlResult> => {
    const result = await run(ctx.session());
    if (ctx.openable.size >= MAX_OPENABLE) ctx.openable.delete(ctx.openable.values().next().value as string);
    ctx.openable.add(result.url);
    return result;
  };
  return {
    purchaseInfo: ({ purchaseId }) => tracked((s) => s.purchases.info(purchaseId)),
    registerPurchase: ({ assetId, assetTitle }) => tracked((s) => s.purchases.register(assetId), assetTitle),
    validatePurchase: ({ purchaseId }) => tracked((s) => s.purchases.validate(purchaseId)),
    cancelPurchase: ({ purchaseId }) => tracked((s) => s.purchases.cancel(purchaseId)),
    downloadUrl: ({ purchaseId }) => remembered((s) => s.purchases.downloadUrl(purchaseId)),
    viewUrl: ({ purchaseId }) => remembered((s) => s.purchases.viewUrl(purchaseId)),
    async sessionPurchases() {
      const session = ctx.currentSession();
      return { items: session ? ctx.purchases.list(session.profile.id) : [] };
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
