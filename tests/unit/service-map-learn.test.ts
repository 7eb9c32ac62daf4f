/** Request names learned from a 400's message (shared/service-map/learn.ts): which field, which name, marked learned. */
import { describe, expect, it } from 'vitest';
import { learnFrom400 } from '../../shared/service-map/learn';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';
import type { ServiceMap } from '../../shared/service-map/schema';

const camel: ServiceMap = {
  ...DEFAULT_SERVICE_MAP,
  register: { assetIdField: 'assetId', referenceField: 'clientReference' },
  history: { ...DEFAULT_SERVICE_MAP.history, assetIdField: 'assetId' },
  purchaseId: {
    purchaseInfo: { in: 'query', name: 'purchaseId' },
    downloadUrl: { in: 'query', name: 'purchaseId' },
    viewUrl: { in: 'query', name: 'purchaseId' },
    cancelPurchase: { in: 'body', name: 'id' },
  },
};

describe('learnFrom400', () => {
  it("takes the asset field the service's message names, and marks it learned", () => {
    const learned = learnFrom400(camel, 'register.assetIdField', 'Invalid request body: asset_id: Invalid input');
    expect(learned?.register).toEqual({ assetIdField: 'asset_id', referenceField: 'clientReference' });
    expect(learned?.learned).toEqual(['register.assetIdField']);
    expect(learnFrom400(camel, 'history.assetIdField', 'Missing required field: item_id')?.history.assetIdField).toBe('item_id');
  });

  it('learns nothing from a message that names only what was sent, or no id at all', () => {
    expect(learnFrom400(camel, 'register.assetIdField', 'assetId: expected a number')).toBeNull();
    expect(learnFrom400(camel, 'register.assetIdField', 'The request body is not JSON.')).toBeNull();
    expect(learnFrom400(camel, 'purchaseId', 'Parameter "purchaseId" must be a string.', 'purchaseInfo')).toBeNull();
  });

  it("a purchase id's new name moves every call that sent the old one; a name still missing moves to the other place", () => {
    const renamed = learnFrom400(camel, 'purchaseId', 'Give exactly one of the parameters "purchase_id" and "client_reference".', 'viewUrl');
    expect(renamed?.purchaseId).toEqual({
      purchaseInfo: { in: 'query', name: 'purchase_id' },
      downloadUrl: { in: 'query', name: 'purchase_id' },
      viewUrl: { in: 'query', name: 'purchase_id' },
      cancelPurchase: { in: 'body', name: 'id' },
    });
    // Still wanted: the refused call's name goes to the other place; the calls not refused stay as they were.
    const moved = learnFrom400(DEFAULT_SERVICE_MAP, 'purchaseId', 'Missing required parameter: purchase_id', 'cancelPurchase');
    expect(moved?.purchaseId).toEqual({ ...DEFAULT_SERVICE_MAP.purchaseId, cancelPurchase: { in: 'body', name: 'purchase_id' } });
    expect(moved?.learned).toEqual(['purchaseId']);
    // ... but never into a GET's body, which the client refuses to send: nothing learned.
    expect(learnFrom400(camel, 'purchaseId', 'Missing required parameter: purchaseId', 'purchaseInfo')).toBeNull();
  });

  it("a name ending a sentence is learned without the sentence's full stop", () => {
    expect(learnFrom400(camel, 'purchaseId', 'Missing required parameter: purchase_id.', 'purchaseInfo')?.purchaseId.purchaseInfo).toEqual({
      in: 'query',
      name: 'purchase_id',
    });
  });
});
