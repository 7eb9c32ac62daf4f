/** The dialects' pure parts: the --dialect flag, value conversions, and which purchase "validate this asset" means. */
import { describe, expect, it } from 'vitest';
import { CliError, parseCliArgs } from '../../electron/simulator/cli-args';
import {
  categoryFromNumber,
  categoryNumber,
  decimalString,
  epochS,
  fieldAt,
  minorUnits,
  purchaseFromNumber,
  purchaseNumber,
} from '../../electron/simulator/dialects/convert';
import { dialectNamed } from '../../electron/simulator/dialects';
import { PurchaseBook } from '../../electron/simulator/purchases';
import { SIM_DIALECTS } from '../../shared/sim-dialects';

const noFile = (): string => {
  throw new Error('no file');
};

describe('--dialect', () => {
  it('takes every known dialect name and leaves the default out when absent', () => {
    for (const d of SIM_DIALECTS) {
      const parsed = parseCliArgs(['--dialect', d], noFile);
      expect(parsed.help === false && parsed.options.dialect).toBe(d);
    }
    const none = parseCliArgs([], noFile);
    expect(none.help === false && 'dialect' in none.options).toBe(false);
  });

  it('refuses an unknown name with the list of known ones', () => {
    expect(() => parseCliArgs(['--dialect', 'xml'], noFile)).toThrow(CliError);
    expect(() => parseCliArgs(['--dialect', 'xml'], noFile)).toThrow(/--dialect must be one of default, jsonapi, camel-minor, snake-envelope, got "xml"/);
    expect(() => dialectNamed('JSONAPI')).toThrow(RangeError);
  });
});

describe('conversions', () => {
  it('every x.99 price in minor units and as a decimal string is exact', () => {
    for (let h = 0; h < 200; h++) {
      const major = (h * 100 + 99) / 100;
      expect(minorUnits(major)).toBe(h * 100 + 99);
      expect(decimalString(major)).toBe(`${h}.99`);
    }
  });

  it('purchase ids round-trip through their number; anything not a number stays as given', () => {
    for (const n of [1, 35, 36, 1295, 2_176_782_335]) expect(purchaseNumber(purchaseFromNumber(String(n)))).toBe(n);
    expect(purchaseFromNumber('10')).toBe('p_00000a');
    expect(purchaseFromNumber('p_00000a')).toBe('p_00000a');
    expect(purchaseFromNumber('1e3')).toBe('1e3');
  });

  it('category numbers are 1-based positions; unknown numbers stay visible for the 400', () => {
    expect(categoryNumber('3d-models')).toBe(1);
    expect(categoryFromNumber(1)).toBe('3d-models');
    expect(categoryFromNumber('8')).toBe('vfx');
    expect(categoryFromNumber(9)).toBe('9');
    expect(categoryFromNumber(undefined)).toBeUndefined();
  });

  it('dotted body names reach into nesting, never into arrays or inherited properties', () => {
    expect(fieldAt({ filter: { text: 'x' } }, 'filter.text')).toBe('x');
    expect(fieldAt({ filter: ['x'] }, 'filter.0')).toBeUndefined();
    expect(fieldAt({}, 'toString')).toBeUndefined();
    expect(epochS('2026-01-01T00:00:00.999Z')).toBe(Date.UTC(2026, 0, 1) / 1000);
  });
});

describe('validate by asset', () => {
  it('means the newest registered purchase of that asset, else its newest (for the 409), per vendor', () => {
    const book = new PurchaseBook();
    const asset = { id: 1001, price: 1.99 };
    const a = book.register('demo', asset, undefined, 0);
    const b = book.register('demo', asset, undefined, 0);
    book.register('demo', { id: 1004, price: 2.99 }, undefined, 0);
    expect(book.latestOfAsset('demo', 1001)?.id).toBe(b.id);
    book.act('demo', b.id, 'cancel', 1);
    expect(book.latestOfAsset('demo', 1001)?.id).toBe(a.id);
    book.act('demo', a.id, 'validate', 1);
    expect(book.latestOfAsset('demo', 1001)?.id).toBe(b.id);
    expect(book.latestOfAsset('acme', 1001)).toBeNull();
    expect(book.latestOfAsset('demo', 1007)).toBeNull();
  });
});
