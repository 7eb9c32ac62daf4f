/**
 * Ids past 2^53 between main and the page. Main reads them as NumberText; the page gets their
 * digits (a string). When the page sends such an id back (register, validate, history), it goes to
 * the service as the service wrote it: number text when the service wrote a number, the string when
 * it wrote a string. For that, the digits of every NumberText that left for the page are remembered
 * (bounded, most recent kept): a string the service wrote was never a NumberText, so it stays a string.
 */
import { numberTextAsDigits } from '../../shared/json/as-digits';
import type { Digits } from '../../shared/json/as-digits';
import { NumberText } from '../../shared/json/number-text';
import type { Id } from '../../shared/service-map/values';

/** More than every page a person can have open and scrolled (about 60 bytes each). */
const DEFAULT_LIMIT = 20_000;

export class ExactIds {
  private readonly sent = new Set<string>();

  constructor(private readonly limit = DEFAULT_LIMIT) {}

  /** An answer as the bridge carries it: NumberText as digits, each remembered. */
  toBridge<T>(value: T): Digits<T> {
    return numberTextAsDigits(value, (n) => this.note(n.text));
  }

  /** An id from the page, as the service wrote it. */
  fromBridge(id: number | string): Id {
    return typeof id === 'string' && this.sent.has(id) ? new NumberText(id) : id;
  }

  private note(digits: string): void {
    // Most recent last: the oldest is let go first.
    this.sent.delete(digits);
    this.sent.add(digits);
    if (this.sent.size > this.limit) this.sent.delete(this.sent.values().next().value!);
  }
}
