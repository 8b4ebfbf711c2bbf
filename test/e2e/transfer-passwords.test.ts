import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEveryPageTheSuiteVisits, expectAccessible } from '../support/accessibility';
import { createApiClient } from '../support/api-client';
import { launchBrowser, screenshotPath } from '../support/browser';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { subscribeToPro } from '../support/payments';
import { signedInBrowser } from '../support/signed-in-browser';
import { invitationLink, pickFiles, sendTransfer } from '../support/transfer-form-steps';

const CONTRACT = {
  name: 'signed-contract.txt',
  buffer: Buffer.from('The contract, signed by both parties.\n'.repeat(20), 'utf8'),
};
const PASSWORD = 'sea-lighthouse-42';

let runtime: TestRuntime;
let browser: Browser;
let picked: string;

beforeAll(async () => {
  picked = await mkdtemp(join(tmpdir(), 'toppubs-transfer-password-e2e-'));
  await writeFile(join(picked, CONTRACT.name), CONTRACT.buffer);
  [runtime, browser] = await Promise.all([startTestRuntime(), launchBrowser()]);
});

// Every page these tests leave open is checked for WCAG 2.1 AA (test/support/accessibility.ts).
checkEveryPageTheSuiteVisits(() => browser);

afterAll(async () => {
  await browser?.close();
  await runtime?.close();
  if (picked) await rm(picked, { recursive: true, force: true });
});

describe('passwords on transfers in a real browser', () => {
  it('a Pro sender sends with a password; the recipient opens the emailed link, is asked for it, enters it and sees the files', async () => {
    // Prepare: a sender who bought Pro, and a recipient with no account
    const sender = await signedInBrowser(browser, runtime, 'password-sender');
    await subscribeToPro(createApiClient(runtime), sender.person);
    const recipient = `password-recipient-${Date.now()}@example.com`;
    const title = 'Signed contract';
    const senderPage = await sender.context.newPage();
    await senderPage.goto(`${runtime.url}/transfer`);
    const form = senderPage.getByRole('form', { name: 'New transfer' });
    await form.waitFor();

    // Act: a file, a recipient, a title and a password, then Send
    await pickFiles(form, [join(picked, CONTRACT.name)]);
    await form.getByRole('combobox', { name: 'Recipient email' }).fill(recipient);
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await form.getByRole('list', { name: 'Recipients' }).getByRole('listitem').filter({ hasText: recipient }).waitFor();
    await form.getByRole('textbox', { name: 'Title' }).fill(title);
    await form.getByRole('textbox', { name: 'Password (optional)' }).fill(PASSWORD);
    await sendTransfer(senderPage, form);

    // Act: the recipient opens the emailed link in another browser context
    const link = await invitationLink(runtime.mailDir, recipient);
    const recipientContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await recipientContext.newPage();
    await page.goto(link.href);
    const main = page.getByRole('main');
    await main.getByRole('heading', { level: 1, name: 'This transfer is protected by a password' }).waitFor();

    // Assess: asked for the password, and shown nothing of the package
    const locked = await main.innerText();
    expect(locked).not.toContain(title);
    expect(locked).not.toContain(CONTRACT.name);
    expect(new URL(page.url()).hash).toBe('');
    await expectAccessible(page, 'the password form of a protected package');
    await page.screenshot({ path: screenshotPath('transfer-password-form') });

    // Act: a wrong password first
    await main.getByRole('textbox', { name: 'Password', exact: true }).fill('not the password');
    await main.getByRole('button', { name: 'Unlock' }).click();

    // Assess
    await expect(main.getByRole('alert').innerText()).resolves.toBe('That password is not right.');

    // Act: the right one
    await main.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await main.getByRole('button', { name: 'Unlock' }).click();

    // Assess: the package with its file; the unlock is an HttpOnly cookie for the API only
    await main.getByRole('heading', { level: 1, name: title }).waitFor();
    await main.getByRole('region', { name: 'Files' }).getByRole('article', { name: CONTRACT.name }).waitFor();
    const unlock = (await recipientContext.cookies()).find((cookie) => cookie.name.startsWith('tpu_'));
    expect(unlock).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/api/i/' });
    await expectAccessible(page, 'the protected package, unlocked');

    // Act: the same recipient's other browser (the emailed link is spent: only a session or a grant opens it)
    const otherContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await otherContext.addCookies((await recipientContext.cookies()).filter((cookie) => cookie.name.startsWith('tpg_')));
    const other = await otherContext.newPage();
    await other.goto(`${runtime.url}${link.pathname}`);

    // Assess: asked again
    await other.getByRole('main').getByRole('heading', { level: 1, name: 'This transfer is protected by a password' }).waitFor();
    await Promise.all([recipientContext.close(), otherContext.close(), sender.context.close()]);
  });
  it('a Pro sender gets a link to a transfer with a password; someone with no account opens it, enters the password and downloads', async () => {
    // Prepare: a sender who bought Pro
    const sender = await signedInBrowser(browser, runtime, 'password-link-sender');
    await subscribeToPro(createApiClient(runtime), sender.person);
    const title = 'Contract by link';
    const senderPage = await sender.context.newPage();
    await senderPage.goto(`${runtime.url}/transfer`);
    const form = senderPage.getByRole('form', { name: 'New transfer' });
    await form.waitFor();

    // Act: a file, "Get a link", a title and a password, then Send
    await pickFiles(form, [join(picked, CONTRACT.name)]);
    await form.getByRole('radio', { name: /Get a link/ }).check();
    await form.getByRole('textbox', { name: 'Title' }).fill(title);
    await form.getByRole('textbox', { name: 'Password (optional)' }).fill(PASSWORD);
    const sent = await sendTransfer(senderPage, form);
    const link = new URL(await sent.getByRole('textbox', { name: 'Link to the files' }).inputValue());

    // Act: someone with no account opens the link in a browser of their own
    const visitorContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    const page = await visitorContext.newPage();
    await page.goto(link.href);
    const main = page.getByRole('main');
    await main.getByRole('heading', { level: 1, name: 'This transfer is protected by a password' }).waitFor();

    // Assess: nothing of the package shows, the key has left the address, and nobody is signed in
    const locked = await main.innerText();
    expect(locked).not.toContain(title);
    expect(locked).not.toContain(CONTRACT.name);
    expect(new URL(page.url()).hash).toBe('');
    await expect(page.getByRole('button', { name: /^Account menu for / }).count()).resolves.toBe(0);

    // Act: the password, then a download
    await main.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await main.getByRole('button', { name: 'Unlock' }).click();
    await main.getByRole('heading', { level: 1, name: title }).waitFor();
    const card = main.getByRole('region', { name: 'Files' }).getByRole('article', { name: CONTRACT.name });
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 15_000 }),
      card.getByRole('button', { name: 'Download', exact: true }).click(),
    ]);

    // Assess: the bytes sent, and still no session
    expect(await download.failure()).toBeNull();
    expect((await readFile(await download.path())).equals(CONTRACT.buffer)).toBe(true);
    expect((await visitorContext.cookies()).map((cookie) => cookie.name)).not.toContain('ssoat');
    await expectAccessible(page, 'a protected link transfer, unlocked');
    await Promise.all([visitorContext.close(), sender.context.close()]);
  });
});
