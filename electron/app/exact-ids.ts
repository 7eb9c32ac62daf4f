/**
 * Asset ids between main and the page, sent back as the service wrote them. Main reads ids past 2^53
 * as NumberText; the page gets their digits. The page, the route and the ledger then hold an id as
 * text, and "42" or "1234567890123456789" may be a number or a string at the service. So main keeps,
 * per service (keyed as the ledger is), how the service wrote each asset id it read: in memory
 * (bounded, most recent kept), and in the local store for the ids that purchases name (the Purchases
 * view sends them again after a restart). An id from the page goes out in that kind; text that is not
 * a JSON integer ("00042") was never a number, so stays a string.
 *
 * Only kinds the service wrote are kept, never the kind of an id as sent (it may have been a guess).
 * The catalog's reading outranks a purchase answer's: a register request names the catalog's id, and
 * a purchase API may write ids another way.
 */
import { numberTextAsDigits } from '../../shared/json/as-digits';
import type { Digits } from '../../shared/json/as-digits';
import { NumberText } from '../../shared/json/number-text';
import type { Id } from '../../shared/service-map/values';
import { vendorServiceKey } from '../../shared/vendor-key';
import type { IdKind, IdKindStore, IdService, IdSource, KeptKind } from '../store';

/** More than every page a person can have open and scrolled (about 60 bytes each). */
const DEFAULT_LIMIT = 20_000;

/** Text a JSON integer could have been written as (no sign, no leading zero). */
const INTEGER_TEXT = /^(0|[1-9]\d*)$/;

function serviceKeyOf(service: IdService): string {
  const key = vendorServiceKey(service);
  return JSON.stringify([key.vendor, key.baseUrl]);
}
const keyOf = (serviceKey: string, text: string): string => JSON.stringify([serviceKey, text]);

function kindOfId(id: Id): { text: string; kind: IdKind } | null {
  if (id instanceof NumberText) return { text: id.text, kind: 'number' };
  if (typeof id === 'number') return Number.isSafeInteger(id) ? { text: String(id), kind: 'number' } : null;
  return id === '' ? null : { text: id, kind: 'string' };
}

export class ExactIds {
  private readonly seen = new Map<string, { kind: IdKind; source: IdSource }>();
  /** The kind of the id each service's catalog wrote last: how an id it never showed here is sent. */
  private readonly latest = new Map<string, IdKind>();

  constructor(
    private readonly store: IdKindStore | null = null,
    private readonly limit = DEFAULT_LIMIT,
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  /** An answer as the bridge carries it: NumberText as digits. */
  toBridge<T>(value: T): Digits<T> {
    return numberTextAsDigits(value);
  }

  /** Asset ids the catalog wrote (its rows): remembered for this session. */
  noteRead(service: IdService, ids: Iterable<Id>): void {
    const serviceKey = serviceKeyOf(service);
    for (const id of ids) {
      const seen = kindOfId(id);
      if (seen === null) continue;
      this.remember(keyOf(serviceKey, seen.text), seen.kind, 'catalog');
      this.latest.set(serviceKey, seen.kind);
    }
  }

  /** An asset id a purchase answer names: remembered, and kept in the local store for after a restart; never over the catalog's reading. */
  noteAnswered(service: IdService, id: Id): void {
    const seen = kindOfId(id);
    if (seen === null) return;
    const key = keyOf(serviceKeyOf(service), seen.text);
    if (this.seen.get(key)?.source !== 'catalog') this.remember(key, seen.kind, 'purchase');
    this.keep(service, seen.text, seen.kind, 'purchase');
  }

  /** An asset id about to be registered: the catalog's reading of it is kept for after a restart; a guessed kind is not. */
  noteSent(service: IdService, id: Id): void {
    const sent = kindOfId(id);
    const read = sent === null ? undefined : this.seen.get(keyOf(serviceKeyOf(service), sent.text));
    if (sent !== null && read?.source === 'catalog') this.keep(service, sent.text, read.kind, 'catalog');
  }

  /** An asset id from the page (or the route, or the ledger), as the service wrote it. */
  fromBridge(service: IdService, id: number | string): Id {
    if (typeof id === 'number' || !INTEGER_TEXT.test(id)) return id;
    if (this.kindOf(service, id) !== 'number') return id;
    return Number.isSafeInteger(Number(id)) ? Number(id) : new NumberText(id);
  }

  /** The catalog's reading of this id, then of this service, then a purchase answer's, then the kind the service named last. */
  private kindOf(service: IdService, text: string): IdKind | null {
    const seen = this.seen.get(keyOf(serviceKeyOf(service), text));
    if (seen?.source === 'catalog') return seen.kind;
    const kept = this.keptKind(service, text);
    if (kept?.exact && kept.source === 'catalog') return kept.kind;
    return this.latest.get(serviceKeyOf(service)) ?? seen?.kind ?? kept?.kind ?? null;
  }

  private remember(key: string, kind: IdKind, source: IdSource): void {
    // Most recent last: the oldest is let go first.
    this.seen.delete(key);
    this.seen.set(key, { kind, source });
    if (this.seen.size > this.limit) this.seen.delete(this.seen.keys().next().value!);
  }

  private keep(service: IdService, text: string, kind: IdKind, source: IdSource): void {
    try {
      this.store?.note(service, text, kind, source);
    } catch (e) {
      // The id still goes out right this session; only a restart may lose its kind.
      this.warn(`Could not keep how asset id ${text} is written: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private keptKind(service: IdService, text: string): KeptKind | null {
    try {
      return this.store?.kindOf(service, text) ?? null;
    } catch {
      return null;
    }
  }
}
