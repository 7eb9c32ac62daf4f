/** Purchase operations over the rate-aware client, through the profile's service map. */
export { PurchaseService } from './purchase-service';
export type { Purchase, PurchaseCallOptions, PurchaseClient, PurchaseServiceOptions, PurchaseUrl, RegisterOptions } from './purchase-service';
