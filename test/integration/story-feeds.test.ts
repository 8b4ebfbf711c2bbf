import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { storeHotList } from '../../functions/stories/lib/feeds';
import { routes } from '../../shared/routes';
import { type ApiClient, createApiClient, expectError, expectOk, type SignedInUser } from '../support/api-client';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { storyInTable } from '../support/stories';

let runtime: TestRuntime;
let api: ApiClient;
let pages: Server;
/** The test's own site on 127.0.0.2, which the local runtime may fetch (FETCH_PRIVATE_ADDRESSES). */
let site: string;

beforeAll(async () => {
  pages = createServer((request, response) => {
    const title = (request.url ?? '/').slice(1);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html><head><meta property="og:title" content="${title}"></head><body></body></html>`);
  });
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

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);

type Page = { items: { id: string; title: string | null }[]; nextCursor: string | null };

/** Every page of a feed, following nextCursor, as the web app's "more" button does. */
async function allPages(read: (cursor?: string) => Promise<{ ok: boolean; status: number; body: unknown }>): Promise<string[]> {
  const titles: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page += 1) {
    const answer = await read(cursor);
    if (!answer.ok) throw new Error(`Feed page failed with ${answer.status}`);
    const body = answer.body as Page;
    expect(body.items.length).toBeLessThanOrEqual(20);
    titles.push(...body.items.map((item) => item.title ?? ''));
    if (!body.nextCursor) return titles;
    cursor = body.nextCursor;
  }
  throw new Error('The feed never ended');
}

describe('the new and user feeds', () => {
  let sharer: SignedInUser;
  let other: SignedInUser;

  beforeAll(async () => {
    [sharer, other] = await Promise.all([api.signIn('prolific'), api.signIn('other')]);
    for (let index = 0; index < 25; index += 1) await storyInTable(sharer, `Mine ${index}`, hoursAgo(50 - index));
    await storyInTable(other, 'Theirs', hoursAgo(30.5));
  });

  it('lists every story newest first, page by page, each once', async () => {
    // Act
    const titles = await allPages((cursor) => api.call(routes.readNewFeed, { query: cursor ? { cursor } : {} }));

    // Assess: 'Theirs' (30.5 hours old) falls between 'Mine 20' and 'Mine 19'
    expect(titles.filter((title) => title.startsWith('Mine') || title === 'Theirs')).toEqual(
      [...Array.from({ length: 25 }, (_, index) => ({ title: `Mine ${index}`, at: 50 - index })), { title: 'Theirs', at: 30.5 }]
        .sort((a, b) => a.at - b.at)
        .map((entry) => entry.title),
    );
  });

  it("lists one person's shares only, and answers 404 for nobody", async () => {
    // Act
    const titles = await allPages((cursor) =>
      api.call(routes.readUserFeed, { params: { userId: sharer.userId }, query: cursor ? { cursor } : {} }),
    );
    const nobody = await api.call(routes.readUserFeed, { params: { userId: 'nobody-at-all' } });

    // Assess
    expect(titles).toEqual(Array.from({ length: 25 }, (_, index) => `Mine ${24 - index}`));
    expectError(nobody, 404, 'NOT_FOUND');
  });

  it("refuses a cursor from another user's list", async () => {
    // Prepare
    const first = await api.call(routes.readUserFeed, { params: { userId: sharer.userId } });
    expectOk(first);

    // Act
    const borrowed = await api.call(routes.readUserFeed, {
      params: { userId: other.userId },
      query: { cursor: first.body.nextCursor as string },
    });
    const fromAnotherFeed = await api.call(routes.readNewFeed, { query: { cursor: first.body.nextCursor as string } });

    // Assess
    expectError(borrowed, 400, 'BAD_REQUEST');
    expectError(fromAnotherFeed, 400, 'BAD_REQUEST');
  });
});

describe('visitors and signed-in readers', () => {
  it('serves visitors a page read up to 15 seconds ago, and signed-in readers a fresh one', async () => {
    // Prepare: a visitor has read the first page
    const [sharer, reader] = await Promise.all([api.signIn('fresh-sharer'), api.signIn('fresh-reader')]);
    const first = await api.call(routes.readNewFeed);
    expectOk(first);

    // Act: a story is shared, and both read the first page again
    await storyInTable(sharer, 'Just shared');
    const visitor = await api.call(routes.readNewFeed);
    const signedIn = await api.call(routes.readNewFeed, { as: reader });

    // Assess
    expectOk(visitor);
    expect(visitor.body).toEqual(first.body);
    expectOk(signedIn);
    expect(signedIn.body.items[0]?.title).toBe('Just shared');
  });
});

describe('the following feed', () => {
  let reader: SignedInUser;
  let writer: SignedInUser;
  let stranger: SignedInUser;

  beforeAll(async () => {
    [reader, writer, stranger] = await Promise.all([api.signIn('reader'), api.signIn('writer'), api.signIn('stranger')]);
    await storyInTable(writer, 'Last week', hoursAgo(24 * 7));
    await storyInTable(writer, 'Long ago', hoursAgo(24 * 40));
    await storyInTable(stranger, 'Not followed', hoursAgo(1));
  });

  const following = async (as: SignedInUser) => {
    const answer = await api.call(routes.readFollowingFeed, { as });
    expectOk(answer);
    return answer.body.items.map((item) => item.title);
  };
  const follow = (status: 'on' | 'off') => api.call(routes.followUser, { params: { userId: writer.userId, status }, as: reader });

  it("shows a new follow's stories of the last 30 days, then what they share next", async () => {
    // Act
    expectOk(await follow('on'));
    const afterFollow = await following(reader);
    const shared = await api.call(routes.shareStoryByUrl, { body: { url: `${site}/Fresh` }, as: writer });
    const afterShare = await following(reader);

    // Assess
    expect(afterFollow).toEqual(['Last week']);
    expectOk(shared, 201);
    expect(afterShare).toEqual(['Fresh', 'Last week']);
  });

  it("takes someone's stories out of the feed when the reader unfollows them", async () => {
    // Act
    expectOk(await follow('off'));
    const afterUnfollow = await following(reader);

    // Assess
    expect(afterUnfollow).toEqual([]);
  });

  it('is for signed-in readers only', async () => {
    // Act
    const anonymous = await api.call(routes.readFollowingFeed);

    // Assess
    expectError(anonymous, 401);
  });
});

describe('the hot feed', () => {
  it('puts a fast riser above an older story with more likes, and pages the stored order', async () => {
    // Prepare: 30 likes in 3 hours against 60 over two days, and 30 quiet stories
    const sharer = await api.signIn('hot-sharer');
    const db = getDb();
    const riser = await storyInTable(sharer, 'Riser', hoursAgo(3));
    const favourite = await storyInTable(sharer, 'Old favourite', hoursAgo(48));
    await db.entities.story.patch({ storyId: riser }).set({ likeCount: 30 }).go();
    await db.entities.story.patch({ storyId: favourite }).set({ likeCount: 60 }).go();
    for (let index = 0; index < 30; index += 1) await storyInTable(sharer, `Quiet ${index}`, hoursAgo(100 + index));

    // Act: before the job has run, the page is ranked on the spot; then from the stored list
    const before = await api.call(routes.readHotFeed);
    await storeHotList(db, new Date());
    const stored = await allPages((cursor) => api.call(routes.readHotFeed, { query: cursor ? { cursor } : {} }));
    const badCursor = await api.call(routes.readHotFeed, { query: { cursor: 'eyJvIjotMX0' } });

    // Assess
    expectOk(before);
    // Other tests' stories are in the same feed (a story shared minutes ago ranks high too).
    const order = (titles: string[]) => titles.filter((title) => title === 'Riser' || title === 'Old favourite');
    expect(before.body.items[0]?.title).toBe('Riser');
    expect(order(before.body.items.map((item) => item.title ?? ''))).toEqual(['Riser', 'Old favourite']);
    expect(stored[0]).toBe('Riser');
    expect(order(stored)).toEqual(['Riser', 'Old favourite']);
    expect(new Set(stored).size).toBe(stored.length);
    expect(stored.filter((title) => title.startsWith('Quiet'))).toHaveLength(30);
    expectError(badCursor, 400, 'BAD_REQUEST');
  });
});
