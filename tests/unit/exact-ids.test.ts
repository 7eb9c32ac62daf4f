import { describe, expect, it } from 'vitest';
import { ExactIds } from '../../electron/app/exact-ids';
import { NumberText } from '../../shared/json/number-text';

describe('ExactIds (ids past 2^53 between main and the page)', () => {
  it('gives the page digits, leaves the answer itself untouched, and keeps an own __proto__ key as data', () => {
    const ids = new ExactIds();
    const answer = JSON.parse('{"items":[{"id":1,"__proto__":{"x":1}}],"n":2}') as Record<string, unknown>;
    (answer.items as Record<string, unknown>[])[0]!.id = new NumberText('1234567890123456789');
    const bridged = ids.toBridge(answer) as { items: Record<string, unknown>[] };
    expect(bridged.items[0]!.id).toBe('1234567890123456789');
    expect(Object.getPrototypeOf(bridged.items[0])).toBe(Object.prototype);
    expect(Object.hasOwn(bridged.items[0]!, '__proto__')).toBe(true);
    expect((answer.items as Record<string, unknown>[])[0]!.id).toBeInstanceOf(NumberText);
    const plain = { a: [1, 'x'] };
    expect(ids.toBridge(plain)).toBe(plain);
  });

  it('sends back as number text only digits that left as NumberText, and forgets the oldest past its bound', () => {
    const ids = new ExactIds(2);
    ids.toBridge([new NumberText('9007199254740993'), new NumberText('9007199254740995'), new NumberText('9007199254740997')]);
    expect(ids.fromBridge('9007199254740993')).toBe('9007199254740993');
    expect(ids.fromBridge('9007199254740995')).toEqual(new NumberText('9007199254740995'));
    expect(ids.fromBridge('9007199254740997')).toEqual(new NumberText('9007199254740997'));
    expect(ids.fromBridge('9007199254740999')).toBe('9007199254740999');
    expect(ids.fromBridge(42)).toBe(42);
  });
});
