import { parseFeed } from '@rowanmanning/feed-parser';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { routes } from '../../shared/routes';
import { expectOk } from '../support/api-client';
import { apiSuite } from '../support/api-suite';
import { storyInTable } from '../support/stories';

/** Enough for topics with several members and a most followed top; more only costs seeding time. */
const suite = apiSuite({ seedPublications: 60 });

/** A feed as a reader fetches it: at its public address, through the edge, no cookie. */
async function read(path: string, headers: Record<string, string> = {}) {
  const answer = await fetch(`${suite.runtime.url}${path}`, { headers: { 'user-agent': 'FeedReader/1.0', ...headers } });
  return { status: answer.status, headers: answer.headers, text: await answer.text() };
}

/** What every feed must hold, as RSS 2.0 and Atom 1.0 require it; the parsed feed for more checks. */
function expectValidFeed(xml: string, format: 'rss' | 'atom', selfUrl: string) {
  expect(XMLValidator.validate(xml)).toBe(true);
  const feed = parseFeed(xml);
  expect(feed.meta.type).toBe(format);
  expect(feed.title).toBeTruthy();
  expect(feed.url).toMatch(/^http/);
  expect(feed.self).toBe(selfUrl);
  if (format === 'rss') {
    expect(feed.description).toBeTruthy();
  } else {
    expect(xml).toContain(`<id>${selfUrl}</id>`);
    expect(feed.updated).toBeInstanceOf(Date);
  }
  for (const item of feed.items) {
    expect(item.title).toBeTruthy();
    expect(item.url).toMatch(/^https?:\/\//);
    expect(item.id).toBeTruthy();
    expect(format === 'rss' ? item.published : item.updated).toBeInstanceOf(Date);
  }
  return feed;
}

describe('RSS and Atom feeds', () => {
  it("serves the stories' hot and new feeds and a person's, valid, cached, and 304 to a reader that has them", async () => {
    // Prepare: a person sharing a story whose title tries to break out of the XML
    const sharer = await suite.api.signIn('feeder');
    const hostile = 'Why <b>tags</b> & "quotes" ]]> break feeds';
    await storyInTable(sharer, 'An older story', new Date(Date.now() - 60_000));
    await storyInTable(sharer, hostile);

    // Act
    const [hotRss, newAtom, personRss, personAtom] = await Promise.all([
      read('/feeds/stories/hot.rss'),
      read('/feeds/stories/new.atom'),
      read(`/feeds/@${sharer.username}.rss`),
      read(`/feeds/@${sharer.username.toUpperCase()}.atom`),
    ]);

    // Assess
    const origin = suite.runtime.url;
    expect(hotRss.status).toBe(200);
    expect(hotRss.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    expect(newAtom.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const hot = expectValidFeed(hotRss.text, 'rss', `${origin}/feeds/stories/hot.rss`);
    expect(hot.items.map((item) => item.title)).toContain(hostile);
    const fresh = expectValidFeed(newAtom.text, 'atom', `${origin}/feeds/stories/new.atom`);
    expect(fresh.items.slice(0, 2).map((item) => item.title)).toEqual([hostile, 'An older story']);
    expect(fresh.items[0]?.url).toMatch(/^https:\/\/blog\.example\.com\//);
    const person = expectValidFeed(personRss.text, 'rss', `${origin}/feeds/@${sharer.username}.rss`);
    expect(person.items.map((item) => item.title)).toEqual([hostile, 'An older story']);
    expect(person.url).toBe(`${origin}/@${sharer.username}`);
    expect(personAtom.status).toBe(200);
    expectValidFeed(personAtom.text, 'atom', `${origin}/feeds/@${sharer.username}.atom`);

    for (const answer of [hotRss, newAtom, personRss]) {
      expect(answer.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=60, stale-while-revalidate=300');
      expect(answer.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
    }
    const again = await read('/feeds/stories/hot.rss', { 'if-none-match': hotRss.headers.get('etag') ?? '' });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    // The API's own address answers the same document (no edge cache in between).
    const direct = await suite.runtime.get(`/api/i/feeds/user/${sharer.username}/rss`, {
      'if-none-match': personRss.headers.get('etag') ?? '',
    });
    expect(direct.status).toBe(304);
  });

  it("serves one site's stories, newest first, whatever the spelling of its host, and links them from the site page", async () => {
    // Prepare: two stories from one site (with and without www.), one from another
    const sharer = await suite.api.signIn('site-feeder');
    await storyInTable(sharer, 'First from the site', new Date(Date.now() - 120_000), { url: 'https://www.feedsite.example/a' });
    await storyInTable(sharer, 'Second from the site', new Date(Date.now() - 60_000), { url: 'https://feedsite.example/b' });
    await storyInTable(sharer, 'From elsewhere', new Date(), { url: 'https://elsewhere.example/c' });

    // Act
    const [rss, atom, page] = await Promise.all([
      read('/feeds/site/feedsite.example.rss'),
      read('/feeds/site/WWW.FeedSite.example.atom'),
      read('/stories/site/feedsite.example'),
    ]);

    // Assess
    const origin = suite.runtime.url;
    expect(rss.status).toBe(200);
    const feed = expectValidFeed(rss.text, 'rss', `${origin}/feeds/site/feedsite.example.rss`);
    expect(feed.title).toBe('Stories from feedsite.example · TopPubs');
    expect(feed.url).toBe(`${origin}/stories/site/feedsite.example`);
    expect(feed.items.map((item) => item.title)).toEqual(['Second from the site', 'First from the site']);
    expect(atom.status).toBe(200);
    expectValidFeed(atom.text, 'atom', `${origin}/feeds/site/feedsite.example.atom`);
    expect(rss.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const alternates = [...page.text.matchAll(/<link[^>]*rel="alternate"[^>]*type="([^"]+)"[^>]*href="([^"]+)"/g)];
    expect(alternates.map((match) => [match[1], match[2]])).toEqual([
      ['application/rss+xml', `${origin}/feeds/site/feedsite.example.rss`],
      ['application/atom+xml', `${origin}/feeds/site/feedsite.example.atom`],
    ]);
  });

  it('serves the boards’ feeds: who entered the top, and the week’s fastest growing, overall and per topic', async () => {
    // Prepare: the first ranking only remembered the top; pretend #7 was not in it, then rank again
    const home = await suite.api.call(routes.showHome, { query: { limit: 10 } });
    expectOk(home);
    const entered = home.body.page.items[6];
    const tag = home.body.popularTopics[0]?.tag as string;
    const { data: stored } = await getDb().entities.boardFeed.get({ boardId: 'followers.all' }).go();
    expect(stored?.top).toContain(entered?.slug);
    await getDb()
      .entities.boardFeed.patch({ boardId: 'followers.all' })
      .set({ top: (stored?.top ?? []).filter((slug) => slug !== entered?.slug), runId: 'an-older-run' })
      .go();
    await suite.runtime.runJob('rank-publications');
    await suite.runtime.runJob('rank-publications');

    // Act
    const [topRss, topAtom, growingRss, topicAtom, topicGrowing] = await Promise.all([
      read('/feeds/boards/most-followed.rss'),
      read('/feeds/boards/most-followed.atom'),
      read('/feeds/boards/fastest-growing.rss'),
      read(`/feeds/topic/${tag}/most-followed.atom`),
      read(`/feeds/topic/${tag}/fastest-growing.rss`),
    ]);

    // Assess: told once, although the job ran twice
    const origin = suite.runtime.url;
    const top = expectValidFeed(topRss.text, 'rss', `${origin}/feeds/boards/most-followed.rss`);
    expect(top.items.map((item) => ({ title: item.title, url: item.url }))).toEqual([
      { title: `${entered?.name} entered the top 100 at #7`, url: `${origin}/pub/${entered?.slug}` },
    ]);
    expect(top.url).toBe(`${origin}/`);
    const topInAtom = expectValidFeed(topAtom.text, 'atom', `${origin}/feeds/boards/most-followed.atom`);
    expect(topInAtom.items.map((item) => item.id)).toEqual(top.items.map((item) => item.id));
    const growing = expectValidFeed(growingRss.text, 'rss', `${origin}/feeds/boards/fastest-growing.rss`);
    expect(growing.url).toBe(`${origin}/growing`);
    expect(growing.items.length).toBeGreaterThan(0);
    expect(growing.items[0]?.title).toMatch(/: \+[\d,.k]+ followers in the week of \d{4}-\d{2}-\d{2}$/);
    for (const item of growing.items) expect(item.url).toMatch(new RegExp(`^${origin}/pub/`));
    expectValidFeed(topicAtom.text, 'atom', `${origin}/feeds/topic/${tag}/most-followed.atom`);
    const topicGrowth = expectValidFeed(topicGrowing.text, 'rss', `${origin}/feeds/topic/${tag}/fastest-growing.rss`);
    expect(topicGrowth.url).toBe(`${origin}/topic/${tag}/growing`);
    for (const answer of [topRss, topicAtom]) {
      expect(answer.headers.get('cache-control')).toContain('max-age=60');
      expect(answer.headers.get('etag')).toBeTruthy();
    }
    const again = await read('/feeds/boards/most-followed.rss', { 'if-none-match': topRss.headers.get('etag') ?? '' });
    expect(again.status).toBe(304);
  });

  it('answers 404 with a clear message for a person, topic or site that does not exist, and 400 for an unknown format or host', async () => {
    // Act
    const [nobody, noTopic, badFormat, noSite, notASite] = await Promise.all([
      read('/feeds/@nobody_here_at_all.rss'),
      read('/feeds/topic/no-such-topic-here/most-followed.rss'),
      suite.runtime.get('/api/i/feeds/stories/hot/json'),
      read('/feeds/site/nobody-shared-from.example.rss'),
      read('/feeds/site/not_a_site.atom'),
    ]);

    // Assess
    expect(nobody.status).toBe(404);
    expect(JSON.parse(nobody.text)).toMatchObject({ message: 'There is nobody called @nobody_here_at_all here.' });
    expect(nobody.headers.get('cache-control')).toBe('no-store');
    expect(noTopic.status).toBe(404);
    expect(JSON.parse(noTopic.text)).toMatchObject({ message: "There is no topic called 'no-such-topic-here'." });
    expect(badFormat.status).toBe(400);
    expect(noSite.status).toBe(404);
    expect(JSON.parse(noSite.text)).toMatchObject({ message: 'No story has been shared from nobody-shared-from.example yet.' });
    expect(notASite.status).toBe(400);
    expect(JSON.parse(notASite.text)).toMatchObject({ message: expect.stringContaining('That is not a site name') });
  });

  it('announces each page’s feeds in its head and links them on the page', async () => {
    // Prepare
    const sharer = await suite.api.signIn('linked');
    const alternates = (html: string) =>
      [...html.matchAll(/<link[^>]*rel="alternate"[^>]*type="([^"]+)"[^>]*href="([^"]+)"/g)].map((match) => [match[1], match[2]]);

    // Act
    const [stories, profile, board] = await Promise.all([read('/stories'), read(`/@${sharer.username}`), read('/growing')]);

    // Assess
    const origin = suite.runtime.url;
    expect(alternates(stories.text)).toEqual([
      ['application/rss+xml', `${origin}/feeds/stories/hot.rss`],
      ['application/atom+xml', `${origin}/feeds/stories/hot.atom`],
    ]);
    expect(stories.text).toContain('<a href="/feeds/stories/hot.rss" type="application/rss+xml">RSS</a>');
    expect(alternates(profile.text)).toEqual([
      ['application/rss+xml', `${origin}/feeds/@${sharer.username}.rss`],
      ['application/atom+xml', `${origin}/feeds/@${sharer.username}.atom`],
    ]);
    expect(alternates(board.text)).toEqual([
      ['application/rss+xml', `${origin}/feeds/boards/fastest-growing.rss`],
      ['application/atom+xml', `${origin}/feeds/boards/fastest-growing.atom`],
    ]);
  });
});
