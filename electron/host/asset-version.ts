import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { PACKAGE_NAME, packageVersion } from '../package-version.ts';

/**
 * The main process, the preload and the renderer are built from one package version and work
 * only together (the IPC contract lives in all three). The build stamps the version into the
 * renderer's page and the preload's first line; the main process reads both stamps before it
 * serves them, so a renderer copied from another release is refused with a clear error instead of
 * failing message by message at the counter.
 */
export { PACKAGE_NAME };

/** `<meta name="commerce-kiosk-version" content="1.0.0">` in the renderer's index.html. */
export const RENDERER_VERSION_META = `${PACKAGE_NAME}-version`;
/** The preload's first line: `// commerce-kiosk 1.0.0 preload`. */
export const preloadBanner = (version: string): string => `// ${PACKAGE_NAME} ${version} preload`;

export type AssetVersionCode = 'asset_unversioned' | 'asset_version_mismatch';

export class AssetVersionError extends Error {
  override readonly name = 'AssetVersionError';
  readonly code: AssetVersionCode;
  constructor(code: AssetVersionCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** The first bytes of a file, enough for a stamp; nothing when it cannot be read. */
async function head(path: string, bytes: number): Promise<string | undefined> {
  let file;
  try {
    file = await open(path, 'r');
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await file.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } catch {
    return undefined;
  } finally {
    await file?.close();
  }
}

const META = new RegExp(`<meta name="${RENDERER_VERSION_META}" content="([^"<>]{1,64})"`);
const BANNER = new RegExp(`^// ${PACKAGE_NAME} ([^\\s]{1,64}) preload`);

/** The version the renderer in `dir` was built as, or undefined when it carries none. */
export async function rendererVersionOf(dir: string): Promise<string | undefined> {
  const page = await head(join(dir, 'index.html'), 4096);
  return page === undefined ? undefined : META.exec(page)?.[1];
}

/** The version the preload at `path` was built as, or undefined when it carries none. */
export async function preloadVersionOf(path: string): Promise<string | undefined> {
  const text = await head(path, 256);
  return text === undefined ? undefined : BANNER.exec(text)?.[1];
}

async function checkOne(
  what: 'renderer' | 'preload',
  where: string,
  found: Promise<string | undefined>,
  expected: string,
): Promise<void> {
  const version = await found;
  if (version === undefined) {
    throw new AssetVersionError(
      'asset_unversioned',
      `${PACKAGE_NAME}: the ${what} at ${where} is not a ${PACKAGE_NAME} build (no version stamp); ` +
        `use the one the package ships (${PACKAGE_NAME}/${what})`,
    );
  }
  if (version !== expected) {
    throw new AssetVersionError(
      'asset_version_mismatch',
      `${PACKAGE_NAME}: the ${what} at ${where} is version ${version}, the main process is ` +
        `${expected}; the main process, preload and renderer must come from one package version`,
    );
  }
}

/** Refuses a renderer folder or preload built from another package version, or not ours. */
export async function checkAssetVersions(assets: {
  readonly rendererDir: string;
  readonly preloadPath?: string;
  readonly version?: string;
}): Promise<void> {
  const expected = assets.version ?? packageVersion();
  await checkOne('renderer', assets.rendererDir, rendererVersionOf(assets.rendererDir), expected);
  if (assets.preloadPath !== undefined) {
    await checkOne('preload', assets.preloadPath, preloadVersionOf(assets.preloadPath), expected);
  }
}
