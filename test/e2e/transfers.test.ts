import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEveryPageTheSuiteVisits, expectAccessible } from '../support/accessibility';
import { launchBrowser, screenshotPath } from '../support/browser';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { signedInBrowser } from '../support/signed-in-browser';
import { invitationLink, pickFiles, sendTransfer } from '../support/transfer-form-steps';

const MIB = 1024 * 1024;

/** A small text file, as a person would send one. */
const NOTES = {
  name: 'notes.txt',
  buffer: Buffer.from(
    'Holiday notes\n\nDay 1: the ferry left at nine; the sea was calm.\nDay 2: up the hill to the lighthouse, and down again for lunch.\n'.repeat(
      10,
    ),
    'utf8',
  ),
};

/**
 * 20 MiB of bytes that never repeat in a short period (a linear congruential sequence), so a
 * part stored in the wrong place, twice or not at all shows: above 16 MiB it goes as a multipart
 * upload of 8 MiB parts, 3 of them.
 */
function variedBytes(size: number, seed = 0x2f6b_1d3a): Buffer {
  const bytes = Buffer.alloc(size);
  let state = seed >>> 0;
  for (let index = 0; index < size; index += 4) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    bytes.writeUInt32LE(state, index);
  }
  return bytes;
}

const FOOTAGE = { name: 'lighthouse-footage.bin', buffer: variedBytes(20 * MIB) };

let runtime: TestRuntime;
let browser: Browser;
/** Where the files to send are written, for the file input to pick them from disk. */
let picked: string;

beforeAll(async () => {
  picked = await mkdtemp(join(tmpdir(), 'toppubs-transfer-e2e-'));
  await Promise.all([NOTES, FOOTAGE].map((file) => writeFile(join(picked, file.name), file.buffer)));
  [runtime, browser] = await Promise.all([startTestRuntime(), launchBrowser()]);
});

// Every page these tests leave open is checked for WCAG 2.1 AA (test/support/accessibility.ts).
checkEveryPageTheSuiteVisits(() => browser);

afterAll(async () => {
  await browser?.close();
  await runtime?.close();
  if (picked) await rm(picked, { recursive: true, force: true });
});

/** The bytes of a download the browser saved, once it has finished. */
async function savedBytes(download: Download): Promise<Buffer> {
  const failure = await download.failure();
  if (failure) throw new Error(`The download of ${download.suggestedFilename()} failed: ${failure}`);
  return readFile(await download.path());
}

/**
 * Every value the page's "Transfer progress" bar showed, in order: the bar is replaced by the
 * Sent screen as soon as the send ends, too quickly for polling from outside to be sure to see
 * its last value, so the page notes each value as it is drawn.
 */
async function recordTransferProgress(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: number[] = [];
    (window as unknown as { transferProgressSeen: number[] }).transferProgressSeen = seen;
    const note = () => {
      const bar = document.querySelector('[role="progressbar"][aria-label="Transfer progress"]');
      const value = bar ? Number(bar.getAttribute('aria-valuenow')) : Number.NaN;
      if (bar && seen.at(-1) !== value) seen.push(value);
    };
    new MutationObserver(note).observe(document, { subtree: true, childList: true, attributes: true });
  });
}

describe('file transfer in a real browser', () => {
  it('a sender sends two files to a new address; the recipient opens the emailed link, likes, downloads one and all; the sender sees it', async () => {
    // Prepare: a signed-in sender, and a recipient who has no account yet
    const sender = await signedInBrowser(browser, runtime, 'sender');
    const recipient = `recipient-${Date.now()}@example.com`;
    const title = 'Lighthouse trip';
    const message = 'The footage from the lighthouse, and my notes.';
    const senderPage = await sender.context.newPage();
    await recordTransferProgress(senderPage);
    // What the page sent straight to the file bucket (another origin than the site's).
    const toBucket: string[] = [];
    senderPage.on('response', (response) => {
      if (new URL(response.url()).origin !== new URL(runtime.url).origin)
        toBucket.push(`${response.request().method()} ${response.status()}`);
    });
    await senderPage.goto(`${runtime.url}/transfer`);
    const form = senderPage.getByRole('form', { name: 'New transfer' });
    await form.waitFor();

    // Act: add the files, a recipient, a title and a message, and send
    await pickFiles(
      form,
      [NOTES, FOOTAGE].map((file) => join(picked, file.name)),
    );
    const toSend = form.getByRole('list', { name: 'Files to send' });
    await toSend.getByRole('listitem').filter({ hasText: NOTES.name }).filter({ hasText: '1.28 kB' }).waitFor();
    await toSend.getByRole('listitem').filter({ hasText: FOOTAGE.name }).filter({ hasText: '21 MB' }).waitFor();
    await form.getByRole('combobox', { name: 'Recipient email' }).fill(recipient);
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await form.getByRole('list', { name: 'Recipients' }).getByRole('listitem').filter({ hasText: recipient }).waitFor();
    await form.getByRole('textbox', { name: 'Title' }).fill(title);
    await form.getByRole('textbox', { name: 'Message' }).fill(message);
    await expectAccessible(senderPage, 'the send form, filled in');
    const sent = await sendTransfer(senderPage, form);

    // Assess: the Sent screen says what went where, and the progress reached 100%
    await expect(sent.innerText()).resolves.toContain('2 files on the way to 1 recipient');
    const progressSeen = await senderPage.evaluate(
      () => (window as unknown as { transferProgressSeen: number[] }).transferProgressSeen,
    );
    expect(progressSeen.at(-1), `the progress bar showed ${progressSeen.join(', ')}`).toBe(100);
    // The notes went in one presigned POST, the footage as a multipart upload of three 8 MiB
    // parts (a part retried after a failed try would add a failed answer, not a stored part).
    expect(toBucket.filter((answer) => / 2\d\d$/.test(answer)).sort()).toEqual(['POST 204', 'PUT 200', 'PUT 200', 'PUT 200']);
    const packageLink = new URL(await sent.getByRole('textbox', { name: 'Package link' }).inputValue());
    const transferId = decodeURIComponent(/^\/transfer\/([^/]+)\/package$/.exec(packageLink.pathname)?.[1] ?? '');
    expect(transferId, packageLink.href).not.toBe('');
    await expectAccessible(senderPage, 'the Sent screen');
    await senderPage.screenshot({ path: screenshotPath('transfer-sent') });

    // Act: the recipient, in a browser with no session, opens the link in the invitation email
    const link = await invitationLink(runtime.mailDir, recipient);
    expect(link.origin).toBe(new URL(runtime.url).origin);
    expect(link.pathname).toBe(packageLink.pathname);
    const recipientContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    const page = await recipientContext.newPage();
    await page.goto(link.href);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();

    // Assess: the package opened by the link alone, which is no key to an account (nobody is
    // signed in, and the page says so), the invitation spent from the address bar, and both
    // files listed with their names and sizes
    await page.getByRole('status', { name: 'How you opened this transfer' }).waitFor();
    await expect(page.getByRole('button', { name: /^Account menu for / }).count()).resolves.toBe(0);
    expect(new URL(page.url()).hash).toBe('');
    await expect(page.getByRole('main').innerText()).resolves.toContain('sent you 2 files, 21 MB.');
    await expect(page.getByText(message).isVisible()).resolves.toBe(true);
    const files = page.getByRole('region', { name: 'Files' });
    const notesCard = files.getByRole('article', { name: NOTES.name });
    const footageCard = files.getByRole('article', { name: FOOTAGE.name });
    await expect(notesCard.innerText()).resolves.toContain('1.28 kB · text/plain');
    await expect(footageCard.innerText()).resolves.toContain('21 MB · application/octet-stream');
    await expect(files.getByRole('article').count()).resolves.toBe(2);
    await expectAccessible(page, 'the package page, opened from the invitation');
    await page.screenshot({ path: screenshotPath('transfer-package') });

    // Act: like the notes. The button turns at once (an optimistic update), so the reload below
    // waits for the server's answer: a reload while the like is in flight would cancel it, as it
    // would for a person (it failed so once on a loaded machine).
    const liked = page.waitForResponse(
      (response) => /\/v\/like\/on$/.test(new URL(response.url()).pathname) && response.request().method() === 'PUT',
    );
    await notesCard.getByRole('button', { name: 'Like: 0 likes', pressed: false }).click();

    // Assess: pressed with one like, and still so after a reload (the link's grant outlives it)
    await notesCard.getByRole('button', { name: 'Like: 1 like', pressed: true }).waitFor();
    expect((await liked).status()).toBe(200);
    await page.reload();
    await files.getByRole('article', { name: NOTES.name }).getByRole('button', { name: 'Like: 1 like', pressed: true }).waitFor();
    await expect(footageCard.getByRole('button', { name: 'Like: 0 likes', pressed: false }).isVisible()).resolves.toBe(true);

    // Act: download the notes
    const [notesDownload] = await Promise.all([
      page.waitForEvent('download', { timeout: 15_000 }),
      notesCard.getByRole('button', { name: 'Download', exact: true }).click(),
    ]);

    // Assess: the same name and the same bytes as sent
    expect(notesDownload.suggestedFilename()).toBe(NOTES.name);
    expect((await savedBytes(notesDownload)).equals(NOTES.buffer)).toBe(true);

    // Act: download everything as one zip
    const [zipDownload] = await Promise.all([
      page.waitForEvent('download', { timeout: 30_000 }),
      page.getByRole('button', { name: 'Download all as .zip' }).click(),
    ]);
    const zip = await savedBytes(zipDownload);
    await page.getByText('The zip is saved in your downloads.').waitFor();

    // Assess: a zip named after the transfer, streamed by the site's download helper (its
    // service worker, not the in-memory fallback for browsers without one), holding both files
    // by name with the bytes sent
    expect(zipDownload.suggestedFilename()).toBe(`${title}.zip`);
    expect(zipDownload.url().startsWith(`${runtime.url}/`), zipDownload.url()).toBe(true);
    const entries = unzipSync(new Uint8Array(zip.buffer, zip.byteOffset, zip.byteLength));
    expect(Object.keys(entries).sort()).toEqual([FOOTAGE.name, NOTES.name].sort());
    expect(Buffer.from(entries[NOTES.name]!).equals(NOTES.buffer)).toBe(true);
    expect(entries[FOOTAGE.name]!.byteLength).toBe(FOOTAGE.buffer.length);
    expect(Buffer.from(entries[FOOTAGE.name]!).equals(FOOTAGE.buffer)).toBe(true);
    await expectAccessible(page, 'the package page after the downloads');

    // Act: the sender looks at their transfer
    await senderPage.goto(`${runtime.url}/transfers/${encodeURIComponent(transferId)}`);
    await senderPage.getByRole('heading', { level: 1, name: title }).waitFor();
    const recipients = senderPage.getByRole('list', { name: 'Recipients' });
    const entry = recipients.getByRole('listitem').filter({ hasText: recipient }).first();
    await entry.waitFor();

    // Assess: the recipient downloaded, and what: the notes, then all files as a zip
    await expect(entry.innerText()).resolves.toMatch(/Downloaded \d/);
    const downloaded = senderPage.getByRole('list', { name: `What ${recipient} downloaded` });
    await expect(downloaded.getByRole('listitem').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(new RegExp(`^${NOTES.name.replace('.', '\\.')}, `)),
      expect.stringMatching(/^All files \(zip\), /),
    ]);
    const filesList = senderPage.getByRole('list', { name: 'Files' });
    await expect(filesList.getByRole('listitem').filter({ hasText: NOTES.name }).innerText()).resolves.toContain('1 like');
    await expectAccessible(senderPage, "the sender's view after the downloads");
  });
});

describe('a link transfer in a real browser', () => {
  it('a sender gets a link; someone with no account opens it in another browser and downloads a file; the sender sees it in the log', async () => {
    // Prepare: a signed-in sender on the send page
    const sender = await signedInBrowser(browser, runtime, 'link-sender');
    const title = 'Notes by link';
    const senderPage = await sender.context.newPage();
    await senderPage.goto(`${runtime.url}/transfer`);
    const form = senderPage.getByRole('form', { name: 'New transfer' });
    await form.waitFor();

    // Act: one file, "Get a link", a limit of 5 downloads, no recipient, and send
    await pickFiles(form, [join(picked, NOTES.name)]);
    await form.getByRole('radio', { name: /Get a link/ }).check();
    await form.getByRole('checkbox', { name: 'Limit downloads' }).check();
    await form.getByRole('spinbutton', { name: 'Downloads allowed' }).fill('5');
    await form.getByRole('textbox', { name: 'Title' }).fill(title);
    await expectAccessible(senderPage, 'the send form, sending by link');
    const sent = await sendTransfer(senderPage, form, 30_000);

    // Assess: the Sent screen shows the link, with its key, to copy
    const link = new URL(await sent.getByRole('textbox', { name: 'Link to the files' }).inputValue());
    expect(link.origin).toBe(new URL(runtime.url).origin);
    expect(link.hash).toMatch(/^#key=[A-Za-z0-9_-]{43}$/);
    const transferId = decodeURIComponent(/^\/transfer\/([^/]+)\/package$/.exec(link.pathname)?.[1] ?? '');
    await expectAccessible(senderPage, 'the Sent screen of a link transfer');

    // Act: someone with no account opens the link in a browser of their own
    const visitorContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    const page = await visitorContext.newPage();
    await page.goto(link.href);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();

    // Assess: open without a session or an account, saying how many downloads are left
    await expect(page.getByRole('button', { name: /^Account menu for / }).count()).resolves.toBe(0);
    expect((await visitorContext.cookies()).map((cookie) => cookie.name)).not.toContain('ssoat');
    await page.getByText('5 of 5 downloads left.').waitFor();
    await page.getByText(/Log in to like or dislike them/).waitFor();
    await expectAccessible(page, 'the package page, opened from a link');

    // Act: download the notes
    const notesCard = page.getByRole('region', { name: 'Files' }).getByRole('article', { name: NOTES.name });
    const [notesDownload] = await Promise.all([
      page.waitForEvent('download', { timeout: 15_000 }),
      notesCard.getByRole('button', { name: 'Download', exact: true }).click(),
    ]);

    // Assess: the bytes sent
    expect(notesDownload.suggestedFilename()).toBe(NOTES.name);
    expect((await savedBytes(notesDownload)).equals(NOTES.buffer)).toBe(true);

    // Act: the sender looks at their transfer
    await senderPage.goto(`${runtime.url}/transfers/${encodeURIComponent(transferId)}`);
    await senderPage.getByRole('heading', { level: 1, name: title }).waitFor();

    // Assess: one anonymous download of the notes, one of five taken
    // The log is a query of its own, answered after the page's heading shows: wait for its first line.
    const log = senderPage.getByRole('list', { name: 'Download log' });
    await log.getByRole('listitem').first().waitFor();
    await expect(log.getByRole('listitem').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^Anonymous downloaded notes\.txt/),
    ]);
    await senderPage.getByText('1 of 5 downloads taken.').waitFor();
    await expectAccessible(senderPage, "the sender's view of a link transfer");
    await visitorContext.close();
  });
});
