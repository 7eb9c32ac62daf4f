/**
 * Learning from a 400: a service's validation message names the field it wanted ("Missing required
 * field: assetId", "purchaseId: expected string"). A 400 created nothing, so the one request the
 * map got wrong may be sent once more, the way the message says. Pure; used for validate, whose
 * shape (which id, where) no free probe can show.
 */
import { ENDPOINTS } from '../endpoints';
import { norm } from './names';
import type { ServiceMap } from './schema';

/** The names a message uses, without the sentence's own punctuation after them ("purchase_id." is purchase_id). */
const wordsOf = (message: string): string[] => (message.match(/[A-Za-z_][A-Za-z0-9_.[\]-]*/g) ?? []).map((w) => w.replace(/[.-]+$/, ''));

type Validate = ServiceMap['validate'];

const PURCHASE_NAMES = new Set(['purchaseid', 'orderid', 'purchaseuuid']);
const ASSET_NAMES = new Set(['assetid', 'itemid', 'productid', 'assetuuid']);

/** The validate shape a 400's message (the service's own words, not ours) asks for, or null when it names nothing new. */
export function validateFrom400(message: string, current: Validate): Validate | null {
  for (const word of wordsOf(message)) {
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

/**
 * The other request names no free probe can show (a registration buys; history and purchases need
 * an id): detection guesses them from the answers' case style. A 400 naming the right one teaches it.
 */
export type LearnableField = 'register.assetIdField' | 'history.assetIdField' | 'purchaseId';

/** The first name of this kind (asset or purchase ids) the message uses, other than the one sent; null: none. */
function namedInstead(message: string, sent: string, kind: 'asset' | 'purchase'): string | null {
  const known = kind === 'asset' ? ASSET_NAMES : PURCHASE_NAMES;
  return wordsOf(message).find((w) => known.has(norm(w)) && w !== sent) ?? null;
}

function marked(map: ServiceMap, field: LearnableField): string[] {
  return [...new Set([...(map.learned ?? []), field])];
}

/**
 * The map with the one request name a 400's message (the service's own words) asks for, marked as
 * learned; null when it names nothing new. For a purchase id, the four calls that sent the same name
 * take a new name together; the name sent, still wanted, belongs in the other place (query vs body) for
 * the refused call, never in a GET's body.
 * `endpoint`: for `purchaseId`, which call was refused.
 */
export function learnFrom400(map: ServiceMap, field: LearnableField, message: string, endpoint?: keyof ServiceMap['purchaseId']): ServiceMap | null {
  if (field === 'register.assetIdField') {
    const name = namedInstead(message, map.register.assetIdField, 'asset');
    return name === null ? null : { ...map, register: { ...map.register, assetIdField: name }, learned: marked(map, field) };
  }
  if (field === 'history.assetIdField') {
    const name = namedInstead(message, map.history.assetIdField, 'asset');
    return name === null ? null : { ...map, history: { ...map.history, assetIdField: name }, learned: marked(map, field) };
  }
  const sent = map.purchaseId[endpoint ?? 'purchaseInfo'];
  // Only a "missing"/"required" message says the name itself was not found (not that its value was wrong).
  const stillWanted = /missing|required/i.test(message) && wordsOf(message).some((w) => w === sent.name);
  const name = namedInstead(message, sent.name, 'purchase');
  if (name === null && !stillWanted) return null;
  const refused = endpoint ?? 'purchaseInfo';
  if (name === null) {
    // The name still wanted belongs in the other place, for the refused call only (the others were not refused
    // so), and never in the body of a GET, which carries none.
    const place = sent.in === 'query' ? ('body' as const) : ('query' as const);
    if (place === 'body' && ENDPOINTS[refused].method === 'GET') return null;
    return { ...map, purchaseId: { ...map.purchaseId, [refused]: { ...sent, in: place } }, learned: marked(map, field) };
  }
  // A new name: every call that sent the old one in the same place moves with it (one service, one name).
  const next = { ...sent, name };
  const purchaseId = Object.fromEntries(
    Object.entries(map.purchaseId).map(([k, p]) => [k, p.in === sent.in && p.name === sent.name ? next : p]),
  ) as ServiceMap['purchaseId'];
  return { ...map, purchaseId, learned: marked(map, field) };
}
