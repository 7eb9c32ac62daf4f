import { describe, expect, it } from 'vitest';
import { maskToken, redactText, redactValue } from '../../electron/client/redact';

describe('redactText', () => {
  it('masks a token that contains another whole, whatever the list order', () => {
    const a = 'abc123';
    const b = 'abc123-SECRET-TAIL-xyz';
    for (const tokens of [
      [a, b],
      [b, a],
    ]) {
      const out = redactText(`short ${a} long ${b}.`, tokens);
      expect(out).toBe(`short ${maskToken(a)} long ${maskToken(b)}.`);
      expect(out).not.toContain('SECRET');
      expect(out).not.toContain('TAIL');
      expect(out).not.toContain(b.slice(4, -2));
    }
  });

  it('never masks a masked token again, and leaves text without tokens alone', () => {
    expect(redactText('abcdefgh abcd', ['abcdefgh', 'abcd'])).toBe(`${maskToken('abcdefgh')} ${maskToken('abcd')}`);
    expect(redactText('nothing here', ['x-token', ''])).toBe('nothing here');
    expect(redactText('a.b*c a-b-c', ['a.b*c'])).toBe(`${maskToken('a.b*c')} a-b-c`);
  });
});

describe('redactValue', () => {
  it('masks tokens in nested strings and keys, including a token with a quote and a backslash', () => {
    const token = 'tok"en\\secret-42';
    const value = { message: `bad ${token}`, list: [1, null, { [token]: token }], ok: true };
    const out = redactValue(value, [token]);
    expect(JSON.stringify(out)).not.toContain('secret');
    expect(out).toEqual({ message: `bad ${maskToken(token)}`, list: [1, null, { [maskToken(token)]: maskToken(token) }], ok: true });
    expect(value.message).toBe(`bad ${token}`);
  });
});
