import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../shared/routes';
import { COLLECTOR_USER_AGENT } from '../../functions/ranking/lib/sources/polite-fetch';
import { SUGGESTIONS_PER_DAY } from '../../functions/ranking/lib/suggestions';
import { apiSuite } from '../support/api-suite';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { startFixtureWeb, wordpressBlog } from '../../infra/local/fixture-web';
import { sourceFixture } from '../support/source-fetch';

const WORDPRESS_SITE = '/public-api.wordpress.com/rest/v1.1/sites/fieldnotesontea.wordpress.com';

/** The web as the adapters read it, served offline. */
const web = await startFixtureWeb({
  '/medium.com/ux-collective?format=json': { status: 200, body: sourceFixture('medium-ux-collective.json.txt') },
  '/uxdesign.cc/feed': { status: 200, body: sourceFixture('medium-feed.xml') },
  [`${WORDPRESS_SITE}?fields=ID,name,description,URL,icon,subscribers_count,is_private`]: {
    status: 200,
    body: sourceFixture('wordpress-site.json'),
  },
  [`${WORDPRESS_SITE}/posts?number=1&fields=date`]: { status: 200, body: sourceFixture('wordpress-posts.json') },
  '/pulse-kitchen.example/feed.xml': { status: 200, body: sourceFixture('blog-rss.xml') },
  '/quiet.example/robots.txt': { status: 200, body: 'User-agent: TopPubsBot\nDisallow: /\n' },
  '/quiet.example/feed.xml': { status: 200, body: sourceFixture('blog-rss.xml') },
  '/down.example/robots.txt': { status: 503 },
  ...wordpressBlog('breadletters.wordpress.com', {
    id: 7001,
    name: 'Bread Letters',
    subscribers: 2_000,
    lastPostAt: new Date('2026-11-20T00:00:00Z'),
  }),
});
afterAll(() => web.close());

/** UX Collective (Medium, 478,213 followers) is above it; Field Notes on Tea (WordPress.com, 18,342) is not. */
const FLOOR = 100_000;
const suite = apiSuite({ sourceFixtureOrigin: web.origin, suggestionAutoAcceptFollowers: FLOOR });

const preview = (url: string, as?: SignedInUser) =>
  suite.api.call(routes.previewSuggestion, { body: { url }, ...(as ? { as } : {}) });
const suggest = (url: string, as: SignedInUser) => suite.api.call(routes.suggestPublication, { body: { url }, as });
const decide = (id: string, decision: string, as: SignedInUser) =>
  suite.api.call(routes.decideSuggestion, { params: { id, decision: decision as 'accept' }, as });
/** The next ranking run, now rather than on the hour. */
const rank = async () => expectOk(await suite.api.call(routes.runRanking, { as: superuser }));

let reader: SignedInUser;
let otherReader: SignedInUser;
let superuser: SignedInUser;

beforeAll(async () => {
  [reader, otherReader, superuser] = await Promise.all([
    suite.api.signIn('reader'),
    suite.api.signIn('other-reader'),
    suite.api.signIn('editor', { superuser: true }),
  ]);
});

describe('previewing a suggestion', () => {
  it('shows what the platform shows, and that it would be added at once, reading it as the collector does', async () => {
    // Act
    const answer = await preview('https://medium.com/ux-collective/why-we-design-1a2b?source=home', reader);

    // Assess
    expectOk(answer);
    expect(answer.body).toEqual({
      publication: {
        platform: 'medium',
        sourceUrl: 'https://medium.com/ux-collective',
        name: 'UX Collective',
        url: 'https://uxdesign.cc/',
        description: 'We believe designers are thinkers as much as they are makers.',
        imageUrl: 'https://cdn-images-1.medium.com/max/400/1*mDhF9X4VO0rCrJvWFatyxg.png',
        topics: ['ux', 'design', 'user experience'],
        followers: 478_213,
        latestPostAt: '2026-11-25T17:58:40.912Z',
      },
      knownSlug: null,
      wouldBeAccepted: true,
    });
    expect(
      web.requests.filter((request) => request.path.startsWith('/medium.com/')).map((request) => request.userAgent),
    ).toContain(COLLECTOR_USER_AGENT);
  });

  it('says why an address cannot be suggested: not a web address, no publication there, robots say no, or out of reach', async () => {
    // Act
    const notAnAddress = await preview('medium ux collective', reader);
    const nothingThere = await preview('https://pulse-kitchen.example/no-such-feed.xml', reader);
    const refusedByRobots = await preview('https://quiet.example/feed.xml', reader);
    const outOfReach = await preview('https://down.example/feed.xml', reader);
    const visitor = await preview('https://medium.com/ux-collective');

    // Assess
    expectError(notAnAddress, 400, 'VALIDATION_FAILED');
    expect(notAnAddress.body.message).toContain('Paste a web address starting with https://');
    expectError(nothingThere, 422, 'UNPROCESSABLE');
    expect(nothingThere.body.message).toBe('No publication was found at that address. Check it and try again.');
    expectError(refusedByRobots, 422, 'UNPROCESSABLE');
    expect(refusedByRobots.body.message).toBe('That site asks robots like ours not to read it, so we cannot rank it.');
    expectError(outOfReach, 422, 'UNPROCESSABLE');
    expect(outOfReach.body.message).toBe('We could not reach that site. Check the address, or try again later.');
    expectError(visitor, 401);
  });
});

describe('suggesting a publication', () => {
  it('adds one above the follower floor at once, on the boards after the next ranking run, and answers the same suggestion after', async () => {
    // Act
    const suggested = await suggest('https://medium.com/ux-collective', reader);
    const again = await suggest('http://www.medium.com/UX-Collective/another-post-9f8e', otherReader);
    const previewAfter = await preview('https://medium.com/ux-collective', otherReader);
    await rank();

    // Assess
    expectOk(suggested, 201);
    expect(suggested.body).toMatchObject({
      alreadyKnown: false,
      suggestion: { status: 'accepted', decidedBy: 'auto', slug: 'ux-collective', publication: { name: 'UX Collective' } },
    });
    expectOk(again);
    expect(again.body).toEqual({ suggestion: suggested.body.suggestion, alreadyKnown: true });
    expectOk(previewAfter);
    expect(previewAfter.body).toMatchObject({ knownSlug: 'ux-collective', wouldBeAccepted: false });
    const page = await suite.api.call(routes.getPublication, { params: { slug: 'ux-collective' } });
    expectOk(page);
    expect(page.body.publication).toMatchObject({ name: 'UX Collective', followers: 478_213, url: 'https://uxdesign.cc/' });
    expect(page.body.source).toMatchObject({ platform: 'medium', url: 'https://medium.com/ux-collective', status: 'active' });
    const board = await suite.api.call(routes.loadPubs, { query: { limit: 10 } });
    expectOk(board);
    expect(board.body.items.map((item) => [item.rank, item.slug])).toEqual([[1, 'ux-collective']]);
  });

  it('queues those below the floor for a superuser, oldest first', async () => {
    // Act
    const wordpress = await suggest('https://fieldnotesontea.wordpress.com/', reader);
    const bread = await suggest('https://breadletters.wordpress.com/', otherReader);
    const queue = await suite.api.call(routes.listSuggestionQueue, { as: superuser });
    const queueForAReader = await suite.api.call(routes.listSuggestionQueue, { as: reader });
    const mine = await suite.api.call(routes.listMySuggestions, { as: reader });

    // Assess
    expectOk(wordpress, 201);
    expect(wordpress.body.suggestion).toMatchObject({ status: 'pending', slug: null, decidedBy: null });
    expectOk(bread, 201);
    expect(bread.body.suggestion).toMatchObject({
      status: 'pending',
      publication: { platform: 'wordpress.com', followers: 2_000 },
    });
    expectOk(queue);
    expect(queue.body.items.map((item) => item.publication.name)).toEqual(['Field Notes on Tea', 'Bread Letters']);
    expectError(queueForAReader, 403);
    expectOk(mine);
    expect(mine.body.items.map((item) => [item.publication.name, item.status])).toEqual([
      ['Field Notes on Tea', 'pending'],
      ['UX Collective', 'accepted'],
    ]);
  });

  it('lets a superuser accept or reject a waiting suggestion once, and answers a rejected one as it stands', async () => {
    // Prepare
    const queue = await suite.api.call(routes.listSuggestionQueue, { as: superuser });
    expectOk(queue);
    const [wordpress, bread] = queue.body.items;

    // Act
    const accepted = await decide(wordpress!.id, 'accept', superuser);
    const rejected = await decide(bread!.id, 'reject', superuser);
    const acceptedAgain = await decide(wordpress!.id, 'reject', superuser);
    const byAReader = await decide(bread!.id, 'accept', reader);
    const unknown = await decide('nosuchsuggestion', 'accept', superuser);
    const badDecision = await decide(bread!.id, 'maybe', superuser);
    const resuggested = await suggest('https://breadletters.wordpress.com/', reader);
    const queueAfter = await suite.api.call(routes.listSuggestionQueue, { as: superuser });
    await rank();

    // Assess
    expectOk(accepted);
    expect(accepted.body.suggestion).toMatchObject({
      status: 'accepted',
      slug: 'field-notes-on-tea',
      decidedBy: superuser.userId,
    });
    const page = await suite.api.call(routes.getPublication, { params: { slug: 'field-notes-on-tea' } });
    expectOk(page);
    expect(page.body.publication.followers).toBe(18_342);
    expectOk(rejected);
    expect(rejected.body.suggestion).toMatchObject({ status: 'rejected', slug: null });
    expectError(acceptedAgain, 409, 'CONFLICT');
    expectError(byAReader, 403);
    expectError(unknown, 404, 'NOT_FOUND');
    expectError(badDecision, 400);
    expectOk(resuggested);
    expect(resuggested.body).toMatchObject({ alreadyKnown: true, suggestion: { id: bread!.id, status: 'rejected' } });
    expectOk(queueAfter);
    expect(queueAfter.body.items).toEqual([]);
  });

  it('takes a feed, which counts no followers: it waits for a superuser, then is ranked on the activity boards only', async () => {
    // Act
    const previewed = await preview('https://pulse-kitchen.example/feed.xml', reader);
    const suggested = await suggest('https://pulse-kitchen.example/feed.xml', reader);
    expectOk(suggested, 201);
    const accepted = await decide(suggested.body.suggestion.id, 'accept', superuser);
    await rank();
    const [activity, followers, growth, search] = await Promise.all([
      suite.api.call(routes.loadActivityPubs, { query: { limit: 50 } }),
      suite.api.call(routes.loadPubs, { query: { limit: 50 } }),
      suite.api.call(routes.loadGrowthPubs, { query: { limit: 50 } }),
      suite.api.call(routes.searchPubs, { query: { q: 'pulse' } }),
    ]);

    // Assess
    expectOk(previewed);
    expect(previewed.body).toMatchObject({
      publication: { platform: 'feed', name: 'Pulse & Kitchen — notes', followers: null },
      wouldBeAccepted: false,
    });
    expect(suggested.body.suggestion).toMatchObject({ status: 'pending' });
    expectOk(accepted);
    const slug = accepted.body.suggestion.slug!;
    expectOk(activity);
    const row = activity.body.items.find((item) => item.slug === slug);
    expect(row).toMatchObject({
      name: 'Pulse & Kitchen — notes',
      followersKnown: false,
      latestPostAt: '2026-11-24T08:00:00.000Z',
    });
    // Newest post first.
    const postTimes = activity.body.items.map((item) => item.latestPostAt ?? '');
    expect(postTimes).toEqual([...postTimes].sort().reverse());
    expectOk(followers);
    expectOk(growth);
    expect([...followers.body.items, ...growth.body.items].map((item) => item.slug)).not.toContain(slug);
    expect(followers.body.items.every((item) => item.followersKnown)).toBe(true);
    expectOk(search);
    expect(search.body.items).toEqual([expect.objectContaining({ slug, followersKnown: false, rank: row!.rank })]);
    const page = await suite.api.call(routes.getPublication, { params: { slug } });
    expectOk(page);
    expect(page.body.publication).toMatchObject({
      followersKnown: false,
      ranks: { followers: null, growth: null, activity: row!.rank },
    });
    expect(page.body.history).toEqual([]);
    expect(page.body.boards.map((board) => board.board.kind)).toEqual(['activity', 'activity']);
    expect(page.body.source).toMatchObject({ platform: 'feed', url: 'https://pulse-kitchen.example/feed.xml' });
    expect(page.body.seo.description).toBe('Recipes <and> stories.');
  });

  it(`takes ${SUGGESTIONS_PER_DAY} new suggestions a day from one person, not counting addresses that led nowhere`, async () => {
    // Prepare: a person, and more new blogs than they may suggest in a day
    const eager = await suite.api.signIn('eager');
    for (let index = 0; index <= SUGGESTIONS_PER_DAY; index += 1) {
      Object.assign(
        web.answers,
        wordpressBlog(`blog${index}.wordpress.com`, {
          id: 8000 + index,
          name: `Blog number ${index}`,
          subscribers: 50,
          lastPostAt: new Date('2026-11-20T00:00:00Z'),
        }),
      );
    }

    // Act
    const nowhere = await suggest('https://missing.wordpress.com/', eager);
    const answers = [];
    for (let index = 0; index <= SUGGESTIONS_PER_DAY; index += 1) {
      answers.push(await suggest(`https://blog${index}.wordpress.com/`, eager));
    }

    // Assess
    expectError(nowhere, 422);
    expect(answers.slice(0, SUGGESTIONS_PER_DAY).map((answer) => answer.status)).toEqual(Array(SUGGESTIONS_PER_DAY).fill(201));
    const refused = answers[SUGGESTIONS_PER_DAY]!;
    expectError(refused, 429, 'RATE_LIMITED');
    expect(refused.body.message).toMatch(/^You have made 10 suggestions today\. Try again in /);
  });
});

describe('importing a list of addresses', () => {
  it('adds each new publication without review and says, address by address, what became of it', async () => {
    // Prepare
    Object.assign(
      web.answers,
      wordpressBlog('imported.wordpress.com', {
        id: 9001,
        name: 'Imported Letters',
        subscribers: 40,
        lastPostAt: new Date('2026-11-21T00:00:00Z'),
      }),
    );

    // Act
    const answer = await suite.api.call(routes.importSources, {
      body: {
        urls: [
          'https://imported.wordpress.com/',
          'https://medium.com/ux-collective',
          'https://pulse-kitchen.example/feed.xml',
          'https://quiet.example/feed.xml',
          'https://nothing.example/feed.xml',
        ],
      },
      as: superuser,
    });
    const byAReader = await suite.api.call(routes.importSources, {
      body: { urls: ['https://imported.wordpress.com/'] },
      as: reader,
    });
    const tooMany = await suite.api.call(routes.importSources, {
      body: { urls: Array.from({ length: 6 }, (_, index) => `https://feeds.example/${index}.xml`) },
      as: superuser,
    });

    // Assess
    expectOk(answer);
    expect(answer.body.results).toEqual([
      {
        url: 'https://imported.wordpress.com/',
        outcome: 'added',
        slug: 'imported-letters',
        name: 'Imported Letters',
        reason: null,
      },
      { url: 'https://medium.com/ux-collective', outcome: 'known', slug: 'ux-collective', name: 'UX Collective', reason: null },
      {
        url: 'https://pulse-kitchen.example/feed.xml',
        outcome: 'known',
        slug: 'pulse-and-kitchen-notes',
        name: 'Pulse & Kitchen — notes',
        reason: null,
      },
      {
        url: 'https://quiet.example/feed.xml',
        outcome: 'failed',
        slug: null,
        name: null,
        reason: 'That site asks robots like ours not to read it, so we cannot rank it.',
      },
      {
        url: 'https://nothing.example/feed.xml',
        outcome: 'failed',
        slug: null,
        name: null,
        reason: 'No publication was found at that address. Check it and try again.',
      },
    ]);
    expectError(byAReader, 403);
    expectError(tooMany, 400, 'VALIDATION_FAILED');
    expect(tooMany.body.message).toContain('Send at most 5 addresses a call');
  });
});
