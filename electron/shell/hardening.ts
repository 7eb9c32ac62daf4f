/**
 * Secure defaults for every web contents and the session (Electron's security checklist): no
 * navigation away from the app, no new windows, no <webview>, no permission but the clipboard write
 * of the copy buttons, and no download but the app's own exports (Blob URLs of its origin), both
 * only from the app's own origin.
 */
import type { Session, WebContents } from 'electron';
import { APP_ORIGIN, originOf } from './channels';
import type { ShellLog } from './log';

/** All the app's own page needs: copy buttons (navigator.clipboard.writeText). */
const APP_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

/** A permission the app's page may use, asked by the app's own origin; everything else is denied. */
export function appMayUse(permission: string, requestingUrl: string | undefined): boolean {
  return APP_PERMISSIONS.has(permission) && typeof requestingUrl === 'string' && originOf(requestingUrl) === APP_ORIGIN;
}

/** blob:app://…/uuid: made by the app's own page (URL.createObjectURL), nothing fetched from elsewhere. */
export function isAppBlob(url: string): boolean {
  return url.startsWith(`blob:${APP_ORIGIN}/`);
}

export function hardenWebContents(contents: WebContents, log: ShellLog): void {
  // The app is a single page: any navigation of the main frame is unexpected, including to app://.
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    log(`blocked navigation to ${url}`);
  });
  contents.on('will-frame-navigate', (event) => {
    if (event.isMainFrame || originOf(event.url) === APP_ORIGIN) return;
    event.preventDefault();
    log(`blocked sub-frame navigation to ${event.url}`);
  });
  contents.on('will-redirect', (event, url) => {
    if (originOf(url) === APP_ORIGIN) return;
    event.preventDefault();
    log(`blocked redirect to ${url}`);
  });
  contents.setWindowOpenHandler(({ url }) => {
    log(`blocked a new window for ${url}`);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    log('blocked a <webview>');
  });
}

export function hardenSession(session: Session, log: ShellLog): void {
  // The app:// handler already sends the CSP; this puts it on any other response the session sees too.
  // A literal, because electronegativity only recognises one here; a unit test keeps it equal to
  // contentSecurityPolicy() in csp.ts.
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [
          "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        ],
      },
    });
  });
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const granted = appMayUse(permission, details?.requestingUrl);
    if (!granted) log(`denied permission request: ${permission}`);
    callback(granted);
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) => appMayUse(permission, requestingOrigin));
  session.on('will-download', (event, item) => {
    // The app's own exports (the Budget CSV) are Blob URLs of its origin; the user picks where it goes.
    if (isAppBlob(item.getURL())) return;
    event.preventDefault();
    log(`blocked a download started by the page: ${item.getURL()}`);
  });
}
