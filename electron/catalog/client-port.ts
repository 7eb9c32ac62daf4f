/**
 * The part of the rate-aware client (electron/client, PartnerClient) that the catalog uses.
 * Structural, so the catalog's pure logic is tested with a fake and PartnerClient fits as is.
 */
import type { BudgetSample } from '../../shared/rate-limit';

export interface ListRequestOptions {
  query: Record<string, string | number | undefined>;
  signal?: AbortSignal;
  priority?: 'interactive' | 'background';
  /** Each attempt's sample of this request (429s included). */
  onSample?: (sample: BudgetSample) => void;
}

export interface CatalogClient {
  request(endpoint: 'listAssets', options: ListRequestOptions): Promise<{ status: number; body: unknown }>;
}
