/** Purchase operations over the rate-aware client. */
export { PurchaseService } from './purchase-service';
export type { Purchase, PurchaseCallOptions, PurchaseClient, PurchaseServiceOptions, PurchaseUrl } from './purchase-service';
export { purchaseListSchema, purchaseUrlSchema } from './schemas';
