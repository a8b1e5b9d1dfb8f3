import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** The renderer build's file types; anything else is not served. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export type RendererFile =
  | { readonly ok: true; readonly path: string; readonly contentType: string }
  | { readonly ok: false; readonly status: 400 | 403 | 404 };

/**
 * Maps a URL path of the page (`/assets/index-3f2a.js`) to a file of the renderer folder, or
 * refuses it. Both hosts call this, so `commerce-kiosk://kiosk/../../etc/passwd`, `%2e%2e%2f`,
 * `..\\`, absolute paths, NUL bytes and symlinks leading out of the folder are refused in one
 * place.
 * `root` must be an absolute path; `/` serves `index.html`.
 */
export function resolveRendererFile(root: string, urlPath: string): RendererFile {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return { ok: false, status: 400 };
  }
  // Backslashes are separators on Windows; NUL truncates paths in native code.
  if (decoded.includes('\0') || decoded.includes('\\')) return { ok: false, status: 400 };
  if (!decoded.startsWith('/')) return { ok: false, status: 400 };
  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '..' || segment === '.')) {
    return { ok: false, status: 403 };
  }
  const relativePath = segments.length === 0 ? 'index.html' : segments.join('/');
  // A drive letter or UNC prefix (`C:`) would make join() leave the root on Windows.
  if (isAbsolute(relativePath) || /^[A-Za-z]:/.test(relativePath))
    return { ok: false, status: 403 };
  const contentType = CONTENT_TYPES[extname(relativePath).toLowerCase()];
  if (contentType === undefined) return { ok: false, status: 404 };

  const rootPath = resolve(root);
  const candidate = resolve(join(rootPath, relativePath));
  if (!inside(rootPath, candidate)) return { ok: false, status: 403 };
  // Symlinks are followed only if they stay inside the (real) renderer folder.
  let real: string;
  let realRoot: string;
  try {
    realRoot = realpathSync(rootPath);
    real = realpathSync(candidate);
  } catch {
    return { ok: false, status: 404 };
  }
  if (!inside(realRoot, real)) return { ok: false, status: 403 };
  return { ok: true, path: real, contentType };
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/** The file's bytes, or undefined when it vanished or is a directory. */
export async function readRendererFile(path: string): Promise<Uint8Array | undefined> {
  try {
    return await readFile(path);
  } catch {
    return undefined;
  }
}
