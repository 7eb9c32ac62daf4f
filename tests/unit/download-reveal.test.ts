/** downloadReveal: only the download's own file, only where the shell can show files; the desktop shell's reveal. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('../fakes/electron'));

import { fileHandlers } from '../../electron/app/handlers/files';
import type { AppContext } from '../../electron/app/handlers/context';
import { revealInShell } from '../../electron/shell/desktop';
import { fakeElectron, shell } from '../fakes/electron';

function contextWith(outPath: string | null, revealFile?: (file: string, action: 'show' | 'open') => Promise<void>): AppContext {
  return { env: { revealFile }, downloads: { status: () => ({ outPath }) } } as unknown as AppContext;
}

describe('downloadReveal', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'reveal-'));
    fakeElectron.reset();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('shows or opens the file the download wrote', async () => {
    const file = path.join(dir, 'catalog.csv');
    writeFileSync(file, 'id\n1\n');
    const asked: string[] = [];
    const handlers = fileHandlers(contextWith(file, async (f, a) => void asked.push(`${a} ${f}`)));
    await expect(handlers.downloadReveal({ action: 'show' })).resolves.toEqual({ ok: true });
    await handlers.downloadReveal({ action: 'open' });
    expect(asked).toEqual([`show ${file}`, `open ${file}`]);
  });

  it('says so in browser mode, before any download, and when the file is gone', async () => {
    await expect(fileHandlers(contextWith('/x')).downloadReveal({ action: 'show' })).rejects.toMatchObject({ code: 'NOT_FOUND', message: /browser mode/ });
    const reveal = vi.fn(async () => {});
    await expect(fileHandlers(contextWith(null, reveal)).downloadReveal({ action: 'show' })).rejects.toMatchObject({ message: /No catalog file/ });
    await expect(fileHandlers(contextWith(path.join(dir, 'gone.jsonl'), reveal)).downloadReveal({ action: 'open' })).rejects.toMatchObject({
      message: /no longer there/,
    });
    expect(reveal).not.toHaveBeenCalled();
  });

  it('desktop: showItemInFolder for show, openPath for open, and an openPath failure is an error', async () => {
    await revealInShell('/data/catalog.jsonl', 'show');
    await revealInShell('/data/catalog.jsonl', 'open');
    expect(shell.shown).toEqual(['/data/catalog.jsonl']);
    expect(shell.opened).toEqual(['/data/catalog.jsonl']);
    const openPath = vi.spyOn(shell, 'openPath').mockResolvedValueOnce('No application knows this file type.');
    await expect(revealInShell('/data/x.csv', 'open')).rejects.toThrow(/No application/);
    openPath.mockRestore();
  });
});
