/** download*: the whole-catalog download of the active profile (one at a time). */
import type { ProfileScoped } from '../../../shared/bridge/profile-scoped';
import type { DownloadTarget } from '../download-controller';
import type { AppContext } from './context';
import type { HandlerGroup } from './types';

/** The download of the profile the page showed (a paused one resumes only for its own profile). */
function targetOf(ctx: AppContext, scope: ProfileScoped): DownloadTarget {
  const session = ctx.session(scope);
  const p = session.profile;
  return { profileId: p.id, client: session.client, baseUrl: p.baseUrl, vendor: p.vendor, map: session.map };
}

/** The vendor of a connected profile; null when it is not connected (nothing to resume from there). */
function connectedVendor(ctx: AppContext, profileId: string): string | null {
  try {
    return ctx.sessionFor(profileId).profile.vendor;
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
      const vendor = profileId === undefined ? null : connectedVendor(ctx, profileId);
      return vendor === null ? ctx.downloads.status() : ctx.downloads.statusFor(vendor, ctx.settings().downloadDir);
    },
  };
}
