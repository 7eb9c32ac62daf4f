/**
 * Asset ids between main and the page, sent back as the service wrote them. Main reads ids past 2^53
 * as NumberText; the page gets their digits. The page, the route and the ledger then hold an id as
 * text, and "42" or "1234567890123456789" may be a number or a string at the service. So main keeps,
 * per service (vendor and base URL, as the ledger does), how the service wrote each asset id it read:
 * in memory for the catalog's ids (bounded, most recent kept), and in the local store for the ids
 * that purchases name (the Purchases view opens them again after a restart). An id from the page goes
 * out in that kind; text that is not a JSON integer ("00042") was never a number, so stays a string.
 */
import { numberTextAsDigits } from '../../shared/json/as-digits';
import type { Digits } from '../../shared/json/as-digits';
import { NumberText } from '../../shared/json/number-text';
import type { Id } from '../../shared/service-map/values';
import type { IdKind, IdKindStore, IdService } from '../store';

/** More than every page a person can have open and scrolled (about 60 bytes each). */
const DEFAULT_LIMIT = 20_000;

/** Text a JSON integer could have been written as (no sign, no leading zero). */
const INTEGER_TEXT = /^(0|[1-9]\d*)$/;

const keyOf = (service: IdService, text: string): string => JSON.stringify([service.vendor, service.baseUrl, text]);
const serviceKey = (service: IdService): string => JSON.stringify([service.vendor, service.baseUrl]);

function kindOfId(id: Id): { text: string; kind: IdKind } | null {
  if (id instanceof NumberText) return { text: id.text, kind: 'number' };
  if (typeof id === 'number') return Number.isSafeInteger(id) ? { text: String(id), kind: 'number' } : null;
  return id === '' ? null : { text: id, kind: 'string' };
}

export class ExactIds {
  private readonly read = new Map<string, IdKind>();
  /** The kind of the id each service wrote last: how an id it never showed here is sent. */
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

  /** Asset ids the service wrote (catalog rows): remembered for this session. */
  noteRead(service: IdService, ids: Iterable<Id>): void {
    for (const id of ids) {
      const seen = kindOfId(id);
      if (seen === null) continue;
      const key = keyOf(service, seen.text);
      // Most recent last: the oldest is let go first.
      this.read.delete(key);
      this.read.set(key, seen.kind);
      this.latest.set(serviceKey(service), seen.kind);
      if (this.read.size > this.limit) this.read.delete(this.read.keys().next().value!);
    }
  }

  /** An asset id a purchase names or a registration sent: also kept in the local store, for after a restart. */
  noteKept(service: IdService, id: Id): void {
    this.noteRead(service, [id]);
    const seen = kindOfId(id);
    if (seen === null || this.store === null) return;
    try {
      this.store.note(service, seen.text, seen.kind);
    } catch (e) {
      // The id still goes out right this session; only a restart may lose its kind.
      this.warn(`Could not keep how asset id ${seen.text} is written: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** An asset id from the page (or the route, or the ledger), as the service wrote it. */
  fromBridge(service: IdService, id: number | string): Id {
    if (typeof id === 'number' || !INTEGER_TEXT.test(id)) return id;
    if (this.kindOf(service, id) !== 'number') return id;
    return Number.isSafeInteger(Number(id)) ? Number(id) : new NumberText(id);
  }

  private kindOf(service: IdService, text: string): IdKind | null {
    const read = this.read.get(keyOf(service, text));
    if (read !== undefined) return read;
    const kept = this.keptKind(service, text);
    if (kept?.exact) return kept.kind;
    return this.latest.get(serviceKey(service)) ?? kept?.kind ?? null;
  }

  private keptKind(service: IdService, text: string): ReturnType<IdKindStore['kindOf']> {
    try {
      return this.store?.kindOf(service, text) ?? null;
    } catch {
      return null;
    }
  }
}
