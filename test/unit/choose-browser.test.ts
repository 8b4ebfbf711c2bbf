import { describe, expect, it } from 'vitest';
import { chooseBrowser, DEBIAN_CHROMIUM, DEBIAN_HEADLESS_SHELL, type BrowserCandidates } from '../support/choose-browser';

const BIN_DIR = '/repo/node_modules/@sparticuz/chromium/bin';
const CUSTOM = '/opt/chrome/chrome';

function candidates(files: string[], overrides: Partial<BrowserCandidates> = {}): BrowserCandidates {
  const present = new Set(files);
  return {
    override: undefined,
    bundledBinDir: BIN_DIR,
    platform: 'linux-x64',
    exists: (path) => present.has(path),
    ...overrides,
  };
}

const everything = [CUSTOM, DEBIAN_CHROMIUM, `${BIN_DIR}/chromium.br`];

describe('chooseBrowser', () => {
  it('takes CHROMIUM_PATH over Debian and the npm build', () => {
    // Act
    const choice = chooseBrowser(candidates(everything, { override: CUSTOM }));

    // Assess
    expect(choice).toEqual({ source: 'CHROMIUM_PATH', executablePath: CUSTOM });
  });

  it('refuses a CHROMIUM_PATH that points nowhere rather than falling back', () => {
    // Act
    const choice = chooseBrowser(candidates([DEBIAN_CHROMIUM, `${BIN_DIR}/chromium.br`], { override: '/nowhere/chrome' }));

    // Assess
    expect(choice.source).toBe('missing');
    expect(choice.source === 'missing' && choice.reason).toContain('/nowhere/chrome');
  });

  it('treats an empty CHROMIUM_PATH as unset', () => {
    // Act
    const choice = chooseBrowser(candidates(everything, { override: '' }));

    // Assess
    expect(choice).toEqual({ source: 'debian', executablePath: DEBIAN_CHROMIUM });
  });

  it("takes Debian's Chromium over the npm build", () => {
    // Act
    const choice = chooseBrowser(candidates([DEBIAN_CHROMIUM, `${BIN_DIR}/chromium.br`]));

    // Assess
    expect(choice).toEqual({ source: 'debian', executablePath: DEBIAN_CHROMIUM });
  });

  it("takes Debian's headless shell over its full browser when both are installed", () => {
    // Act
    const both = chooseBrowser(candidates([DEBIAN_HEADLESS_SHELL, DEBIAN_CHROMIUM, `${BIN_DIR}/chromium.br`]));
    const shellOnly = chooseBrowser(candidates([DEBIAN_HEADLESS_SHELL, `${BIN_DIR}/chromium.br`]));

    // Assess
    expect(both).toEqual({ source: 'debian', executablePath: DEBIAN_HEADLESS_SHELL });
    expect(shellOnly).toEqual({ source: 'debian', executablePath: DEBIAN_HEADLESS_SHELL });
  });

  it("takes the npm build when Debian's Chromium is absent", () => {
    // Act
    const choice = chooseBrowser(candidates([`${BIN_DIR}/chromium.br`]));

    // Assess
    expect(choice).toEqual({ source: 'npm', binDir: BIN_DIR });
  });

  it('reports a missing browser, with the way to get one, when the package is not installed', () => {
    // Act
    const unresolved = chooseBrowser(candidates([], { bundledBinDir: undefined }));
    const emptied = chooseBrowser(candidates([]));

    // Assess
    for (const choice of [unresolved, emptied]) {
      expect(choice.source).toBe('missing');
      expect(choice.source === 'missing' && choice.reason).toContain('npm ci');
    }
  });

  it('does not offer the npm build, which is Linux x64 only, on another platform', () => {
    // Act
    const choice = chooseBrowser(candidates([`${BIN_DIR}/chromium.br`], { platform: 'darwin-arm64' }));

    // Assess
    expect(choice.source).toBe('missing');
    expect(choice.source === 'missing' && choice.reason).toContain('CHROMIUM_PATH');
  });
});
