import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEveryPageTheSuiteVisits, expectAccessible } from '../support/accessibility';
import { createApiClient } from '../support/api-client';
import { launchBrowser } from '../support/browser';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { signedInBrowser } from '../support/signed-in-browser';
import { sentTransfer } from '../support/transfers';

// A 1x1 PNG: three of them, under three names, make a package's photos.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const NOTES = Buffer.from('Day 1: the ferry left at nine.\nDay 2: the lighthouse.\n', 'utf8');

let runtime: TestRuntime;
let browser: Browser;

beforeAll(async () => {
  [runtime, browser] = await Promise.all([startTestRuntime(), launchBrowser()]);
});

// Every page these tests leave open is checked for WCAG 2.1 AA (test/support/accessibility.ts).
checkEveryPageTheSuiteVisits(() => browser);

afterAll(async () => {
  await browser?.close();
  await runtime?.close();
});

describe('previews of a package in a real browser', () => {
  it('a recipient opens a photo in the lightbox, moves to the next one, and reads a text file', async () => {
    // Prepare: a package of three photos and notes, sent to a signed-in recipient
    const api = createApiClient(runtime);
    const sender = await api.signIn('preview-sender');
    const recipient = await signedInBrowser(browser, runtime, 'preview-recipient');
    const { transferId } = await sentTransfer(api, sender, {
      title: 'Lighthouse photos',
      files: [
        { name: 'harbour.png', bytes: PNG, type: 'image/png' },
        { name: 'notes.txt', bytes: NOTES, type: 'text/plain' },
        { name: 'cliffs.png', bytes: PNG, type: 'image/png' },
        { name: 'beacon.png', bytes: PNG, type: 'image/png' },
      ],
      recipients: [recipient.person.email],
    });
    const page = await recipient.context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${runtime.url}/transfer/${encodeURIComponent(transferId)}/package`);
    const files = page.getByRole('region', { name: 'Files' });
    await files.getByRole('article').first().waitFor();

    // Act: open the second photo
    await files.getByRole('button', { name: 'Preview cliffs.png' }).click();

    // Assess: a dialog named after it, with its place among the photos, showing the image itself
    const lightbox = page.getByRole('dialog', { name: 'cliffs.png' });
    await lightbox.getByText('2 of 3').waitFor();
    const image = lightbox.getByRole('img', { name: 'cliffs.png' });
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBe(1);
    await expectAccessible(page, 'the image lightbox');

    // Act: the next photo, by the button and then by the arrow key
    await lightbox.getByRole('button', { name: /Next/ }).click();
    await page.getByRole('dialog', { name: 'beacon.png' }).getByText('3 of 3').waitFor();
    await page.keyboard.press('ArrowRight');

    // Assess: round to the first
    await page.getByRole('dialog', { name: 'harbour.png' }).getByText('1 of 3').waitFor();

    // Act: close it, and preview the notes
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await files.getByRole('button', { name: 'Preview notes.txt' }).click();

    // Assess: the text itself, whole (no 64 KB note), and no policy violation on the way
    const text = page.getByRole('dialog', { name: 'notes.txt' }).getByLabel('Contents of notes.txt');
    await expect.poll(() => text.textContent()).toBe(NOTES.toString('utf8'));
    await expect(page.getByText(/Showing the first 64 KB/).count()).resolves.toBe(0);
    await expectAccessible(page, 'the text preview');
    expect(violations).toEqual([]);
  });
});
