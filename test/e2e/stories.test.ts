import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../shared/routes';
import { createApiClient, makeSuperUser } from '../support/api-client';
import { signedInBrowser } from '../support/signed-in-browser';
import { checkEveryPageTheSuiteVisits, expectAccessible } from '../support/accessibility';
import { launchBrowser, screenshotPath } from '../support/browser';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

let runtime: TestRuntime;
let browser: Browser;
/**
 * The story's own page, on 127.0.0.2: another host than the site's own (127.0.0.1, which the
 * sharing rules refuse), on loopback, which the local runtime may fetch (FETCH_PRIVATE_ADDRESSES).
 */
let blog: Server;
let blogUrl: string;

const STORY_TITLE = 'How we ship every day';

beforeAll(async () => {
  blog = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><head><title>${STORY_TITLE}</title>
<meta property="og:title" content="${STORY_TITLE}"><meta property="og:site_name" content="Ship Notes">
<meta property="og:description" content="Small changes, every day."></head><body><h1>${STORY_TITLE}</h1></body></html>`);
  });
  await new Promise<void>((resolveListen) => blog.listen(0, '127.0.0.2', resolveListen));
  blogUrl = `http://127.0.0.2:${(blog.address() as AddressInfo).port}/posts/how-we-ship`;
  [runtime, browser] = await Promise.all([startTestRuntime(), launchBrowser()]);
});

// Every page these tests leave open is checked for WCAG 2.1 AA (test/support/accessibility.ts).
checkEveryPageTheSuiteVisits(() => browser);

afterAll(async () => {
  await browser?.close();
  await runtime?.close();
  await new Promise<void>((resolveClose) => blog?.close(() => resolveClose()));
});

describe('stories and the live bell in a real browser', () => {
  it("A shares a story; B opens it, likes it and follows A; A's bell lights up without a reload and A reads why", async () => {
    // Prepare: two people, each in their own browser
    const a = await signedInBrowser(browser, runtime, 'ana');
    const b = await signedInBrowser(browser, runtime, 'bo');
    const pageA = await a.context.newPage();
    await pageA.goto(`${runtime.url}/stories/new`);
    const bell = pageA.getByRole('link', { name: 'Notifications', exact: true });
    await bell.waitFor();

    // Act: A shares a story from the stories page; a link the rules refuse is explained as it is typed
    await pageA.getByRole('button', { name: 'Share a story' }).click();
    const dialog = pageA.getByRole('dialog', { name: 'Share a story' });
    const field = dialog.getByRole('textbox', { name: 'Story URL' });
    await field.fill('https://www.youtube.com/watch?v=abc');
    await dialog.getByRole('alert').filter({ hasText: 'Stories only' }).waitFor();
    await expectAccessible(pageA, 'the share-story form with a rule alert');
    await pageA.screenshot({ path: screenshotPath('share-story-rule-alert') });
    await field.fill(blogUrl);
    await dialog.getByRole('button', { name: 'Share', exact: true }).click();
    await dialog.getByRole('status').filter({ hasText: 'Shared with your followers.' }).waitFor();
    await dialog.getByRole('article', { name: `Preview: ${STORY_TITLE}` }).waitFor();
    await expectAccessible(pageA, 'the share-story form with the shared story');
    await pageA.screenshot({ path: screenshotPath('share-story-shared') });
    await dialog.getByRole('button', { name: 'Done' }).click();

    // Act: B opens it from the new stories (in a tab of its own), likes it, then follows A from their profile
    const pageB = await b.context.newPage();
    await pageB.goto(`${runtime.url}/stories/new`);
    const card = pageB.getByRole('article', { name: STORY_TITLE });
    const [storyTab] = await Promise.all([b.context.waitForEvent('page'), card.getByRole('link', { name: STORY_TITLE }).click()]);
    await storyTab.waitForURL(blogUrl);
    await storyTab.close();
    await card.getByRole('button', { name: 'Like: 0 likes' }).click();
    await card.getByRole('button', { name: 'Unlike: 1 like' }).waitFor();
    await pageB.goto(`${runtime.url}/@${a.person.username}`);
    await pageB.getByRole('button', { name: 'Follow', exact: true }).click();
    await pageB.getByRole('button', { name: 'Following', exact: true }).waitFor();

    // Assess: A's open page, never reloaded, shows the unseen count on the bell: both arrived
    await pageA.getByRole('link', { name: 'Notifications (2 unseen)' }).waitFor({ timeout: 5_000 });
    await expect(pageA.getByTestId('unseen-dot').isVisible()).resolves.toBe(true);
    await expect(pageA.getByTestId('unseen-dot').textContent()).resolves.toBe('2');
    await pageA.screenshot({ path: screenshotPath('stories-bell-lit') });

    // Act: A reads the notifications
    await pageA.getByRole('link', { name: 'Notifications (2 unseen)' }).click();
    const fresh = pageA.getByRole('list', { name: 'New notifications' });
    await fresh.waitFor();

    // Assess: who did what, and the bell is quiet again
    await expect(fresh.textContent()).resolves.toMatch(/liked your story/);
    await expect(fresh.textContent()).resolves.toMatch(/started following you/);
    await expect(pageA.getByRole('link', { name: 'Notifications', exact: true }).isVisible()).resolves.toBe(true);
    await a.context.close();
    await b.context.close();
  });

  it('an editor accepts a submitted story from the review queue, and a moderator sees the open reports', async () => {
    // Prepare: a story its sharer submitted for review, a report, and an editor
    const api = createApiClient(runtime);
    const sharer = await api.signIn('sharer');
    const shared = await api.call(routes.shareStoryByUrl, { as: sharer, body: { url: `${blogUrl}?edition=2` } });
    if (!shared.ok) throw new Error(`share failed: ${shared.text}`);
    await api.call(routes.submitStoryForReview, { as: sharer, params: { id: shared.body.story.id, status: 'on' } });
    await api.call(routes.reportObject, {
      as: sharer,
      body: { objectType: 'story', objectId: shared.body.story.id, reason: 'spam', details: 'A test report' },
    });
    const editor = await signedInBrowser(browser, runtime, 'editor');
    await makeSuperUser(editor.person);
    const page = await editor.context.newPage();

    // Act
    await page.goto(`${runtime.url}/stories/review`);
    const queue = page.getByRole('list', { name: 'Stories waiting for review' });
    await queue.waitFor();
    await expectAccessible(page, 'the review queue');
    await queue
      .getByRole('button', { name: `Accept “${STORY_TITLE}”` })
      .first()
      .click();
    await page.getByRole('heading', { name: 'Nothing to review' }).waitFor();
    await page.goto(`${runtime.url}/moderation`);
    await page.getByRole('list', { name: 'Reported objects' }).waitFor();

    // Assess
    await expect(page.getByRole('listitem', { name: `story ${shared.body.story.id}` }).textContent()).resolves.toContain(
      'A test report',
    );
    await editor.context.close();
  });
});
