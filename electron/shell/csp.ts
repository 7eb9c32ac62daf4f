/**
 * The Content-Security-Policy sent with every page of the app, by the desktop protocol handler and by
 * browser mode's HTTP server. Pure (no electron import) so both shells share one definition.
 *
 * style-src has no 'unsafe-inline': React applies `style` props through the CSSOM (element.style),
 * which CSP does not govern, and recharts 3 neither injects <style> elements nor writes style
 * attributes as markup. The renderer must therefore keep its CSS in files (Vite extracts it) and
 * put no inline <script>/<style> or style="" attributes in index.html.
 */
export interface CspOptions {
  /** Extra connect-src sources, e.g. browser mode's ws://127.0.0.1:PORT. */
  connectSrc?: readonly string[];
}

export function contentSecurityPolicy(options: CspOptions = {}): string {
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'"]],
    ['style-src', ["'self'"]],
    ['connect-src', ["'self'", ...(options.connectSrc ?? [])]],
    ['img-src', ["'self'", 'data:']],
    ['font-src', ["'self'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'none'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}

/** Headers that go with every app page besides the CSP. */
export const HARDENING_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
});
