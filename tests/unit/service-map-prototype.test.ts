/**
 * Prototype pollution through a service map (issue 21, item 8): a field name such as `__proto__.body`
 * must never reach Object.prototype, whether the map is imported, saved, or built around the schema;
 * and an answer's own `__proto__` key is read as data.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SERVICE_MAP, parseServiceMap, serviceMapSchema } from '../../shared/service-map/schema';
import { serviceMapCalls } from '../../shared/service-map/bridge';
import { writePath } from '../../shared/service-map/field-path';
import { historyRequest, registerRequest, searchRequest, validateRequest } from '../../shared/service-map/requests';
import { readAsset } from '../../shared/service-map/read';
import { pickItems } from '../../shared/service-map/detect';
import { redactValue } from '../../electron/client/redact';
import type { ServiceMap } from '../../shared/service-map/schema';

const HOSTILE_NAMES = ['__proto__.body', 'constructor.prototype.body', 'data.__proto__', 'prototype', 'a|__proto__.x'];

function polluted(): unknown {
  return (Object.prototype as Record<string, unknown>).body ?? (Object.prototype as Record<string, unknown>).x;
}

afterEach(() => {
  // If the code under test polluted the process, undo it so that other tests in this worker are not hit.
  delete (Object.prototype as Record<string, unknown>).body;
  delete (Object.prototype as Record<string, unknown>).x;
});

describe('a service map with __proto__, constructor or prototype in a name', () => {
  it('is refused on import with a clear message naming the field', () => {
    for (const name of HOSTILE_NAMES) {
      const map = { ...DEFAULT_SERVICE_MAP, register: { ...DEFAULT_SERVICE_MAP.register, assetIdField: name } };
      const parsed = parseServiceMap(JSON.stringify(map));
      expect(parsed.ok, name).toBe(false);
      if (!parsed.ok) expect(parsed.errors).toContain('register.assetIdField: must not use __proto__, constructor or prototype as a field name');
    }
    const readPathMap = { ...DEFAULT_SERVICE_MAP, asset: { ...DEFAULT_SERVICE_MAP.asset, title: 'attributes.__proto__.title' } };
    expect(parseServiceMap(readPathMap)).toEqual({ ok: false, errors: ['asset.title: must not use __proto__, constructor or prototype as a field name'] });
    const placement = { ...DEFAULT_SERVICE_MAP, validate: { in: 'body', name: 'constructor', takes: 'purchase' } };
    expect(parseServiceMap(placement).ok).toBe(false);
    expect(polluted()).toBeUndefined();
  });

  it('is refused by the save call (the bridge schema), and a JSON text with a literal __proto__ key too', () => {
    const map = { ...DEFAULT_SERVICE_MAP, search: { ...DEFAULT_SERVICE_MAP.search, textField: '__proto__.body' } };
    expect(serviceMapCalls.serviceMapSave.request.safeParse({ profileId: 'p1', map }).success).toBe(false);
    expect(serviceMapSchema.safeParse(map).success).toBe(false);
    const text = JSON.stringify(DEFAULT_SERVICE_MAP).replace('"asset_id"', '"__proto__.body"');
    expect(parseServiceMap(text).ok).toBe(false);
    expect(polluted()).toBeUndefined();
  });

  it('writePath refuses such a segment and writes nothing anywhere', () => {
    for (const name of HOSTILE_NAMES) {
      const body: Record<string, unknown> = {};
      expect(() => writePath(body, name.replace('a|', ''), 'polluted'), name).toThrow(/not allowed in a field name/);
      expect(Object.keys(body)).toEqual([]);
    }
    expect(polluted()).toBeUndefined();
    expect(({} as Record<string, unknown>).body).toBeUndefined();
  });

  it('a body built from a map that got around the schema never touches Object.prototype', () => {
    const map = structuredClone(DEFAULT_SERVICE_MAP) as ServiceMap;
    map.register.assetIdField = '__proto__.body';
    map.history.assetIdField = '__proto__.body';
    map.search.textField = 'q|__proto__.body';
    map.validate = { in: 'body', name: '__proto__.body', takes: 'purchase' };
    expect(() => registerRequest(map, 7, 'ref-1')).toThrow();
    expect(() => historyRequest(map, 7)).toThrow();
    expect(() => searchRequest(map, 'x', null, 5)).toThrow();
    expect(() => validateRequest(map, { purchaseId: 'P-1', assetId: 7 })).toThrow();
    expect(polluted()).toBeUndefined();
  });

  it('bodies are built on objects without a prototype, and still serialise as before', () => {
    const { body } = registerRequest(DEFAULT_SERVICE_MAP, 7, 'ref-1');
    expect(Object.getPrototypeOf(body)).toBeNull();
    expect(JSON.stringify(body)).toBe('{"asset_id":7,"client_reference":"ref-1"}');
    const map = structuredClone(DEFAULT_SERVICE_MAP) as ServiceMap;
    map.register.assetIdField = 'data.attributes.asset';
    const nested = registerRequest(map, 7, 'r').body!;
    expect(Object.getPrototypeOf(nested.data)).toBeNull();
    expect(JSON.stringify(nested)).toBe('{"data":{"attributes":{"asset":7}},"client_reference":"r"}');
  });
});

describe("an answer's own __proto__ key", () => {
  it('is kept as an own data key by the token masking, never as a prototype', () => {
    const answer = JSON.parse('{"__proto__": {"x": 1}, "message": "token secret-token-1"}') as unknown;
    const out = redactValue(answer, ['secret-token-1']) as Record<string, unknown>;
    expect(Object.prototype.hasOwnProperty.call(out, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ x: 1 });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { x?: unknown }).x).toBeUndefined();
    expect(({} as { x?: unknown }).x).toBeUndefined();
    expect(JSON.stringify(out)).toBe('{"__proto__":{"x":1},"message":"token secr…-1"}');
  });

  it("is kept as one of an asset's other fields, never as its prototype", () => {
    const item = JSON.parse('{"id": 5, "title": "T", "__proto__": {"price": 999, "x": 1}}') as unknown;
    const asset = readAsset(item, DEFAULT_SERVICE_MAP) as Record<string, unknown>;
    expect(Object.getPrototypeOf(asset)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(asset, '__proto__')?.value).toEqual({ price: 999, x: 1 });
    expect(asset.price).toBeUndefined();
    expect(({} as { x?: unknown }).x).toBeUndefined();
  });

  it('never becomes a path that detection proposes (the schema would refuse the detected map)', () => {
    const body = JSON.parse('{"__proto__": {"items": [{"id": 1, "title": "a"}, {"id": 2, "title": "b"}]}, "constructor": {"data": [{"id": 3}]}}') as unknown;
    const pick = pickItems(body, 'list');
    expect(pick.path ?? '').not.toMatch(/__proto__|constructor/);
  });
});
