/** The shell's scripts: finding an Electron runtime, npm start without one, the import-cycle check. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { executableInDist, findElectron, noRuntimeMessage } from '../../scripts/electron-runtime.mjs';

const ROOT = path.resolve(__dirname, '..', '..');

describe('finding an Electron runtime', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'partner-electron-runtime-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const touch = (file: string) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '');
  };

  it('prefers ELECTRON_OVERRIDE_DIST_PATH, with the platform’s executable name', () => {
    touch(path.join(dir, 'override', 'electron'));
    touch(path.join(dir, 'pkg', 'dist', 'electron'));
    expect(findElectron({ ELECTRON_OVERRIDE_DIST_PATH: path.join(dir, 'override') }, 'linux', path.join(dir, 'pkg'))).toEqual({
      path: path.join(dir, 'override', 'electron'),
      looked: [],
    });
    expect(executableInDist('win32')).toBe('electron.exe');
    expect(executableInDist('darwin')).toBe('Electron.app/Contents/MacOS/Electron');
  });

  it('falls back to the installed binary named in path.txt', () => {
    touch(path.join(dir, 'pkg', 'dist', 'custom-electron'));
    writeFileSync(path.join(dir, 'pkg', 'path.txt'), 'custom-electron');
    const found = findElectron({ ELECTRON_OVERRIDE_DIST_PATH: path.join(dir, 'nowhere') }, 'linux', path.join(dir, 'pkg'));
    expect(found.path).toBe(path.join(dir, 'pkg', 'dist', 'custom-electron'));
    expect(found.looked).toEqual([`${path.join(dir, 'nowhere', 'custom-electron')} (from ELECTRON_OVERRIDE_DIST_PATH)`]);
  });

  it('reports every place it looked when there is none', () => {
    const found = findElectron({}, 'linux', path.join(dir, 'pkg'));
    expect(found).toEqual({ path: null, looked: [path.join(dir, 'pkg', 'dist', 'electron')] });
  });

  it('explains the missing runtime in one paragraph: what failed, how to point at one, and browser mode', () => {
    const message = noRuntimeMessage(['/x/electron']);
    expect(message).not.toContain('\n');
    expect(message).toMatch(/no Electron runtime was found \(looked at \/x\/electron\)/);
    expect(message).toMatch(/ELECTRON_OVERRIDE_DIST_PATH=/);
    expect(message).toMatch(/npm run web/);
  });

  it.skipIf(findElectron().path !== null)('makes npm start say why in one line and start browser mode on the demo when no runtime exists', async () => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs'), '--port', '0', '--no-open', '--data-dir', path.join(dir, 'data')], {
      env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: path.join(dir, 'nowhere'), PARTNER_WEB_NO_BUILD: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL in 30 s:\n${stdout}\n${stderr}`)), 30_000);
        child.stdout.on('data', (c: Buffer) => {
          stdout += c.toString();
          const m = /Partner Console \(browser mode\): (\S+)/.exec(stdout);
          if (m?.[1]) {
            clearTimeout(timer);
            resolve(m[1]);
          }
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}:\n${stderr}`)));
      });
      const line = stderr.split('\n').find((l) => l.startsWith('npm start:'));
      expect(line).toMatch(/no Electron runtime here .* starts in browser mode on the built-in demo/);
      expect(line).toMatch(/ELECTRON_OVERRIDE_DIST_PATH=/);
      // The page is served, on loopback.
      const answer = await fetch(new URL('/', url));
      expect(new URL(url).hostname).toBe('127.0.0.1');
      // npm test runs the unit tests before the build: without dist/renderer the server says so in words.
      if (existsSync(path.join(ROOT, 'dist', 'renderer', 'index.html'))) expect(answer.status).toBe(200);
      else expect([answer.status, await answer.text()]).toEqual([503, expect.stringContaining('The renderer is not built')]);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  });
});

describe('import cycle check', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'partner-cycles-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const check = (...args: string[]) => spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'check-cycles.mjs'), ...args], { encoding: 'utf8' });

  it('fails on a cycle through re-exports and type imports, and names it', () => {
    writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b';\nexport const a = b;\n");
    writeFileSync(path.join(dir, 'b.ts'), "import type { C } from './sub';\nexport const b = 1 as C;\n");
    mkdirSync(path.join(dir, 'sub'));
    writeFileSync(path.join(dir, 'sub', 'index.ts'), "// import { nothing } from '../zzz';\nexport * from '../a';\nexport type C = number;\n");
    const result = check(dir);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/Import cycles found: 1/);
    expect(result.stdout).toMatch(
      /a\.ts -> .*b\.ts -> .*sub\/index\.ts -> .*a\.ts|b\.ts -> .*sub\/index\.ts -> .*a\.ts -> .*b\.ts|sub\/index\.ts -> .*a\.ts -> .*b\.ts -> .*sub\/index\.ts/,
    );
    // Only through a type import: not a runtime cycle.
    expect(check('--runtime-only', dir).status).toBe(0);
  });

  it('passes a tree, ignoring imports in comments and package imports', () => {
    writeFileSync(path.join(dir, 'a.ts'), "import { z } from 'zod';\nimport { b } from './b';\n/* import { a } from './a'; */\nexport const a = [z, b];\n");
    writeFileSync(path.join(dir, 'b.ts'), "// import { a } from './a';\nexport const b = await import('./c');\n");
    writeFileSync(path.join(dir, 'c.ts'), 'export const c = 1;\n');
    const result = check(dir);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/No import cycles: 3 files, 2 relative imports/);
  });
});
