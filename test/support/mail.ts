import { readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseEml } from '../../functions/lib/mail/eml';

/** The login link in the newest captured email to `to` in a local outbox, waiting for it to land. */
export async function newestLoginLink(mailDir: string, to: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // File names start with an ISO time, so a reversed sort puts the newest first.
    const files = (await readdir(mailDir))
      .filter((name) => name.endsWith('.eml'))
      .sort()
      .reverse();
    for (const file of files) {
      const mail = parseEml(await readFile(join(mailDir, file), 'utf8'));
      if (!(mail.headers.to ?? '').includes(to)) continue;
      const link = /https?:\/\/\S+\/login\/confirm#token=[A-Za-z0-9_-]+/.exec(mail.text ?? mail.html ?? '')?.[0];
      if (link) return link;
    }
    if (Date.now() > deadline) throw new Error(`No login email to ${to} in ${mailDir}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Every captured email to `to` in a local outbox, oldest first (an empty list when none came). */
export async function mailsTo(mailDir: string, to: string): Promise<ReturnType<typeof parseEml>[]> {
  const files = (await readdir(mailDir).catch(() => [] as string[])).filter((name) => name.endsWith('.eml')).sort();
  const mails = await Promise.all(files.map(async (file) => parseEml(await readFile(join(mailDir, file), 'utf8'))));
  return mails.filter((mail) => (mail.headers.to ?? '').includes(to));
}

/**
 * The captured emails to `to` that `match`, once at least `count` of them have landed. A
 * subscription's charge is recorded, and its receipt sent, by whichever comes first of the route
 * and the gateway's webhook; when the webhook wins, the receipt lands just after the route answers.
 */
export async function mailsArriving(
  mailDir: string,
  to: string,
  options: { match: (mail: ReturnType<typeof parseEml>) => boolean; count?: number; timeoutMs?: number },
): Promise<ReturnType<typeof parseEml>[]> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const found = (await mailsTo(mailDir, to)).filter(options.match);
    if (found.length >= (options.count ?? 1) || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The captured emails addressed to exactly `address` in a local outbox, oldest first, each with its file name. */
export function mailTo(mailDir: string, address: string) {
  return readdirSync(mailDir)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => ({ name, ...parseEml(readFileSync(join(mailDir, name), 'utf8')) }))
    .filter((mail) => mail.headers.to === address);
}
