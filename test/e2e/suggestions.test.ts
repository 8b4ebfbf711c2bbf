import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEveryPageTheSuiteVisits, expectAccessible } from '../support/accessibility';
import { launchBrowser } from '../support/browser';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { signedInBrowser } from '../support/signed-in-browser';

let runtime: TestRuntime;
let browser: Browser;

beforeAll(async () => {
  // As `LOCAL_SOURCES=fixtures npm start`: publications are read from the runtime's fixture web.
  [runtime, browser] = await Promise.all([startTestRuntime({ demoSourceFixtures: true }), launchBrowser()]);
});

// Every page these tests leave open is checked for WCAG 2.1 AA (test/support/accessibility.ts).
checkEveryPageTheSuiteVisits(() => browser);

afterAll(async () => {
  await browser?.close();
  await runtime?.close();
});

describe('suggesting publications in a real browser', () => {
  it('a reader previews and suggests two blogs; a moderator accepts one and imports a list, reading the report', async () => {
    // Prepare
    const { context: readerContext } = await signedInBrowser(browser, runtime, 'suggester');
    const reader = await readerContext.newPage();
    await reader.goto(`${runtime.url}/suggest`);
    const address = reader.getByRole('textbox', { name: 'Publication address' });

    // Act: one above the follower floor
    await address.fill('https://fieldnotesontea.wordpress.com/');
    await reader.getByRole('button', { name: 'Preview' }).click();
    await reader.getByRole('article', { name: 'Field Notes on Tea' }).waitFor();
    await expectAccessible(reader, 'the suggest page with a preview');
    await reader.getByRole('button', { name: 'Suggest it' }).click();
    const added = await reader.getByRole('status').filter({ hasText: 'Thank you' }).textContent();

    // Act: one below it
    await address.fill('https://breadletters.wordpress.com/');
    await reader.getByRole('button', { name: 'Preview' }).click();
    await reader.getByText('A moderator reviews it before it is added.').waitFor();
    await reader.getByRole('button', { name: 'Suggest it' }).click();
    const queued = await reader.getByRole('status').filter({ hasText: 'Thank you' }).textContent();

    // Act: the moderator's queue and a list to import
    const { context: moderatorContext } = await signedInBrowser(browser, runtime, 'moderator', undefined, { superuser: true });
    const moderator = await moderatorContext.newPage();
    await moderator.goto(`${runtime.url}/suggestions/review`);
    const queue = moderator.getByRole('list', { name: 'Suggestions waiting for review' });
    await queue.getByRole('article', { name: 'Bread Letters' }).waitFor();
    await expectAccessible(moderator, 'the suggestions queue');
    await queue.getByRole('button', { name: 'Accept Bread Letters' }).click();
    await moderator.getByRole('heading', { name: 'Nothing to review' }).waitFor();
    await moderator.getByLabel('File of addresses').setInputFiles({
      name: 'publications.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(
        [
          'https://medium.com/ux-collective',
          'https://fieldnotesontea.wordpress.com/',
          'https://pulse-kitchen.example/feed.xml',
          'https://nothing.example/feed.xml',
        ].join('\n'),
      ),
    });
    await moderator.getByRole('button', { name: 'Import' }).click();
    const report = moderator.getByRole('status').filter({ hasText: 'added,' });
    await report.waitFor();

    // Assess
    expect(added).toContain('Thank you. Added: on the boards from the next hourly ranking.');
    expect(queued).toContain('Thank you. Waiting for a moderator.');
    expect(await report.textContent()).toContain('2 added, 1 already known, 1 not added.');
    const rows = moderator.getByRole('table', { name: 'What became of each address' }).getByRole('row');
    await expect(rows.nth(1).textContent()).resolves.toContain('Added');
    await expect(rows.nth(2).textContent()).resolves.toContain('Already known');
    await expect(rows.nth(3).textContent()).resolves.toContain('Added');
    await expect(rows.nth(4).textContent()).resolves.toContain('No publication was found at that address');
    await expectAccessible(moderator, 'the import report');
  });
});
