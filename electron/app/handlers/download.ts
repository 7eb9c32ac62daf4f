/** download*: the whole-catalog download of the active profile (one at a time). */
import type { ProfileScoped } from '../../../shared/bridge/profile-scoped';
import type { DownloadTarget, ServiceOf } from '../download-controller';
import type { AppContext } from './context';
import type { HandlerGroup } from './types';

/** The download of the profile the page showed (a paused one resumes only for its own profile). */
function targetOf(ctx: AppContext, scope: ProfileScoped): DownloadTarget {
  const session = ctx.session(scope);
  const p = session.profile;
  return { profileId: p.id, client: session.client, baseUrl: p.baseUrl, vendor: p.vendor, map: session.map };
}

/** The service of a connected profile; null when it is not connected (nothing to resume from there). */
function connectedService(ctx: AppContext, profileId: string): ServiceOf | null {
  try {
    return targetOf(ctx, { profileId });
  } catch {
    return null;
  }
}

export function downloadHandlers(ctx: AppContext): HandlerGroup<'downloadStart' | 'downloadPause' | 'downloadResume' | 'downloadCancel' | 'downloadStatus'> {
  return {
    downloadStart: async ({ format, resume, replace, ...scope }) =>
      ctx.downloads.start(targetOf(ctx, scope), ctx.settings().downloadDir, { format, resume, replace: replace === true }),
    downloadPause: async () => ctx.downloads.pause(),
    downloadResume: async (scope) => ctx.downloads.resume(targetOf(ctx, scope), ctx.settings().downloadDir),
    downloadCancel: async ({ deleteFiles }) => ctx.downloads.cancel(deleteFiles),
    downloadStatus: async ({ profileId }) => {
      const service = profileId === undefined ? null : connectedService(ctx, profileId);
      return service === null ? ctx.downloads.status() : ctx.downloads.statusFor(service, ctx.settings().downloadDir);
    },
  };
}
