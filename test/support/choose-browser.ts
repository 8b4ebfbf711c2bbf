import { join } from 'node:path';

export const DEBIAN_CHROMIUM = '/usr/bin/chromium';
/**
 * Debian's build of the same Chromium as its headless shell (package chromium-headless-shell):
 * what Playwright itself runs for headless tests. Preferred over the full browser when both
 * are installed: the e2e suites run about 30% faster in it (no browser UI, no GPU process).
 */
export const DEBIAN_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/** The Chromium inside @sparticuz/chromium is built for this platform only. */
export const BUNDLED_CHROMIUM_PLATFORM = 'linux-x64';

export interface BrowserCandidates {
  /** CHROMIUM_PATH from the environment: an empty value counts as unset. */
  override: string | undefined;
  /** The `bin` folder of @sparticuz/chromium, or undefined when the package cannot be resolved. */
  bundledBinDir: string | undefined;
  /** `${process.platform}-${process.arch}` */
  platform: string;
  exists: (path: string) => boolean;
}

export type BrowserChoice =
  | { source: 'CHROMIUM_PATH' | 'debian'; executablePath: string }
  | { source: 'npm'; binDir: string }
  | { source: 'missing'; reason: string };

/**
 * Which Chromium the browser tests drive: CHROMIUM_PATH, then Debian's packages (its headless
 * shell, then its full browser), then the build that npm ci installs. A CHROMIUM_PATH that points nowhere is an error rather than a reason to
 * fall back, so that a run never quietly tests another browser than the one asked for.
 */
export function chooseBrowser(candidates: BrowserCandidates): BrowserChoice {
  const { override, bundledBinDir, platform, exists } = candidates;
  if (override) {
    if (exists(override)) return { source: 'CHROMIUM_PATH', executablePath: override };
    return { source: 'missing', reason: `CHROMIUM_PATH is ${override}, and there is no file there.` };
  }
  for (const debian of [DEBIAN_HEADLESS_SHELL, DEBIAN_CHROMIUM]) {
    if (exists(debian)) return { source: 'debian', executablePath: debian };
  }
  if (platform !== BUNDLED_CHROMIUM_PLATFORM) {
    return {
      source: 'missing',
      reason: `the Chromium in @sparticuz/chromium runs on ${BUNDLED_CHROMIUM_PLATFORM} only, and this is ${platform}. Install Chromium and set CHROMIUM_PATH to it.`,
    };
  }
  if (bundledBinDir && exists(join(bundledBinDir, 'chromium.br'))) return { source: 'npm', binDir: bundledBinDir };
  return {
    source: 'missing',
    reason: `${DEBIAN_CHROMIUM} is absent and @sparticuz/chromium (a dev dependency) is not installed. Run npm ci, or set CHROMIUM_PATH to a Chromium.`,
  };
}
