import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { takeSecret } from '../../../renderer/src/bridge/secret';

/** A Storage kept in a Map (node has no sessionStorage). */
function memoryStorage(initial: Record<string, string> = {}): Storage {
  const map = new Map(Object.entries(initial));
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, String(v)),
  };
}

const at = (hash: string, pathname = '/', search = '') => ({ hash, pathname, search }) as Location;

describe('takeSecret', () => {
  const replaceState = vi.fn();
  beforeEach(() => {
    replaceState.mockReset();
    vi.stubGlobal('history', { replaceState });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('takes the secret out of the fragment, keeps it for the tab and leaves the default route', () => {
    const storage = memoryStorage();
    expect(takeSecret(at('#secret=s3cr3t', '/', '?x=1'), storage)).toBe('s3cr3t');
    expect(storage.getItem('partner-console.secret')).toBe('s3cr3t');
    expect(replaceState).toHaveBeenCalledWith(null, '', '/?x=1#/budget');
  });

  it('keeps the route that shares the fragment with the secret', () => {
    expect(takeSecret(at('#/catalog?secret=abc'), memoryStorage())).toBe('abc');
    expect(replaceState).toHaveBeenLastCalledWith(null, '', '/#/catalog');
  });

  it('decodes a percent-encoded secret', () => {
    expect(takeSecret(at('#secret=a%2Bb%20c'), memoryStorage())).toBe('a+b c');
  });

  it('does not throw on a mangled percent sequence: it keeps the text as it is', () => {
    expect(takeSecret(at('#secret=ab%E0%A4%A'), memoryStorage())).toBe('ab%E0%A4%A');
    expect(replaceState).toHaveBeenCalled();
  });

  it("falls back to this tab's storage after the fragment was stripped (a reload)", () => {
    const storage = memoryStorage({ 'partner-console.secret': 'kept' });
    expect(takeSecret(at('#/requests'), storage)).toBe('kept');
    expect(replaceState).not.toHaveBeenCalled();
  });

  it('a fresh secret in the fragment replaces the stored one', () => {
    const storage = memoryStorage({ 'partner-console.secret': 'old' });
    expect(takeSecret(at('#secret=new'), storage)).toBe('new');
    expect(storage.getItem('partner-console.secret')).toBe('new');
  });

  it('returns null with no secret anywhere, and with an empty one', () => {
    expect(takeSecret(at(''), memoryStorage())).toBeNull();
    expect(takeSecret(at('#secret='), memoryStorage())).toBeNull();
    expect(takeSecret(at('#/budget'), null)).toBeNull();
  });

  it('works without storage (storage blocked)', () => {
    expect(takeSecret(at('#secret=abc'), null)).toBe('abc');
  });
});
