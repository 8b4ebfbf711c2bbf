/** Steps the browser suites take on the transfer app's forms: picking files, sending, and the invitation mail. */
import type { Locator, Page } from 'playwright-core';
import { mailsTo } from './mail';

/**
 * Picks files from disk into a form's drop zone, as a person picks them, and waits until each is
 * listed under "Files to send". Paths, not buffers: handing Playwright a large file as a buffer
 * costs seconds of base64 over the DevTools protocol before the page even has it.
 */
export async function pickFiles(form: Locator, paths: readonly string[]): Promise<void> {
  await form.getByRole('group', { name: 'Drop files here' }).locator('input[type="file"]').setInputFiles([...paths]);
  const listed = form.getByRole('list', { name: 'Files to send' }).getByRole('listitem');
  for (const path of paths) await listed.filter({ hasText: path.split('/').at(-1) }).waitFor();
}

/**
 * Clicks the form's `button` and waits for the region that says it went (`doneRegion`) or for
 * the form's alert, failing with the alert's text: a refused send names its reason.
 */
export async function submitAndWait(
  page: Page,
  form: Locator,
  { button, doneRegion, timeout }: { button: string; doneRegion: string; timeout: number },
): Promise<Locator> {
  await form.getByRole('button', { name: button, exact: true }).click();
  const done = page.getByRole('region', { name: doneRegion });
  const failure = form.getByRole('alert');
  await done.or(failure).waitFor({ timeout });
  if (await failure.isVisible()) throw new Error(`"${button}" failed in the browser: ${await failure.innerText()}`);
  return done;
}

/** Sends the "New transfer" form and returns its Sent region. */
export const sendTransfer = (page: Page, form: Locator, timeout = 45_000) =>
  submitAndWait(page, form, { button: 'Send', doneRegion: 'Sent', timeout });

/** The invitation link in the newest email to `to` in a local outbox, waiting for it to land. */
export async function invitationLink(mailDir: string, to: string, timeoutMs = 10_000): Promise<URL> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const mail of (await mailsTo(mailDir, to)).reverse()) {
      const link = /https?:\/\/\S+\/transfer\/[^/\s]+\/package#invite=[A-Za-z0-9_-]+/.exec(mail.text ?? '')?.[0];
      if (link) return new URL(link);
    }
    if (Date.now() > deadline) throw new Error(`No invitation email to ${to} in ${mailDir}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
