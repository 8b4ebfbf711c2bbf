import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEveryPageTheSuiteVisits, expectAccessible } from '../support/accessibility';
import { launchBrowser, screenshotPath } from '../support/browser';
import { logInByEmailFromModal } from '../support/email-login';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { signedInBrowser } from '../support/signed-in-browser';
import { storyInTable } from '../support/stories';
import { uniqueEmail } from '../support/unique';

let runtime: TestRuntime;
let browser: Browser;

beforeAll(async () => {
  [runtime, browser] = await Promise.all([startTestRuntime({ seedPublications: 5 }), launchBrowser()]);
});

// Every page these tests leave open is checked for WCAG 2.1 AA (test/support/accessibility.ts).
checkEveryPageTheSuiteVisits(() => browser);

afterAll(async () => {
  await browser?.close();
  await runtime?.close();
});

describe('story comments in a real browser', () => {
  it("two people discuss a story in a thread, and the sharer's open page counts each comment on the bell", async () => {
    // Prepare: a story, its sharer watching the stories page, and Ana reading the story's page
    const sam = await signedInBrowser(browser, runtime, 'sam');
    const storyId = await storyInTable(sam.person, 'Deploying every day');
    const ana = await signedInBrowser(browser, runtime, 'ana');
    const [samPage, anaPage] = await Promise.all([sam.context.newPage(), ana.context.newPage()]);
    await Promise.all([samPage.goto(`${runtime.url}/stories`), anaPage.goto(`${runtime.url}/stories/${storyId}`)]);
    await samPage.getByRole('link', { name: 'Notifications', exact: true }).waitFor();

    // Act: Ana comments on the story
    await anaPage.getByRole('textbox', { name: 'Your comment' }).fill('Does **daily** mean every weekday?');
    await anaPage.getByRole('button', { name: 'Post comment' }).click();
    const anaComment = anaPage.getByRole('article').filter({ hasText: 'Does daily mean every weekday?' });
    await anaComment.getByRole('strong').filter({ hasText: 'daily' }).waitFor();

    // Act: Bo, signed out, reads it, logs in from the page and replies to Ana
    const bo = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const boPage = await bo.newPage();
    await boPage.goto(`${runtime.url}/stories/${storyId}`);
    await boPage.getByRole('article').filter({ hasText: 'Does daily mean every weekday?' }).waitFor();
    await boPage.getByRole('button', { name: 'Log in to comment' }).click();
    await logInByEmailFromModal(boPage, runtime, uniqueEmail('bo'));
    await boPage.waitForURL(`${runtime.url}/stories/${storyId}`);
    const anaCommentForBo = boPage.getByRole('article').filter({ hasText: 'Does daily mean every weekday?' });
    await anaCommentForBo.getByRole('button', { name: 'Reply' }).click();
    await anaCommentForBo.getByRole('textbox', { name: /^Reply to / }).fill('Weekdays, yes: never on a Friday evening.');
    await expectAccessible(boPage, 'a story page with a reply being written');
    await anaCommentForBo.getByRole('button', { name: 'Post reply' }).click();
    await boPage
      .getByRole('list', { name: /^Replies to / })
      .getByText('never on a Friday evening')
      .waitFor();

    // Act: Ana reads the reply (her page reloaded) and replies back under it
    await anaPage.reload();
    const boReply = anaPage.getByRole('article').filter({ hasText: 'never on a Friday evening' });
    await boReply.getByRole('button', { name: 'Reply' }).click();
    await boReply.getByRole('textbox', { name: /^Reply to / }).fill('Makes sense, thanks!');
    await boReply.getByRole('button', { name: 'Post reply' }).click();
    const thread = anaPage.getByRole('list', { name: /^Replies to / }).first();
    await thread
      .getByRole('list', { name: /^Replies to / })
      .getByText('Makes sense, thanks!')
      .waitFor();
    await anaPage.screenshot({ path: screenshotPath('story-comments-thread') });

    // Assess: Sam's page, never reloaded, counts one notification per comment; Ana's bell has Bo's reply
    await samPage.getByRole('link', { name: 'Notifications (3 unseen)' }).waitFor({ timeout: 5_000 });
    await anaPage.getByRole('link', { name: 'Notifications (1 unseen)' }).waitFor({ timeout: 5_000 });
    await anaPage.getByRole('heading', { name: 'Comments (3)' }).waitFor();

    // Act: Ana folds the thread under her comment
    const fold = anaPage
      .getByRole('article')
      .filter({ hasText: 'Does daily mean every weekday?' })
      .getByRole('button', { name: 'Hide 2 replies' });
    await fold.click();

    // Assess
    await expect(
      anaPage
        .getByRole('article')
        .filter({ hasText: 'Does daily mean' })
        .getByRole('button', { name: 'Show 2 replies' })
        .getAttribute('aria-expanded'),
    ).resolves.toBe('false');
    await expect(anaPage.getByText('Makes sense, thanks!').isVisible()).resolves.toBe(false);

    // Act: Sam opens the bell's list
    await samPage.getByRole('link', { name: 'Notifications (3 unseen)' }).click();
    const fresh = samPage.getByRole('list', { name: 'New notifications' });
    await fresh.waitFor();

    // Assess: each comment is its own notification, leading to the discussion
    await expect(fresh.getByRole('link', { name: /commented on your story/ }).count()).resolves.toBe(3);
    await expect(fresh.getByRole('link').first().getAttribute('href')).resolves.toBe(`/stories/${storyId}#comments`);
  });
});
