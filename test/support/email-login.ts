import type { Page } from 'playwright-core';
import { newestLoginLink } from './mail';

/**
 * Finishes a login by emailed link as a person does, from the login modal the page has open:
 * asks for the link, dismisses the "sent" notice, opens the link from the local outbox and
 * confirms. The page then goes where the login started.
 */
export async function logInByEmailFromModal(page: Page, runtime: { url: string; mailDir: string }, email: string): Promise<void> {
  await page.getByRole('dialog').getByRole('button', { name: 'Continue with email' }).click();
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page
    .getByRole('dialog', { name: `Login link sent to ${email}` })
    .getByRole('button', { name: 'Ok' })
    .click();
  const confirmUrl = new URL(await newestLoginLink(runtime.mailDir, email));
  await page.goto(`${runtime.url}${confirmUrl.pathname}${confirmUrl.hash}`);
  await page.getByRole('main').getByRole('button', { name: 'Log in', exact: true }).click();
}
