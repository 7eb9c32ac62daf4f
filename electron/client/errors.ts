/** PartnerError constructors the client shares. Token scrubbing lives in ./redact. */
import { ENDPOINTS } from '../../shared/endpoints';
import type { EndpointId } from '../../shared/endpoints';
import { PartnerError } from '../../shared/errors';

export function label(endpoint: EndpointId): string {
  return ENDPOINTS[endpoint].label;
}

export function cancelledError(endpoint: EndpointId, why = 'The request was cancelled.'): PartnerError {
  return new PartnerError({ code: 'CANCELLED', message: `${label(endpoint)}: ${why}`, endpoint, retryable: true });
}
