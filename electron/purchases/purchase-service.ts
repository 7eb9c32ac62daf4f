/**
 * The six purchase operations as typed calls over the rate-aware client. Arguments are checked
 * before anything is sent; answers are checked against loose schemas (INVALID_RESPONSE if they do
 * not fit). Every error is a PartnerError (shared/errors.ts):
 *   BAD_REQUEST (bad argument, not sent; or 400), UNAUTHORIZED, NOT_FOUND (unknown purchase),
 *   CONFLICT (the purchase's state forbids it), RATE_LIMITED, SERVER_ERROR, NETWORK, TIMEOUT,
 *   CANCELLED, INVALID_RESPONSE, and for register only UNKNOWN_OUTCOME.
 *
 * Registration is the one operation that creates something and the service promises no
 * idempotency, so the client never resends it after an unknown outcome. Each registration carries
 * a fresh client_reference; if its outcome is unknown, the error names that reference and how to
 * look it up (findByReference) before registering again, and carries it as body.client_reference
 * (the service's own body, if any, as body.response).
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { purchaseSchema } from '../../shared/catalog';
import type { Purchase } from '../../shared/catalog';
import { ENDPOINTS } from '../../shared/endpoints';
import type { EndpointId } from '../../shared/endpoints';
import { PartnerError, isPartnerError } from '../../shared/errors';
import type { ApiResponse, Priority, RequestOptions } from '../client';
import type { PurchaseUrl } from './schemas';
import { purchaseListSchema, purchaseUrlSchema } from './schemas';

/** The part of PartnerClient used here (structural, so tests can pass a fake). */
export interface PurchaseClient {
  request<T = unknown>(endpoint: EndpointId, options?: RequestOptions): Promise<ApiResponse<T>>;
}

export interface PurchaseCallOptions {
  signal?: AbortSignal;
  /** Default 'interactive' (a user's click). */
  priority?: Priority;
  /** A specific token of the vendor. */
  token?: string;
}

export interface PurchaseServiceOptions {
  /** Makes a fresh client_reference per registration (default: 'pc-' + a random UUID). */
  newReference?: () => string;
}

export type { Purchase, PurchaseUrl };

const MAX_ID_LENGTH = 200;

function badArgument(endpoint: EndpointId, message: string): PartnerError {
  return new PartnerError({ code: 'BAD_REQUEST', message: `${ENDPOINTS[endpoint].label}: ${message}. Not sent.`, endpoint, retryable: false });
}

function checkId(endpoint: EndpointId, name: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw badArgument(endpoint, `${name} must be a non-empty string`);
  if (value.length > MAX_ID_LENGTH) throw badArgument(endpoint, `${name} is longer than ${MAX_ID_LENGTH} characters`);
  return value.trim();
}

function checkAssetId(value: unknown): number | string {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  if (typeof value === 'string' && value.trim() !== '' && value.length <= MAX_ID_LENGTH) return /^\d+$/.test(value.trim()) ? Number(value.trim()) : value.trim();
  throw badArgument('registerPurchase', 'assetId must be a positive whole number or a non-empty id');
}

function fit<S extends z.ZodType>(endpoint: EndpointId, schema: S, body: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
    .join('; ');
  throw new PartnerError({
    code: 'INVALID_RESPONSE',
    message: `${ENDPOINTS[endpoint].label} did not answer with ${what} (${issues})`,
    endpoint,
    retryable: false,
    body,
  });
}

export class PurchaseService {
  private readonly newReference: () => string;

  constructor(
    private readonly client: PurchaseClient,
    options: PurchaseServiceOptions = {},
  ) {
    this.newReference = options.newReference ?? (() => `pc-${randomUUID()}`);
  }

  /** A purchase by id. */
  async info(purchaseId: string, options: PurchaseCallOptions = {}): Promise<Purchase> {
    const id = checkId('purchaseInfo', 'purchaseId', purchaseId);
    const res = await this.client.request('purchaseInfo', { ...options, query: { purchase_id: id } });
    return fit('purchaseInfo', purchaseSchema, res.body, 'a purchase');
  }

  /** Purchases registered with a client_reference (how to find out what an unknown outcome did). */
  async findByReference(reference: string, options: PurchaseCallOptions = {}): Promise<Purchase[]> {
    const ref = checkId('purchaseInfo', 'reference', reference);
    const res = await this.client.request('purchaseInfo', { ...options, query: { client_reference: ref } });
    return fit('purchaseInfo', purchaseListSchema, res.body, 'a list of purchases');
  }

  /** Registers a purchase of an asset under a fresh client_reference; sent once, never resent blindly. */
  async register(assetId: number | string, options: PurchaseCallOptions = {}): Promise<Purchase> {
    const asset = checkAssetId(assetId);
    const reference = this.newReference();
    let res: ApiResponse;
    try {
      res = await this.client.request('registerPurchase', { ...options, body: { asset_id: asset, client_reference: reference } });
    } catch (e) {
      if (isPartnerError(e) && e.code === 'UNKNOWN_OUTCOME') {
        throw new PartnerError({
          ...e.data,
          message: `${e.message} Registration reference: ${reference}.`,
          hint: `It may or may not have been registered. Before registering again, look it up: purchase info with client_reference=${reference} (PurchaseService.findByReference("${reference}")).`,
          // The reference as data, so the renderer need not parse it out of the words.
          body: { client_reference: reference, ...(e.data.body !== undefined ? { response: e.data.body } : {}) },
        });
      }
      throw e;
    }
    const purchase = fit('registerPurchase', purchaseSchema, res.body, 'a purchase');
    // The reference is how this purchase is found again; keep it on the result even if not echoed.
    return { ...purchase, client_reference: purchase.client_reference ?? reference };
  }

  /** Validates a registered purchase before payment. */
  async validate(purchaseId: string, options: PurchaseCallOptions = {}): Promise<Purchase> {
    const id = checkId('validatePurchase', 'purchaseId', purchaseId);
    const res = await this.client.request('validatePurchase', { ...options, body: { purchase_id: id } });
    return fit('validatePurchase', purchaseSchema, res.body, 'a purchase');
  }

  /** The download link of a validated purchase. */
  async downloadUrl(purchaseId: string, options: PurchaseCallOptions = {}): Promise<PurchaseUrl> {
    const id = checkId('downloadUrl', 'purchaseId', purchaseId);
    const res = await this.client.request('downloadUrl', { ...options, query: { purchase_id: id } });
    return fit('downloadUrl', purchaseUrlSchema, res.body, 'a download URL');
  }

  /** The view link of a purchase. */
  async viewUrl(purchaseId: string, options: PurchaseCallOptions = {}): Promise<PurchaseUrl> {
    const id = checkId('viewUrl', 'purchaseId', purchaseId);
    const res = await this.client.request('viewUrl', { ...options, query: { purchase_id: id } });
    return fit('viewUrl', purchaseUrlSchema, res.body, 'a view URL');
  }

  /** Cancels a purchase. */
  async cancel(purchaseId: string, options: PurchaseCallOptions = {}): Promise<Purchase> {
    const id = checkId('cancelPurchase', 'purchaseId', purchaseId);
    const res = await this.client.request('cancelPurchase', { ...options, query: { purchase_id: id } });
    return fit('cancelPurchase', purchaseSchema, res.body, 'a purchase');
  }
}
