import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('../fakes/electron'));

import { contentSecurityPolicy } from '../../electron/shell/csp';
import { createAppProtocolHandler } from '../../electron/shell/protocol';
import { readStaticFile, resolveStaticPath } from '../../electron/shell/static-files';

const parseCsp = (header: string) =>
  new Map(
    header.split(';').map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return [name!, sources] as const;
    }),
  );

describe('Content-Security-Policy', () => {
  it('is strict: self only, no inline or eval scripts, no objects, no base, no framing', () => {
    const csp = parseCsp(contentSecurityPolicy());
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('style-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(contentSecurityPolicy()).not.toMatch(/unsafe-(inline|eval)/);
  });

  it('adds extra connect sources (browser mode’s WebSocket) to connect-src only', () => {
    const csp = parseCsp(contentSecurityPolicy({ connectSrc: ['ws://127.0.0.1:5000'] }));
    expect(csp.get('connect-src')).toEqual(["'self'", 'ws://127.0.0.1:5000']);
    expect(csp.get('default-src')).toEqual(["'self'"]);
  });
});

describe('static files and the app:// protocol handler', () => {
  let base: string;
  let root: string;

  beforeAll(() => {
    base = mkdtempSync(path.join(tmpdir(), 'partner-static-'));
    root = path.join(base, 'renderer');
    mkdirSync(path.join(root, 'assets'), { recursive: true });
    writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Partner Console</title>');
    writeFileSync(path.join(root, 'assets', 'app-1234.js'), 'console.log(1)');
    writeFileSync(path.join(root, 'assets', 'app-1234.css'), 'body{}');
    writeFileSync(path.join(base, 'secret.txt'), 'TOKEN=abc');
    symlinkSync(path.join(base, 'secret.txt'), path.join(root, 'assets', 'link.txt'));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it.each([
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/..%2fsecret.txt',
    '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/..%5csecret.txt',
    '/index.html%00.js',
    '/%E0%A4%A',
  ])('refuses the path %s', async (urlPath) => {
    expect(resolveStaticPath(root, urlPath)).toBeNull();
    const file = await readStaticFile(root, urlPath);
    expect(file.status).toBe(403);
    expect(file.body.toString()).not.toContain('TOKEN');
  });

  it('refuses a symlink that leads out of the renderer folder', async () => {
    const file = await readStaticFile(root, '/assets/link.txt');
    expect(file.status).toBe(403);
    expect(file.body.toString()).not.toContain('TOKEN');
  });

  it('serves files with their content type, index.html for / and for extension-less routes', async () => {
    const js = await readStaticFile(root, '/assets/app-1234.js');
    expect(js).toMatchObject({ status: 200, contentType: 'text/javascript; charset=utf-8' });
    expect(js.body.toString()).toBe('console.log(1)');
    expect((await readStaticFile(root, '/')).body.toString()).toContain('<title>Partner Console</title>');
    expect((await readStaticFile(root, '/purchases')).body.toString()).toContain('<title>Partner Console</title>');
    expect((await readStaticFile(root, '/assets/missing.js')).status).toBe(404);
  });

  it('answers every app:// request with the CSP header, errors included', async () => {
    const handle = createAppProtocolHandler(root);
    const urls = [
      'app://partner/index.html',
      'app://partner/assets/app-1234.css',
      'app://partner/assets/missing.js',
      'app://partner/..%2fsecret.txt',
      'app://elsewhere/index.html',
    ];
    const statuses: number[] = [];
    for (const url of urls) {
      const response = await handle(new Request(url));
      statuses.push(response.status);
      expect(response.headers.get('content-security-policy'), url).toBe(contentSecurityPolicy());
      expect(response.headers.get('x-content-type-options'), url).toBe('nosniff');
    }
    expect(statuses).toEqual([200, 200, 404, 403, 404]);
  });

  it('returns the page body for GET and refuses writes', async () => {
    const handle = createAppProtocolHandler(root);
    const page = await handle(new Request('app://partner/'));
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('Partner Console');
    const post = await handle(new Request('app://partner/index.html', { method: 'POST', body: 'x' }));
    expect(post.status).toBe(405);
  });

  it('says what to do when the renderer is not built', async () => {
    const handle = createAppProtocolHandler(path.join(base, 'not-built'));
    const response = await handle(new Request('app://partner/index.html'));
    expect(response.status).toBe(404);
    expect(await response.text()).toMatch(/npm run build/);
  });
});
