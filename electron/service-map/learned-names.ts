/**
 * A session's request names as its map says, and as the service's 400s taught them since: a 400
 * created nothing, so a request whose name the map got wrong (a guess from the answers' case style)
 * is sent once more as the 400's message asks (never more: a 400 costs a slot), and the name is kept
 * for the session and handed to `onLearned` (the app saves it in the profile's map, marked learned).
 */
import type { EndpointId } from '../../shared/endpoints';
import { isPartnerError } from '../../shared/errors';
import type { PartnerError } from '../../shared/errors';
import { learnFrom400 } from '../../shared/service-map/learn';
import type { LearnableField } from '../../shared/service-map/learn';
import type { RequestParts } from '../../shared/service-map/requests';
import type { ServiceMap } from '../../shared/service-map/schema';
import type { ApiResponse, RequestOptions } from '../client';

export interface NamesClient {
  request<T = unknown>(endpoint: EndpointId, options?: RequestOptions): Promise<ApiResponse<T>>;
}

/** The service's own message in an error answer (Yii2: `{name, message, code, status}`), else ours. */
function serviceWords(e: PartnerError): string {
  const body = e.data.body as { message?: unknown } | undefined;
  return typeof body?.message === 'string' ? body.message : e.message.replace(/^.*?answered \d+[^:]*:/, '');
}

const WHAT: Record<LearnableField, string> = {
  'register.assetIdField': "the registration's asset field",
  'history.assetIdField': "the history request's asset field",
  purchaseId: "the purchase id's name",
};

export class LearnedNames {
  private current: ServiceMap;

  constructor(
    map: ServiceMap,
    private readonly onLearned: (map: ServiceMap, field: LearnableField) => void = () => undefined,
  ) {
    this.current = map;
  }

  /** The map requests are built with. */
  get map(): ServiceMap {
    return this.current;
  }

  /** Sends the request built from the map; on a 400 that names what the service wanted, once more that way. `note`: what was learned, in words. */
  async send<T = unknown>(
    client: NamesClient,
    field: LearnableField,
    endpoint: EndpointId,
    build: (map: ServiceMap) => RequestParts,
    options: RequestOptions = {},
  ): Promise<{ res: ApiResponse<T>; note: string | null }> {
    const map = this.current;
    try {
      return { res: await client.request<T>(endpoint, { ...options, ...build(map) }), note: null };
    } catch (e) {
      const purchaseCall = field === 'purchaseId' && endpoint in map.purchaseId ? (endpoint as keyof ServiceMap['purchaseId']) : undefined;
      const learned = isPartnerError(e) && e.data.status === 400 ? learnFrom400(map, field, serviceWords(e), purchaseCall) : null;
      if (learned === null) throw e;
      // Kept whatever the retry meets (e.g. a 422 from a service that stored the 400 under the idempotency key):
      // the 400 named the field; forgetting it would repeat the 400 on every call.
      this.current = withLearned(this.current, map, learned, field);
      this.onLearned(this.current, field);
      const res = await client.request<T>(endpoint, { ...options, ...build(learned) });
      return {
        res,
        note: `The service refused ${WHAT[field]} as guessed (400) and named the one it wanted: sent again that way, and kept in the profile's service map as learned.`,
      };
    }
  }
}

/**
 * `current` with only what `learned` changed against `sent` (the map the request was built with):
 * another call may have learned something else meanwhile, which must not be lost.
 */
function withLearned(current: ServiceMap, sent: ServiceMap, learned: ServiceMap, field: LearnableField): ServiceMap {
  const marks = [...new Set([...(current.learned ?? []), field])];
  if (field === 'register.assetIdField') return { ...current, register: { ...current.register, assetIdField: learned.register.assetIdField }, learned: marks };
  if (field === 'history.assetIdField') return { ...current, history: { ...current.history, assetIdField: learned.history.assetIdField }, learned: marks };
  const purchaseId = { ...current.purchaseId };
  for (const k of Object.keys(purchaseId) as (keyof ServiceMap['purchaseId'])[]) {
    if (learned.purchaseId[k] !== sent.purchaseId[k]) purchaseId[k] = learned.purchaseId[k];
  }
  return { ...current, purchaseId, learned: marks };
}
