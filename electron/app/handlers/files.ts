/** downloadReveal: the catalog download's own file only (never a path the page names), desktop only. */
import { access } from 'node:fs/promises';
import { PartnerError } from '../../../shared/errors';
import type { AppContext } from './context';
import type { HandlerGroup } from './types';

function notFound(message: string, hint: string): PartnerError {
  return new PartnerError({ code: 'NOT_FOUND', message, hint, retryable: false });
}

export function fileHandlers(ctx: AppContext): HandlerGroup<'downloadReveal'> {
  return {
    async downloadReveal({ action }) {
      const reveal = ctx.env.revealFile;
      if (!reveal) throw notFound('Showing files is not available in browser mode.', 'Copy the path and open it yourself.');
      const file = ctx.downloads.status().outPath;
      if (file === null) throw notFound('No catalog file has been written yet.', 'Start a download first.');
      try {
        await access(file);
      } catch {
        throw notFound(`The file ${file} is no longer there.`, 'It was moved or deleted; start the download again.');
      }
      await reveal(file, action);
      return { ok: true as const };
    },
  };
}
