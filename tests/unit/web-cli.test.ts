import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWebArgs, profilesFromArgs } from '../../electron/web/args';
import { defaultWebDataDir } from '../../electron/web/data-dir';
import { browserCommand } from '../../electron/web/open-browser';

describe('npm run web arguments', () => {
  it('defaults to loopback, an ephemeral port, opening a browser and the embedded simulator', () => {
    expect(parseWebArgs([])).toEqual({
      ok: true,
      options: {
        port: 0,
        host: '127.0.0.1',
        open: true,
        dataDir: null,
        rendererDir: null,
        embeddedSimulator: true,
        baseUrl: null,
        tokens: [],
        serviceMapFile: null,
        detect: false,
        noDetect: false,
        budgetStore: null,
        help: false,
      },
    });
  });

  it('reads every flag, in both --flag value and --flag=value forms', () => {
    const parsed = parseWebArgs([
      '--port',
      '5173',
      '--host=0.0.0.0',
      '--no-open',
      '--data-dir',
      '/tmp/d',
      '--renderer-dir',
      '/tmp/r',
      '--no-simulator',
      '--token',
      'acme:t1',
      '--token=acme:t2',
      '--base-url',
      'https://p.example/api/',
      '--budget-store',
      'redis://127.0.0.1:6379/0',
    ]);
    expect(parsed).toEqual({
      ok: true,
      options: {
        port: 5173,
        host: '0.0.0.0',
        open: false,
        dataDir: '/tmp/d',
        rendererDir: '/tmp/r',
        embeddedSimulator: false,
        baseUrl: 'https://p.example/api',
        tokens: [
          { vendor: 'acme', token: 't1' },
          { vendor: 'acme', token: 't2' },
        ],
        serviceMapFile: null,
        detect: false,
        noDetect: false,
        budgetStore: 'redis://127.0.0.1:6379/0',
        help: false,
      },
    });
  });

  it.each([
    [['--port', 'abc'], /--port/],
    [['--port', '70000'], /--port/],
    [['--port', ''], /--port/],
    [['--port', '0x50'], /--port/],
    [['--port', '8e3'], /--port/],
    [['--port'], /--port/],
    [['--host'], /--host/],
    [['--token', 'no-colon'], /VENDOR:TOKEN/],
    [['--token', ':t'], /VENDOR:TOKEN/],
    [['--budget-store', 'http://x:1'], /--budget-store must be a redis:/],
    [['--budget-store'], /--budget-store needs a URL/],
    [['--token', 'acme:t'], /--base-url/],
    [['--base-url', 'https://p.example'], /--token/],
    [['--base-url', 'ftp://p.example', '--token', 'a:b'], /http/],
    [['--base-url', 'not a url', '--token', 'a:b'], /not a URL/],
    [['--verbose'], /Unknown option --verbose/],
  ])('refuses %j with a clear message', (argv, message) => {
    const parsed = parseWebArgs(argv);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(message);
  });

  it('takes tokens from PARTNER_CONSOLE_TOKENS too, and groups them into one profile per vendor', () => {
    const parsed = parseWebArgs(['--base-url', 'http://127.0.0.1:9000', '--token', 'acme:a1'], { PARTNER_CONSOLE_TOKENS: 'demo:d1, acme:a2,demo:d1' });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(profilesFromArgs(parsed.options)).toEqual([
      { name: 'acme', vendor: 'acme', baseUrl: 'http://127.0.0.1:9000', addTokens: ['a1', 'a2'] },
      { name: 'demo', vendor: 'demo', baseUrl: 'http://127.0.0.1:9000', addTokens: ['d1'] },
    ]);
    expect(parseWebArgs([], { PARTNER_CONSOLE_TOKENS: 'broken' }).ok).toBe(false);
  });

  it('keeps a token that contains colons whole', () => {
    const parsed = parseWebArgs(['--base-url', 'http://h', '--token', 'acme:abc:def']);
    expect(parsed.ok && parsed.options.tokens).toEqual([{ vendor: 'acme', token: 'abc:def' }]);
  });
});

describe('opening the browser', () => {
  const url = 'http://127.0.0.1:5000/#secret=abc';
  it('uses xdg-open on Linux only when there is a display', () => {
    expect(browserCommand(url, 'linux', { DISPLAY: ':0' })).toEqual({ open: true, command: 'xdg-open', args: [url] });
    expect(browserCommand(url, 'linux', { WAYLAND_DISPLAY: 'wayland-0' })).toMatchObject({ open: true });
    expect(browserCommand(url, 'linux', {})).toMatchObject({ open: false, reason: expect.stringMatching(/display/) });
  });
  it('uses open on macOS and start on Windows', () => {
    expect(browserCommand(url, 'darwin', {})).toEqual({ open: true, command: 'open', args: [url] });
    expect(browserCommand(url, 'win32', {})).toEqual({ open: true, command: 'cmd', args: ['/c', 'start', '""', url] });
  });
});

describe('browser mode data folder', () => {
  it('lives in the user config folder of each platform', () => {
    expect(defaultWebDataDir('linux', {}, '/home/u')).toBe(path.join('/home/u', '.config', 'partner-console-web'));
    expect(defaultWebDataDir('linux', { XDG_CONFIG_HOME: '/xdg' }, '/home/u')).toBe(path.join('/xdg', 'partner-console-web'));
    expect(defaultWebDataDir('darwin', {}, '/Users/u')).toBe(path.join('/Users/u', 'Library', 'Application Support', 'partner-console-web'));
    expect(defaultWebDataDir('win32', { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'C:\\Users\\u')).toBe(
      path.join('C:\\Users\\u\\AppData\\Roaming', 'partner-console-web'),
    );
  });
});
