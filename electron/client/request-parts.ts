/** The parts of one request every attempt shares: its URL and its headers (the token as the profile presents it). */
import type { EndpointSpec } from '../../shared/endpoints';
import type { QueryValue, TokenPresentation } from './types';

export function requestUrl(baseUrl: string, spec: EndpointSpec, query: Record<string, QueryValue> | undefined): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.append(k, String(v));
  const qs = params.toString();
  return `${baseUrl}${spec.path}${qs ? `?${qs}` : ''}`;
}

export function requestHeaders(presentation: TokenPresentation, token: string, hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  headers[presentation.header] = presentation.scheme === null ? token : `${presentation.scheme} ${token}`;
  if (hasBody) headers['Content-Type'] = 'application/json';
  return headers;
}
