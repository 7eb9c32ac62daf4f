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

  it('sends an id back in the kind its own service wrote it, per service, and a non-integer text as a string', () => {
    const ids = new ExactIds();
    const a = { vendor: 'v', baseUrl: 'https://a.example' };
    const b = { vendor: 'v', baseUrl: 'https://b.example' };
    ids.noteRead(a, [new NumberText('9007199254740993'), 42]);
    ids.noteRead(b, ['9007199254740993', '42']);
    expect(ids.fromBridge(a, '9007199254740993')).toEqual(new NumberText('9007199254740993'));
    expect(ids.fromBridge(a, '42')).toBe(42);
    expect(ids.fromBridge(b, '9007199254740993')).toBe('9007199254740993');
    expect(ids.fromBridge(b, '42')).toBe('42');
    expect(ids.fromBridge(a, '00042')).toBe('00042');
    expect(ids.fromBridge(a, 7)).toBe(7);
    // Never seen: the kind its service wrote last.
    expect(ids.fromBridge(a, '7')).toBe(7);
    expect(ids.fromBridge(b, '7')).toBe('7');
    expect(ids.fromBridge({ vendor: 'v', baseUrl: 'https://c.example' }, '7')).toBe('7');
  });
});
