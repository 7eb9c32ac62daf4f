/** download*: the whole-catalog download of the active profile (one at a time). */
import type { ProfileScoped } from '../../../shared/bridge/profile-scoped';
import type { DownloadTarget, ServiceOf } from '../download-controller';
import type { AppContext } from './context';
import type { HandlerGroup } from './types';

/** The download of the profile the page showed (a paused one resumes only for its own profile). */
function targetOf(ctx: AppContext, scope: ProfileScoped): DownloadTarget {
  const session = ctx.session(scope);
  const p = session.profile;
  return { profileId: p.id, profileName: p.name, client: session.client, tokens: session.tokens, baseUrl: p.baseUrl, vendor: p.vendor, map: session.map };
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
    // The profile must be the one the page showed (connected, not edited since); the download must be its own.
    downloadPause: async (scope) => ctx.downloads.pause(ctx.session(scope).profile.id),
    downloadResume: async (scope) => ctx.downloads.resume(targetOf(ctx, scope), ctx.settings().downloadDir),
    downloadCancel: async ({ deleteFiles, ...scope }) => ctx.downloads.cancel(ctx.session(scope).profile.id, deleteFiles),
    downloadStatus: async ({ profileId }) => {
      if (profileId === undefined) return ctx.downloads.status();
      const service = connectedService(ctx, profileId);
      return service === null ? ctx.downloads.statusOf(profileId) : ctx.downloads.statusFor(service, ctx.settings().downloadDir);
    },
  };
}
