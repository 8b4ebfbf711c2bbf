import { execFile } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createBrotliDecompress } from 'node:zlib';

const run = promisify(execFile);

export interface UnpackedChromium {
  version: string;
  dir: string;
  executablePath: string;
  /** Added to the browser's environment: its own NSS libraries and a font setup. */
  env: Record<string, string>;
}

/**
 * The Chromium build that ships, brotli-compressed, inside the @sparticuz/chromium npm tarball:
 * nothing is downloaded, at install or at run time. The package's own executablePath() is not
 * used: it unpacks into the bare temp folder, shared by every checkout and version on the
 * machine, and trusts any existing /tmp/chromium, even one another process is still writing or
 * one from another version. Here each version gets its own folder, written under a temporary
 * name and renamed into place when complete, so concurrent callers (suites, benchmark runs,
 * other checkouts) either find a whole build or make their own and discard it if another one
 * landed first.
 */
export async function unpackBundledChromium(binDir: string): Promise<UnpackedChromium> {
  const { version } = JSON.parse(readFileSync(join(binDir, '..', 'package.json'), 'utf8')) as { version: string };
  // One folder per user too: the temporary folder it is made from is private (mode 0700).
  const dir = join(tmpdir(), `toppubs-chromium-${version}-uid${process.getuid?.() ?? 0}`);
  if (!isComplete(dir)) await unpack(binDir, dir);
  return {
    version,
    dir,
    executablePath: join(dir, 'chromium'),
    env: {
      // The build links NSS dynamically; the package carries a copy (made for Amazon Linux 2023,
      // glibc 2.34) so that the browser does not depend on the machine having libnss3.
      LD_LIBRARY_PATH: [join(dir, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      FONTCONFIG_FILE: join(dir, 'fonts.conf'),
    },
  };
}

function isComplete(dir: string): boolean {
  return ['chromium', 'lib/libnss3.so', 'fonts.conf'].every((file) => existsSync(join(dir, file)));
}

async function unpack(binDir: string, dir: string): Promise<void> {
  const staging = await mkdtemp(`${dir}.partial-`);
  try {
    await Promise.all([
      pipeline(
        createReadStream(join(binDir, 'chromium.br')),
        createBrotliDecompress(),
        createWriteStream(join(staging, 'chromium'), { mode: 0o755 }),
      ),
      untar(join(binDir, 'al2023.tar.br'), staging),
      untar(join(binDir, 'fonts.tar.br'), staging),
    ]);
    // Replaces the archive's fonts.conf, which lists Lambda's folders. Without any font Chromium
    // lays text out with no height, so the bundled Open Sans backs up the machine's own fonts,
    // which stay first (and keep their aliases) wherever fontconfig is set up.
    await writeFile(
      join(staging, 'fonts.conf'),
      [
        '<?xml version="1.0"?>',
        '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">',
        '<fontconfig>',
        '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
        `  <dir>${join(dir, 'fonts')}</dir>`,
        '  <cachedir prefix="xdg">fontconfig</cachedir>',
        '</fontconfig>',
        '',
      ].join('\n'),
    );
    await chmod(staging, 0o755);
    await publish(staging, dir);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function publish(staging: string, dir: string): Promise<void> {
  try {
    await rename(staging, dir);
    return;
  } catch (error) {
    // Another caller finished first: its build is identical, so use it.
    if (isComplete(dir)) return;
    if (!existsSync(dir)) throw error;
  }
  // What is in the way was emptied from outside (a temp cleaner): replace it.
  await rm(dir, { recursive: true, force: true });
  await rename(staging, dir);
}

/** The system's tar (essential on Debian) rather than one more JavaScript dependency. */
async function untar(archive: string, into: string): Promise<void> {
  // Through a file, not a pipe: tar stops reading at the archive's end marker, and the unread
  // padding behind it would fail the pipe.
  const tarFile = join(into, basename(archive, '.br'));
  await pipeline(createReadStream(archive), createBrotliDecompress(), createWriteStream(tarFile));
  try {
    await run('tar', ['-x', '--no-same-owner', '-f', tarFile, '-C', into]);
  } finally {
    await rm(tarFile, { force: true });
  }
}
