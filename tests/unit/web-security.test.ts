import { describe, expect, it } from 'vitest';
import { allowedHostPorts, hostIsAllowed, isLoopbackHost, originIsAllowed, printableHost } from '../../electron/web/origins';
import { parseClientMessage } from '../../electron/web/protocol';
import { createSecret, secretMatches } from '../../electron/web/secret';

describe('browser-mode secret', () => {
  it('is 32 random bytes in base64url, fresh each time', () => {
    const a = createSecret();
    const b = createSecret();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(a).not.toBe(b);
  });

  it('matches only itself', () => {
    const secret = createSecret();
    expect(secretMatches(secret, secret)).toBe(true);
    expect(secretMatches(secret, `${secret}x`)).toBe(false);
    expect(secretMatches(secret, secret.slice(0, -1))).toBe(false);
    expect(secretMatches(secret, '')).toBe(false);
    expect(secretMatches(secret, null)).toBe(false);
    expect(secretMatches(secret, undefined)).toBe(false);
  });
});

describe('browser-mode hosts and origins', () => {
  const loopback = allowedHostPorts('127.0.0.1', 5000, {}, 'box');

  it('on loopback accepts 127.0.0.1 and localhost at our port only', () => {
    expect([...loopback].sort()).toEqual(['127.0.0.1:5000', 'localhost:5000']);
    expect(hostIsAllowed('127.0.0.1:5000', loopback)).toBe(true);
    expect(hostIsAllowed('LOCALHOST:5000', loopback)).toBe(true);
    expect(hostIsAllowed('127.0.0.1:5001', loopback)).toBe(false);
    expect(hostIsAllowed('evil.example:5000', loopback)).toBe(false);
    expect(hostIsAllowed(undefined, loopback)).toBe(false);
  });

  it('accepts only our own http origin', () => {
    expect(originIsAllowed('http://127.0.0.1:5000', loopback)).toBe(true);
    expect(originIsAllowed('http://localhost:5000', loopback)).toBe(true);
    for (const foreign of [
      'http://evil.example:5000',
      'https://127.0.0.1:5000',
      'http://127.0.0.1:5001',
      'null',
      'file://',
      'http://127.0.0.1:5000/path',
      'app://partner',
    ]) {
      expect(originIsAllowed(foreign, loopback), foreign).toBe(false);
    }
    expect(originIsAllowed(undefined, loopback)).toBe(false);
  });

  it('bound to a wildcard accepts the machine’s own addresses', () => {
    const interfaces = { eth0: [{ address: '192.168.1.20', family: 'IPv4' }], lo: [{ address: '::1', family: 'IPv6' }] } as never;
    const wide = allowedHostPorts('0.0.0.0', 8080, interfaces, 'mybox');
    expect(originIsAllowed('http://192.168.1.20:8080', wide)).toBe(true);
    expect(originIsAllowed('http://[::1]:8080', wide)).toBe(true);
    expect(originIsAllowed('http://mybox:8080', wide)).toBe(true);
    expect(originIsAllowed('http://192.168.1.21:8080', wide)).toBe(false);
    expect(printableHost('0.0.0.0')).toBe('127.0.0.1');
    expect(printableHost('::1')).toBe('[::1]');
  });

  it('knows loopback addresses', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '192.168.1.2', 'example.com', '::']) expect(isLoopbackHost(host), host).toBe(false);
  });
});

describe('browser-mode client messages', () => {
  it('reads a call', () => {
    expect(parseClientMessage('{"t":"call","id":7,"name":"categories","request":{}}')).toEqual({
      ok: true,
      message: { t: 'call', id: 7, name: 'categories', request: {} },
    });
  });

  it.each([
    ['not json', null, /Not JSON/],
    ['[]', null, /Not a call/],
    ['null', null, /Not a call/],
    ['{"t":"call","id":-1,"name":"x","request":{}}', null, /id/],
    ['{"t":"call","id":1.5,"name":"x"}', null, /id/],
    ['{"t":"hello","id":3,"name":"x"}', 3, /t/],
    ['{"t":"call","id":4,"name":42}', 4, /name/],
  ])('refuses %s with an error naming the problem', (text, id, message) => {
    const parsed = parseClientMessage(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.id).toBe(id);
    expect(parsed.message).toMatch(message);
  });
});
