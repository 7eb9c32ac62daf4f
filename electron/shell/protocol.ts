/**
 * Serves the built renderer from app://partner/… instead of file://: a standard, secure origin of
 * our own, so the page gets a real origin for the sender check, relative URLs resolve, and every
 * response carries our Content-Security-Policy.
 */
import { protocol } from 'electron';
import type { Session } from 'electron';
import { APP_HOST, APP_SCHEME } from './channels';
import { HARDENING_HEADERS, contentSecurityPolicy } from './csp';
import { readStaticFile } from './static-files';

/** Must run before the app's ready event (Electron allows it only then, and only once). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      // corsEnabled + supportFetchAPI: Vite's `<script type="module" crossorigin>` loads in CORS mode.
      // No bypassCSP: our own CSP applies to our own scheme.
      privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true },
    },
  ]);
}

function respond(status: number, body: Buffer | string, contentType: string): Response {
  const headers = new Headers({
    'Content-Type': contentType,
    'Content-Security-Policy': contentSecurityPolicy(),
    'Cache-Control': 'no-cache',
    ...HARDENING_HEADERS,
  });
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return new Response(status === 204 ? null : new Uint8Array(bytes), { status, headers });
}

const TEXT = 'text/plain; charset=utf-8';

/** The app:// handler itself, separate from Electron so it can be tested with plain Requests. */
export function createAppProtocolHandler(rendererDir: string): (request: Request) => Promise<Response> {
  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return respond(400, 'Bad request', TEXT);
    }
    if (url.host !== APP_HOST) return respond(404, 'Not found', TEXT);
    if (request.method !== 'GET' && request.method !== 'HEAD') return respond(405, 'Method not allowed', TEXT);
    const file = await readStaticFile(rendererDir, url.pathname);
    if (file.status === 404 && (url.pathname === '/' || url.pathname === '/index.html')) {
      return respond(404, 'The renderer is not built (dist/renderer/index.html is missing): run `npm run build`.', TEXT);
    }
    return respond(file.status, request.method === 'HEAD' ? Buffer.alloc(0) : file.body, file.contentType);
  };
}

export function serveAppProtocol(session: Session, rendererDir: string): void {
  session.protocol.handle(APP_SCHEME, createAppProtocolHandler(rendererDir));
}
