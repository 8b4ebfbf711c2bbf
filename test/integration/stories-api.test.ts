import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { logger } from '../../functions/lib/logger';
import { shareStory } from '../../functions/stories/lib/share-story';
import { addShardedLikes } from '../../functions/stories/lib/story-like-count';
import { routes } from '../../shared/routes';
import { SHARE_ALERTS } from '../../shared/stories/sharing-rules';
import { type ApiClient, createApiClient, expectError, expectOk, type SignedInUser } from '../support/api-client';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

let runtime: TestRuntime;
let api: ApiClient;
let pages: Server;
/**
 * The test's own web site, on 127.0.0.2: loopback, which the runtime may fetch
 * (FETCH_PRIVATE_ADDRESSES), and not the runtime's own host (127.0.0.1), which the rules refuse.
 */
let site: string;

/** An article page whose canonical link is its own path. */
const article = (path: string) => `<!doctype html><html><head>
  <title>Plain title</title>
  <meta property="og:title" content="How we ship every day">
  <meta property="og:description" content="Small steps.">
  <meta property="og:image" content="/ship.png">
  <meta property="og:site_name" content="Ship Blog">
  <link rel="canonical" href="${path}">
  <script type="application/ld+json">{"@type":"BlogPosting","author":{"@type":"Person","name":"Ana Lima"},"datePublished":"2026-11-01T10:00:00Z"}</script>
</head><body><p>Hello</p></body></html>`;

function servePages(): Server {
  return createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const slug = /^\/posts\/([a-z-]+)(\/amp)?$/.exec(path ?? '')?.[1];
    if (slug) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(article(`/posts/${slug}`));
    } else if (path === '/moved') {
      response.writeHead(301, { location: '/posts/how-we-ship' }).end();
    } else if (path === '/to-twitter') {
      response.writeHead(302, { location: 'https://twitter.com/ana/status/1' }).end();
    } else if (path === '/loop') {
      response.writeHead(302, { location: '/loop' }).end();
    } else if (path === '/image.png') {
      response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(64));
    } else if (path === '/huge') {
      response.writeHead(200, { 'content-type': 'text/html' });
      const chunk = `<p>${'x'.repeat(64 * 1024)}</p>`;
      let sent = 0;
      const pump = () => {
        while (sent < 50 * 1024 * 1024 && response.write(chunk)) sent += chunk.length;
        if (sent < 50 * 1024 * 1024) response.once('drain', pump);
        else response.end();
      };
      response.on('error', () => undefined);
      pump();
    } else if (path === '/never') {
      // Never answers: the fetch's time cap must end it.
    } else {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
    }
  });
}

beforeAll(async () => {
  pages = servePages();
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.2', resolve));
  site = `http://127.0.0.2:${(pages.address() as AddressInfo).port}`;
  runtime = await startTestRuntime();
  api = createApiClient(runtime);
});

afterAll(async () => {
  pages?.closeAllConnections();
  await new Promise<void>((resolve) => pages?.close(() => resolve()) ?? resolve());
  await runtime?.close();
});

const checkUrl = (url?: string) =>
  runtime.get(`/api/i/stories/url/check${url === undefined ? '' : `?url=${encodeURIComponent(url)}`}`);

describe('GET /api/i/stories/url/check', () => {
  it('answers 200 with the normalised url for a shareable story, without signing in', async () => {
    // Act
    const answer = await checkUrl('https://Blog.Example.org/posts/hello/?utm_source=news#top');

    // Assess
    expect(answer.status).toBe(200);
    await expect(answer.json()).resolves.toEqual({ ok: true, url: 'https://blog.example.org/posts/hello' });
  });

  it('answers 400 INVALID_URL with the alert the share form shows', async () => {
    // Act
    const answer = await checkUrl('https://twitter.com/ana/status/1');

    // Assess
    expect(answer.status).toBe(400);
    await expect(answer.json()).resolves.toEqual({
      code: 'INVALID_URL',
      message: 'Invalid url',
      alert: SHARE_ALERTS.storiesOnly,
    });
  });

  it("refuses the deployment's own hosts, read from its configuration", async () => {
    // Prepare: the runtime serves the web app on localhost and 127.0.0.1 (ALLOWED_ORIGINS)
    const ownPage = `${runtime.url.replace('localhost', '127.0.0.1')}/about`;

    // Act
    const answer = await checkUrl(ownPage);

    // Assess
    expect(answer.status).toBe(400);
    await expect(answer.json()).resolves.toMatchObject({ code: 'INVALID_URL', alert: SHARE_ALERTS.externalOnly });
  });

  it('names the rule that refused an https address: the platform own host, a local address, a password in it', async () => {
    // Act
    const ownHost = await checkUrl('https://localhost:3700/pub/x');
    const local = await checkUrl('https://intranet:3700/pub/x');
    const password = await checkUrl('https://ana:secret@blog.example.org/story');

    // Assess: the runtime's own host is localhost (ALLOWED_ORIGINS); elsewhere localhost is a local address
    expect(ownHost.status).toBe(400);
    await expect(ownHost.json()).resolves.toMatchObject({ code: 'INVALID_URL', alert: SHARE_ALERTS.externalOnly });
    expect(local.status).toBe(400);
    await expect(local.json()).resolves.toMatchObject({
      code: 'INVALID_URL',
      alert: {
        title: 'Public addresses only',
        text: "That is a local address (such as localhost), which only your own computer or network can open: share the story's public address.",
      },
    });
    expect(password.status).toBe(400);
    await expect(password.json()).resolves.toMatchObject({ code: 'INVALID_URL', alert: SHARE_ALERTS.credentials });
  });

  it('answers a missing or malformed url with the same INVALID_URL alert', async () => {
    // Act
    const missing = await checkUrl();
    const malformed = await checkUrl('not a url');

    // Assess
    expect(missing.status).toBe(400);
    await expect(missing.json()).resolves.toMatchObject({ code: 'INVALID_URL', alert: SHARE_ALERTS.invalid });
    expect(malformed.status).toBe(400);
    await expect(malformed.json()).resolves.toMatchObject({ code: 'INVALID_URL', alert: SHARE_ALERTS.invalid });
  });
});

describe('POST /api/i/stories/story/by/url', () => {
  let ana: SignedInUser;
  let rui: SignedInUser;

  beforeAll(async () => {
    [ana, rui] = await Promise.all([api.signIn('ana'), api.signIn('rui')]);
  });

  /** As `as`, or as nobody when null. */
  const share = (url: unknown, as: SignedInUser | null = ana) =>
    api.call(routes.shareStoryByUrl, { rawBody: JSON.stringify({ url }), ...(as ? { as } : {}) });

  it('fetches the page, reads its card and stores the story under its canonical url', async () => {
    // Act
    const answer = await share(`${site}/posts/how-we-ship?utm_source=newsletter#comments`);

    // Assess
    expectOk(answer, 201);
    expect(answer.body.duplicate).toBe(false);
    expect(answer.body.story).toMatchObject({
      url: `${site}/posts/how-we-ship`,
      canonicalUrl: `${site}/posts/how-we-ship`,
      title: 'How we ship every day',
      description: 'Small steps.',
      imageUrl: `${site}/ship.png`,
      siteName: 'Ship Blog',
      author: 'Ana Lima',
      publishedAt: '2026-11-01T10:00:00.000Z',
      source: 'page',
      fetchProblem: null,
      likeCount: 0,
      commentCount: 0,
      sharer: { userId: ana.userId, username: ana.username },
      currentUserRelation: { isSharer: true, didUpvote: false },
    });
    expect(answer.body.story.id).toMatch(/^[A-Za-z0-9_-]{6,}$/);
    const { data: stored } = await getDb().entities.story.get({ storyId: answer.body.story.id }).go();
    expect(stored).toMatchObject({ sharerId: ana.userId, title: 'How we ship every day' });
  });

  it('answers the story already shared for the same page (redirected, AMP or tracked copies) within 30 days', async () => {
    // Act
    const first = await share(`${site}/posts/how-we-ship`, rui);
    const viaRedirect = await share(`${site}/moved`, rui);
    const viaAmp = await share(`${site}/posts/how-we-ship/amp?utm_medium=x`, rui);

    // Assess
    expectOk(first, 200);
    expectOk(viaRedirect, 200);
    expectOk(viaAmp, 200);
    expect(first.body.duplicate).toBe(true);
    expect(new Set([first.body.story.id, viaRedirect.body.story.id, viaAmp.body.story.id]).size).toBe(1);
    expect(first.body.story.sharer?.userId).toBe(ana.userId);
    expect(first.body.story.currentUserRelation.isSharer).toBe(false);
  });

  it('makes one story when two people share the same new page at once', async () => {
    // Act
    const answers = await Promise.all([share(`${site}/posts/shared-twice`, ana), share(`${site}/posts/shared-twice`, rui)]);

    // Assess
    const ids = answers.map((answer) => {
      expectOk(answer, answer.status);
      return answer.body.story.id;
    });
    expect(new Set(ids).size).toBe(1);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 201]);
  });

  it('still makes a story from the url alone when the page cannot be read, and says why in public words', async () => {
    // Act
    const missing = await share(`${site}/gone`);
    const notHtml = await share(`${site}/image.png`);
    const unknownHost = await share('http://blog.invalid/posts/nowhere');

    // Assess
    expectOk(missing, 201);
    expect(missing.body.story).toMatchObject({
      source: 'url-only',
      fetchProblem: 'The page could not be reached',
      title: null,
      siteName: '127.0.0.2',
    });
    expectOk(notHtml, 201);
    expect(notHtml.body.story).toMatchObject({ source: 'url-only', fetchProblem: 'The page is not a web page' });
    // Not 'fetch failed: getaddrinfo ENOTFOUND blog.invalid': what our resolver answered stays in the log.
    expectOk(unknownHost, 201);
    expect(unknownHost.body.story).toMatchObject({ source: 'url-only', fetchProblem: 'The page could not be reached' });
  });

  it('ends a redirect loop, a 50 MB page and a page that never answers within the time cap', async () => {
    // Act
    const started = Date.now();
    const [loop, huge, never] = await Promise.all([share(`${site}/loop`), share(`${site}/huge`), share(`${site}/never`)]);
    const seconds = (Date.now() - started) / 1000;

    // Assess
    for (const answer of [loop, huge, never]) expectOk(answer, 201);
    expect(loop.ok && loop.body.story.fetchProblem).toBe('The page could not be reached');
    expect(huge.ok && huge.body.story.fetchProblem).toBe('The page is too large to read');
    expect(never.ok && never.body.story.fetchProblem).toBe('The page did not answer in time');
    expect(seconds).toBeLessThan(8);
  }, 15_000);

  it('refuses a page whose redirect lands somewhere the sharing rules refuse', async () => {
    // Act
    const answer = await share(`${site}/to-twitter`);

    // Assess
    expectError(answer, 400, 'INVALID_URL');
    expect(answer.body).toMatchObject({ message: 'Invalid url', alert: SHARE_ALERTS.storiesOnly });
  });

  it('runs the same check as url/check before anything else', async () => {
    // Act
    const social = await share('https://www.instagram.com/p/abc');
    const notString = await share(42);
    const anonymous = await share(`${site}/posts/how-we-ship`, null);

    // Assess
    expectError(social, 400, 'INVALID_URL');
    expect(social.body).toMatchObject({ alert: SHARE_ALERTS.storiesOnly });
    expectError(notString, 400);
    expectError(anonymous, 401);
  });
});

describe('sharing with the production setting', () => {
  it('refuses to fetch a page on a private address: the story is made from the url alone, and does not say why', async () => {
    // Prepare: what a deployment runs with (FETCH_PRIVATE_ADDRESSES unset)
    const sharer = await api.signIn('prod-setting');
    const logged = vi.spyOn(logger, 'info');

    // Act
    const { story } = await shareStory(getDb(), sharer.userId, `${site}/posts/how-we-ship?private-check`, {
      ownHosts: [],
      allowPrivateAddresses: false,
    });

    // Assess: what the resolver answered is logged, never stored or shown
    expect(story).toMatchObject({ source: 'url-only', fetchProblem: 'The page could not be reached' });
    expect(story.title).toBeUndefined();
    expect(logged).toHaveBeenCalledWith(
      'Shared page could not be read',
      expect.objectContaining({ detail: expect.stringMatching(/non-public address/) }),
    );
    logged.mockRestore();
  });
});

describe('reading, opening and liking a story', () => {
  let sharer: SignedInUser;
  let reader: SignedInUser;
  let storyId: string;

  beforeAll(async () => {
    [sharer, reader] = await Promise.all([api.signIn('sharer'), api.signIn('reader')]);
    const shared = await api.call(routes.shareStoryByUrl, { body: { url: `${site}/posts/liked-story` }, as: sharer });
    expectOk(shared, 201);
    storyId = shared.body.story.id;
  });

  const like = (status: string, as: SignedInUser, id = storyId) =>
    api.call(routes.likeStory, { params: { id, status } as { id: string; status: 'on' }, as });
  const open = (as: SignedInUser | null) => api.call(routes.openStory, { params: { id: storyId }, ...(as ? { as } : {}) });

  it('shows a story to anyone, with no relation for a visitor', async () => {
    // Act
    const answer = await api.call(routes.getStory, { params: { id: storyId } });

    // Assess
    expectOk(answer);
    expect(answer.body.story).toMatchObject({
      id: storyId,
      title: 'How we ship every day',
      likeCount: 0,
      commentCount: 0,
      currentUserRelation: { didRedirect: false, isSharer: false, didUpvote: false },
    });
  });

  it("refuses a like before the reader opened the story's link, and on one's own story", async () => {
    // Act
    const beforeOpening = await like('on', reader);
    const own = await like('on', sharer);

    // Assess
    expectError(beforeOpening, 403, 'FORBIDDEN');
    expect(beforeOpening.body.message).toBe('Open the story before you like it.');
    expectError(own, 403, 'FORBIDDEN');
    expect(own.body.message).toBe('You cannot like a story you shared.');
  });

  it('redirects to the page, and records the open for a signed-in reader only', async () => {
    // Act
    const anonymous = await open(null);
    const signedIn = await open(reader);
    const seen = await api.call(routes.getStory, { params: { id: storyId }, as: reader });

    // Assess
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toBe(`${site}/posts/liked-story`);
    expect(signedIn.status).toBe(302);
    expectOk(seen);
    expect(seen.body.story.currentUserRelation).toEqual({ didRedirect: true, isSharer: false, didUpvote: false });
  });

  it('likes and unlikes, each idempotent, answering the state the server holds', async () => {
    // Act
    const liked = await like('on', reader);
    const likedAgain = await like('on', reader);
    const unliked = await like('off', reader);
    const unlikedAgain = await like('off', reader);

    // Assess
    expectOk(liked);
    expect(liked.body.story).toMatchObject({ likeCount: 1, currentUserRelation: { didUpvote: true } });
    expectOk(likedAgain);
    expect(likedAgain.body.story.likeCount).toBe(1);
    expectOk(unliked);
    expect(unliked.body.story).toMatchObject({ likeCount: 0, currentUserRelation: { didUpvote: false } });
    expectOk(unlikedAgain);
    expect(unlikedAgain.body.story.likeCount).toBe(0);
  });

  it('keeps the count equal to the likes under many concurrent likes and unlikes', async () => {
    // Prepare: twelve readers who opened the story
    const readers = await Promise.all(Array.from({ length: 12 }, (_, index) => api.signIn(`crowd${index}`)));
    await Promise.all(readers.map((person) => open(person)));

    // Act: 72 calls, six per reader, each liking or unliking at random, all at once (more calls
    // only lengthen the retries on one item; the bench's concurrent-likes section goes further)
    const calls = Array.from({ length: 72 }, (_, index) =>
      like(Math.random() < 0.6 ? 'on' : 'off', readers[index % readers.length] as SignedInUser),
    );
    const answers = await Promise.all(calls);

    // Assess: each call got through, or (on a machine loaded enough that retries would outlast the
    // function's timeout) was refused with the 503 that says nothing changed, never a generic 500;
    // most got through, and the count is exactly the likes stored
    const refused = answers.filter((answer) => answer.status === 503);
    for (const answer of refused) {
      expectError(answer, 503, 'SERVICE_UNAVAILABLE');
      expect(answer.body.message).toContain('Nothing changed');
    }
    for (const answer of answers.filter((answer) => answer.status !== 503)) expectOk(answer);
    expect(refused.length).toBeLessThan(answers.length / 2);
    const { data: relations } = await getDb().entities.storyRelation.query.byStory({ storyId }).go({ pages: 'all' });
    const likes = relations.filter((relation) => relation.likedAt !== undefined).length;
    const { data: stored } = await getDb().entities.story.get({ storyId }).go({ consistent: true });
    // Likes that collided moved the story's count into shards: read together, it is the likes.
    const [whole] = stored ? await addShardedLikes(getDb(), [stored], { consistent: true }) : [];
    expect(whole?.likeCount).toBe(likes);
  }, 60_000);

  it('refuses a like from someone the sharer blocked', async () => {
    // Prepare
    const blocked = await api.signIn('blocked');
    await open(blocked);
    expectOk(await api.call(routes.blockUser, { params: { userId: blocked.userId }, as: sharer }));

    // Act
    const answer = await like('on', blocked);

    // Assess
    expectError(answer, 403, 'FORBIDDEN');
  });

  it('answers 404 for an unknown story and 400 for a status it does not define', async () => {
    // Act
    const unknown = await like('on', reader, 'zzzzzzzz');
    const missing = await api.call(routes.getStory, { params: { id: 'zzzzzzzz' } });
    const badStatus = await like('maybe', reader);

    // Assess
    expectError(unknown, 404, 'NOT_FOUND');
    expectError(missing, 404, 'NOT_FOUND');
    expectError(badStatus, 400);
  });
});

describe('following people', () => {
  let fan: SignedInUser;
  let author: SignedInUser;
  let other: SignedInUser;

  beforeAll(async () => {
    [fan, author, other] = await Promise.all([api.signIn('fan'), api.signIn('author'), api.signIn('other')]);
  });

  const follow = (target: string, status: string, as: SignedInUser) =>
    api.call(routes.followUser, { params: { userId: target, status } as { userId: string; status: 'on' }, as });
  const followingIds = (ids: readonly string[] | string | undefined, as?: SignedInUser) =>
    api.call(routes.filterFollowingIds, {
      ...(ids === undefined ? {} : { query: { userIds: typeof ids === 'string' ? ids : JSON.stringify(ids) } }),
      ...(as ? { as } : {}),
    });

  it('follows and unfollows, each idempotent, keeping both counts exact', async () => {
    // Act
    const followed = await follow(author.userId, 'on', fan);
    const again = await follow(author.userId, 'on', fan);
    const byOther = await follow(author.userId, 'on', other);
    const unfollowed = await follow(author.userId, 'off', fan);
    const unfollowedAgain = await follow(author.userId, 'off', fan);

    // Assess
    expectOk(followed);
    expect(followed.body).toEqual({ userId: author.userId, following: true, followerCount: 1, followingCount: 0 });
    expectOk(again);
    expect(again.body.followerCount).toBe(1);
    expectOk(byOther);
    expect(byOther.body.followerCount).toBe(2);
    expectOk(unfollowed);
    expect(unfollowed.body).toMatchObject({ following: false, followerCount: 1 });
    expectOk(unfollowedAgain);
    expect(unfollowedAgain.body.followerCount).toBe(1);
    const { data: fanItem } = await getDb().entities.user.get({ userId: fan.userId }).go({ consistent: true });
    expect(fanItem?.followingCount).toBe(0);
  });

  it('answers which of the given users the caller follows, and an empty list without a user or ids', async () => {
    // Prepare
    expectOk(await follow(author.userId, 'on', fan));

    // Act
    const mine = await followingIds([author.userId, other.userId, 'nobody-at-all'], fan);
    const upperCase = await followingIds([author.userId.toUpperCase()], fan);
    const anonymous = await followingIds([author.userId]);
    const none = await followingIds(undefined, fan);
    const empty = await followingIds([], fan);
    const notJson = await followingIds('[not json', fan);

    // Assess
    expectOk(mine);
    expect(mine.body.ids).toEqual([author.userId]);
    expectOk(upperCase);
    expect(upperCase.body.ids).toEqual([author.userId]);
    expectOk(anonymous);
    expect(anonymous.body.ids).toEqual([]);
    expectOk(none);
    expect(none.body.ids).toEqual([]);
    expectOk(empty);
    expect(empty.body.ids).toEqual([]);
    expectError(notJson, 400);
  });

  it('refuses to follow oneself, someone who blocked you, or nobody', async () => {
    // Prepare
    expectOk(await api.call(routes.blockUser, { params: { userId: fan.userId }, as: other }));

    // Act
    const self = await follow(fan.userId, 'on', fan);
    const blockedBy = await follow(other.userId, 'on', fan);
    const unknown = await follow('00000000-0000-0000-0000-000000000000', 'on', fan);
    const badStatus = await follow(author.userId, 'yes', fan);

    // Assess
    expectError(self, 400);
    expectError(blockedBy, 403, 'FORBIDDEN');
    expectError(unknown, 404, 'NOT_FOUND');
    expectError(badStatus, 400);
  });
});
