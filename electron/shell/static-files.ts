/**
 * Reads the built renderer (dist/renderer) for a URL path, refusing anything that would leave that
 * folder. Pure Node (no electron import): the desktop protocol handler and browser mode's HTTP
 * server both serve files through it.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

export function contentTypeOf(filePath: string): string {
  return CONTENT_TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

export type StaticFile = { status: 200; body: Buffer; contentType: string; filePath: string } | { status: 403 | 404; body: Buffer; contentType: string };

/**
 * Maps a URL path (still percent-encoded, as in URL.pathname) to a file under root, or null when
 * the path is malformed or would escape root (`..`, encoded slashes, backslashes, NUL bytes).
 */
export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  // A `..` segment is refused outright rather than normalised away: no legitimate asset URL has one.
  if (decoded.split('/').some((segment) => segment === '..')) return null;
  const relative = decoded === '' || decoded.endsWith('/') ? `${decoded}index.html` : decoded;
  const resolvedRoot = path.resolve(root);
  const resolved = path.resolve(resolvedRoot, `.${path.posix.normalize(`/${relative}`)}`);
  if (resolved !== resolvedRoot && !resolved.startsWith(resolvedRoot + path.sep)) return null;
  return resolved;
}

const text = (message: string) => Buffer.from(message, 'utf8');

/**
 * Reads the file for a URL path. Paths without an extension that match no file fall back to
 * index.html, so a client-side route survives a reload. Symlinks that point outside root are refused.
 */
export async function readStaticFile(root: string, urlPath: string): Promise<StaticFile> {
  const resolved = resolveStaticPath(root, urlPath);
  if (resolved === null) return { status: 403, body: text('Forbidden'), contentType: CONTENT_TYPES['.txt']! };
  const found = (await readInside(root, resolved)) ?? (path.extname(resolved) === '' ? await readInside(root, path.join(root, 'index.html')) : null);
  if (found === 'outside') return { status: 403, body: text('Forbidden'), contentType: CONTENT_TYPES['.txt']! };
  if (found === null) return { status: 404, body: text('Not found'), contentType: CONTENT_TYPES['.txt']! };
  return { status: 200, body: found.body, contentType: contentTypeOf(found.filePath), filePath: found.filePath };
}

async function readInside(root: string, filePath: string): Promise<{ body: Buffer; filePath: string } | 'outside' | null> {
  try {
    const [realRoot, realFile] = await Promise.all([fs.realpath(root), fs.realpath(filePath)]);
    if (!realFile.startsWith(realRoot + path.sep)) return 'outside';
    const stat = await fs.stat(realFile);
    if (!stat.isFile()) return null;
    return { body: await fs.readFile(realFile), filePath: realFile };
  } catch {
    return null;
  }
}
