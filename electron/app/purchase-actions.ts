/**
 * The six purchase operations as the handlers need them. Implemented over the client for now;
 * see createPurchaseActions.
 */
import { randomUUID } from 'node:crypto';
import { purchaseSchema } from '../../shared/catalog';
import type { Purchase } from '../../shared/catalog';
import { PartnerError } from '../../shared/errors';
import type { EndpointId } from '../../shared/endpoints';
import { ENDPOINTS } from '../../shared/endpoints';
import type { PartnerClient } from '../client';

export interface UrlResult {
  purchaseId: string;
  url: string;
  expiresAt: string | null;
}

export interface PurchaseActions {
  info(purchaseId: string): Promise<Purchase>;
  register(assetId: number | string): Promise<Purchase>;
  validate(purchaseId: string): Promise<Purchase>;
  downloadUrl(purchaseId: string): Promise<UrlResult>;
  viewUrl(purchaseId: string): Promise<UrlResult>;
  cancel(purchaseId: string): Promise<Purchase>;
}

function invalid(endpoint: EndpointId, what: string, body: unknown): PartnerError {
  return new PartnerError({
    code: 'INVALID_RESPONSE',
    message: `${ENDPOINTS[endpoint].label} answered without ${what}.`,
    endpoint: ENDPOINTS[endpoint].label,
    retryable: false,
    body: JSON.stringify(body)?.slice(0, 300),
  });
}

function asPurchase(endpoint: EndpointId, body: unknown): Purchase {
  const parsed = purchaseSchema.safeParse(body);
  if (!parsed.success) throw invalid(endpoint, 'a purchase (id, asset_id, state)', body);
  return parsed.data;
}

function asUrl(endpoint: EndpointId, purchaseId: string, body: unknown): UrlResult {
  const b = (body ?? {}) as { purchase_id?: unknown; url?: unknown; expires_at?: unknown };
  if (typeof b.url !== 'string' || b.url === '') throw invalid(endpoint, 'a url', body);
  return {
    purchaseId: typeof b.purchase_id === 'string' ? b.purchase_id : purchaseId,
    url: b.url,
    expiresAt: typeof b.expires_at === 'string' ? b.expires_at : null,
  };
}

export function createPurchaseActions(client: Pick<PartnerClient, 'request'>): PurchaseActions {
  const q = (purchaseId: string) => ({ query: { purchase_id: purchaseId }, priority: 'interactive' as const });
  return {
    info: async (id) => asPurchase('purchaseInfo', (await client.request('purchaseInfo', q(id))).body),
    register: async (assetId) => {
      // A reference of our own, so that a purchase whose answer was lost can be found again.
      const body = { asset_id: assetId, client_reference: `pc-${randomUUID()}` };
      return asPurchase('registerPurchase', (await client.request('registerPurchase', { body, priority: 'interactive' })).body);
    },
    validate: async (id) =>
      asPurchase('validatePurchase', (await client.request('validatePurchase', { body: { purchase_id: id }, priority: 'interactive' })).body),
    downloadUrl: async (id) => asUrl('downloadUrl', id, (await client.request('downloadUrl', q(id))).body),
    viewUrl: async (id) => asUrl('viewUrl', id, (await client.request('viewUrl', q(id))).body),
    cancel: async (id) => asPurchase('cancelPurchase', (await client.request('cancelPurchase', q(id))).body),
  };
}
