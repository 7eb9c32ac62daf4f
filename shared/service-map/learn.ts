/**
 * Learning from a 400: a service's validation message names the field it wanted ("Missing required
 * field: assetId", "purchaseId: expected string"). A 400 created nothing, so the one request the
 * map got wrong may be sent once more, the way the message says. Pure; used for validate, whose
 * shape (which id, where) no free probe can show.
 */
import { norm } from './names';
import type { ServiceMap } from './schema';

type Validate = ServiceMap['validate'];

const PURCHASE_NAMES = new Set(['purchaseid', 'orderid', 'purchaseuuid']);
const ASSET_NAMES = new Set(['assetid', 'itemid', 'productid', 'assetuuid']);

/** The validate shape a 400's message (the service's own words, not ours) asks for, or null when it names nothing new. */
export function validateFrom400(message: string, current: Validate): Validate | null {
  const names = message.match(/[A-Za-z_][A-Za-z0-9_.[\]-]*/g) ?? [];
  for (const word of names) {
    const key = norm(word);
    if (ASSET_NAMES.has(key) && current.takes !== 'asset') return { ...current, takes: 'asset', name: word };
    if (PURCHASE_NAMES.has(key)) {
      // The name we sent, still wanted: it belongs elsewhere (query vs body).
      if (word === current.name && current.takes === 'purchase') return { ...current, in: current.in === 'body' ? 'query' : 'body' };
      if (word !== current.name) return { ...current, takes: 'purchase', name: word };
    }
  }
  return null;
}
