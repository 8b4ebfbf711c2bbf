import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEveryPageTheSuiteVisits, expectAccessible } from '../support/accessibility';
import { launchBrowser, screenshotPath } from '../support/browser';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { mailsTo } from '../support/mail';
import { pickFiles, submitAndWait } from '../support/transfer-form-steps';
import { signedInBrowser } from '../support/signed-in-browser';

const SCAN = { name: 'signed-contract.txt', buffer: Buffer.from('Signed on page 3 and 7.\n'.repeat(40), 'utf8') };

let runtime: TestRuntime;
let browser: Browser;
/** Where the visitor's file is written, for the file input to pick it from disk. */
let picked: string;

beforeAll(async () => {
  picked = await mkdtemp(join(tmpdir(), 'toppubs-file-request-e2e-'));
  await writeFile(join(picked, SCAN.name), SCAN.buffer);
  [runtime, browser] = await Promise.all([startTestRuntime(), launchBrowser()]);
});

// Every page these tests leave open is checked for WCAG 2.1 AA (test/support/accessibility.ts).
checkEveryPageTheSuiteVisits(() => browser);

afterAll(async () => {
  await browser?.close();
  await runtime?.close();
  if (picked) await rm(picked, { recursive: true, force: true });
});

describe('file requests in a real browser', () => {
  it('a requester asks for files; a visitor with no account sends one through the link; the requester sees it', async () => {
    // Prepare: a signed-in requester on the Request files page, reached from their transfers
    const requester = await signedInBrowser(browser, runtime, 'requester');
    const requesterPage = await requester.context.newPage();
    await requesterPage.goto(`${runtime.url}/transfers`);
    await requesterPage.getByRole('navigation', { name: 'Transfers' }).getByRole('link', { name: 'Request files' }).click();
    const form = requesterPage.getByRole('form', { name: 'New file request' });
    await form.waitFor();

    // Act: create a request
    await form.getByRole('textbox', { name: 'Title' }).fill('Signed contract');
    await form.getByRole('textbox', { name: 'Message' }).fill('Please send the signed copy back.');
    await form.getByRole('button', { name: 'Create request' }).click();
    const linkRegion = form.getByRole('region', { name: 'New request link' });
    await linkRegion.waitFor();
    const link = new URL(await linkRegion.getByRole('textbox', { name: 'Link to share' }).inputValue());

    // Assess: a link on this site, and the request listed as open
    expect(link.origin).toBe(new URL(runtime.url).origin);
    expect(link.pathname).toMatch(/^\/transfer\/request\/[A-Za-z0-9_-]{22}$/);
    const requests = requesterPage.getByRole('list', { name: 'Your file requests' });
    await requests.getByRole('listitem').filter({ hasText: 'Signed contract' }).filter({ hasText: 'Open' }).waitFor();
    await expectAccessible(requesterPage, 'the Request files page with a new request');

    // Act: a visitor with no account, in a browser of their own, opens the link and sends a file
    const visitorContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const visitor = await visitorContext.newPage();
    await visitor.goto(link.href);
    const upload = visitor.getByRole('form', { name: /^Send files to / });
    await upload.waitFor();
    await expect(visitor.getByRole('main').innerText()).resolves.toContain('Please send the signed copy back.');
    await upload.getByRole('textbox', { name: 'Your name' }).fill('Dana Okafor');
    await upload.getByRole('textbox', { name: 'Note (optional)' }).fill('Both pages signed.');
    await pickFiles(upload, [join(picked, SCAN.name)]);
    await expectAccessible(visitor, 'the upload page, filled in');
    const done = await submitAndWait(visitor, upload, { button: 'Send files', doneRegion: 'Files sent', timeout: 30_000 });

    // Assess: the visitor sees what they sent, and only that; nobody is signed in there
    const sent = done.getByRole('list', { name: 'Your files' });
    await expect(sent.getByRole('listitem').allInnerTexts()).resolves.toEqual([expect.stringContaining(SCAN.name)]);
    await expect(visitor.getByRole('button', { name: /^Account menu for / }).count()).resolves.toBe(0);
    await expectAccessible(visitor, 'the upload confirmation');
    await visitor.screenshot({ path: screenshotPath('file-request-sent') });

    // Act: the requester looks at their transfers
    await requesterPage.goto(`${runtime.url}/transfers`);
    const row = requesterPage
      .getByRole('list', { name: 'Sent transfers' })
      .getByRole('listitem')
      .filter({ hasText: 'From Dana Okafor through your file request' });
    await row.waitFor();

    // Assess: the upload is theirs, received, with the note; the bell and the mail told them
    await expect(row.innerText()).resolves.toContain('“Both pages signed.”');
    await expect(row.innerText()).resolves.toContain('Received');
    await row.getByRole('link').click();
    await requesterPage.getByText(SCAN.name).first().waitFor();
    await requesterPage.goto(`${runtime.url}/notifications`);
    await requesterPage
      .getByText('Through your request “Signed contract”: Dana Okafor sent 1 file, noting “Both pages signed.”')
      .waitFor();
    const mails = await mailsTo(runtime.mailDir, requester.person.email);
    expect(mails.map((mail) => mail.headers.subject)).toContain('Dana Okafor sent 1 file through “Signed contract”');
    await visitorContext.close();
  });
});
