import { describe, expect, it } from 'vitest';
import { routes } from '../../shared/routes';
import { expectOk } from '../support/api-client';
import { apiSuite } from '../support/api-suite';
import { storyInTable } from '../support/stories';

/** Enough publications for topics with several members; more only costs seeding time. */
const PUBLICATIONS = 120;

const suite = apiSuite({ seedPublications: PUBLICATIONS });

/** A page as a crawler or a link preview gets it: a plain GET, no cookie, no script run. */
async function crawl(path: string): Promise<{ status: number; type: string; html: string; headers: Headers }> {
  const answer = await fetch(`${suite.runtime.url}${path}`, { headers: { 'user-agent': 'Twitterbot/1.0' } });
  return {
    status: answer.status,
    type: answer.headers.get('content-type') ?? '',
    html: await answer.text(),
    headers: answer.headers,
  };
}

const meta = (html: string, attribute: 'name' | 'property', key: string) =>
  new RegExp(`<meta[^>]*${attribute}="${key}"[^>]*content="([^"]*)"`).exec(html)?.[1];
const canonical = (html: string) => /<link[^>]*rel="canonical"[^>]*href="([^"]*)"/.exec(html)?.[1];
const titles = (html: string) => [...html.matchAll(/<title[^>]*>([^<]*)<\/title>/g)].map((match) => match[1]);
const robots = (html: string) => meta(html, 'name', 'robots');
const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;');
const pageData = (html: string) =>
  JSON.parse(/<script type="application\/json" id="page-data">([^]*?)<\/script>/.exec(html)?.[1] ?? 'null') as {
    queries: { key: unknown[]; data: unknown }[];
  } | null;

describe('pages crawlers and link previews can read', () => {
  it('serves a topic page with its own title, description, sharing tags and top publications, as the API says them', async () => {
    // Prepare: the biggest topic, and what its board's API answers
    const home = await suite.api.call(routes.showHome);
    expectOk(home);
    const tag = home.body.popularTopics[0]?.tag as string;
    const screen = await suite.api.call(routes.showHome, { query: { topic: tag, limit: 50 } });
    expectOk(screen);
    const top = screen.body.page.items.slice(0, 3);

    // Act
    const page = await crawl(`/topic/${tag}?utm_source=newsletter`);

    // Assess: its own head, for crawlers and previews
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);
    expect(titles(page.html)).toEqual([escaped(screen.body.seo.title)]);
    expect(meta(page.html, 'name', 'description')).toBe(escaped(screen.body.seo.description));
    expect(meta(page.html, 'name', 'keywords')).toBe(screen.body.seo.keywords.join(', '));
    expect(canonical(page.html)).toBe(`${suite.runtime.url}/topic/${tag}`);
    expect(meta(page.html, 'property', 'og:image')).toBe(`${suite.runtime.url}/og/toppubs-1500.png`);
    expect(meta(page.html, 'property', 'og:image:type')).toBe('image/png');
    expect(meta(page.html, 'property', 'og:image:width')).toBe('1500');
    expect(meta(page.html, 'property', 'og:image:height')).toBe('1500');
    expect(meta(page.html, 'name', 'twitter:card')).toBe('summary_large_image');
    expect(meta(page.html, 'property', 'og:title')).toBe(escaped(screen.body.seo.title));
    expect(robots(page.html)).toBe('index,follow');
    // Its content, before any script runs
    expect(page.html).toContain(`<h1>${escaped(screen.body.topic?.name ?? '')}</h1>`);
    for (const publication of top) {
      expect(page.html).toContain(`>${escaped(publication.name)}</a>`);
    }
    expect(page.html.indexOf(escaped(top[0]?.name ?? ''))).toBeLessThan(page.html.indexOf(escaped(top[1]?.name ?? '')));
    // The screen's data, for the app to start from, identical to the API's answer
    const data = pageData(page.html);
    expect(data?.queries).toEqual([
      { key: ['ranking', 'showHome', { topic: tag, limit: 50 }], infinite: false, data: screen.body },
    ]);
    // The site's page headers, not the API's: it may be framed, and its scripts run
    expect(page.headers.get('x-frame-options')).toBeNull();
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('cache-control')).toContain('max-age=60');
  });

  it('renders each board and the topics pages with their own headings, and answers 404 for unknown topics', async () => {
    // Act
    const [active, growing, recent, topics, unknownTopic, farTopicsPage] = await Promise.all([
      crawl('/active'),
      crawl('/growing/active'),
      crawl('/recent'),
      crawl('/topics'),
      crawl('/topic/no-such-topic-here'),
      crawl('/topics/999'),
    ]);

    // Assess
    expect(active.html).toContain('<h1>Most followed active publications</h1>');
    expect(canonical(active.html)).toBe(`${suite.runtime.url}/active`);
    expect(growing.html).toContain('<h1>Fastest growing active publications</h1>');
    expect(recent.html).toContain('<h1>Recently active publications</h1>');
    expect(topics.html).toContain('<h1>Topics</h1>');
    expect(titles(topics.html)[0]).toMatch(/^Topics · /);
    const topicsScreen = await suite.api.call(routes.showTopics, { query: { page: 1, limit: 24 } });
    expectOk(topicsScreen);
    expect(pageData(topics.html)?.queries).toEqual([
      { key: ['ranking', 'showTopics', { page: 1, limit: 24 }], infinite: false, data: topicsScreen.body },
    ]);
    for (const missing of [unknownTopic, farTopicsPage]) {
      expect(missing.status).toBe(404);
      expect(missing.headers.get('cache-control')).toBe('no-store');
      expect(robots(missing.html)).toBe('noindex');
      expect(missing.html).not.toContain('id="page-data"');
    }
  });

  it("serves a profile with the person's name and the stories they shared, escaped", async () => {
    // Prepare: a person whose story title tries to break out of the page
    const sharer = await suite.api.signIn('crawled');
    const hostile = 'Why </script><script>alert(1)</script> & <b>bold</b> matter';
    await storyInTable(sharer, hostile);
    await storyInTable(sharer, 'A calm story about shipping');

    // Act
    const page = await crawl(`/@${sharer.username}`);

    // Assess
    expect(page.status).toBe(200);
    expect(titles(page.html)[0]).toContain(`@${sharer.username}`);
    expect(canonical(page.html)).toBe(`${suite.runtime.url}/@${sharer.username}`);
    expect(robots(page.html)).toBe('index,follow');
    expect(page.html).toContain('A calm story about shipping');
    expect(page.html).toContain('Why &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt; matter');
    expect(page.html).not.toContain('<script>alert(1)');
    // The data block holds the title intact, and still ends where it should
    const data = pageData(page.html);
    expect(JSON.stringify(data)).toContain(hostile);
    expect(data?.queries.map((query) => query.key)).toEqual([
      ['account', 'profile', sharer.username.toLowerCase()],
      ['stories', 'feed', 'user', sharer.userId, 'visitor'],
    ]);
  });

  it('serves /about and /stories with their own titles, and private pages as the noindex app shell', async () => {
    // Act
    const [about, stories, nobody, signedIn, transferPackage] = await Promise.all([
      crawl('/about'),
      crawl('/stories'),
      crawl('/@nobody-has-this-name'),
      crawl('/me'),
      crawl('/transfer/abc123/package'),
    ]);

    // Assess
    expect(titles(about.html)).toEqual(['About TopPubs']);
    expect(about.html).toContain('<h1>What TopPubs measures</h1>');
    expect(robots(about.html)).toBe('index,follow');
    expect(titles(stories.html)).toEqual(['Hot stories · TopPubs']);
    expect(stories.html).toContain('<h1>Stories</h1>');
    expect(nobody.status).toBe(404);
    for (const privatePage of [nobody, signedIn, transferPackage]) {
      expect(robots(privatePage.html)).toBe('noindex');
      expect(privatePage.html).toContain('<div id="root"></div>');
    }
  });

  it("serves a story's page with its comments nested and rendered by the one Markdown renderer, nothing executable", async () => {
    // Prepare: a discussion with hostile Markdown and a reply under it
    const [sharer, ana, bo] = await Promise.all([
      suite.api.signIn('story-sharer'),
      suite.api.signIn('story-ana'),
      suite.api.signIn('story-bo'),
    ]);
    const storyId = await storyInTable(sharer, 'Comments for crawlers');
    const first = await suite.api.call(routes.addStoryComment, {
      as: ana,
      params: { id: storyId },
      body: { body: 'Read **this** <script>alert(1)</script> [x](javascript:alert(2)) and [docs](https://example.com/docs)' },
    });
    expectOk(first, 201);
    const reply = await suite.api.call(routes.addStoryComment, {
      as: bo,
      params: { id: storyId },
      body: { body: '> quoted\n\nA reply', parentId: first.body.comment.id },
    });
    expectOk(reply, 201);
    const answer = await suite.api.call(routes.listStoryComments, { params: { id: storyId } });
    expectOk(answer);

    // Act
    const [page, unknown, following, review] = await Promise.all([
      crawl(`/stories/${storyId}`),
      crawl('/stories/NoSuchStory1'),
      crawl('/stories/following'),
      crawl('/stories/review'),
    ]);

    // Assess: its head, and the comments in its HTML, the reply inside its parent's item
    expect(page.status).toBe(200);
    expect(titles(page.html)).toEqual(['Comments for crawlers · TopPubs']);
    expect(canonical(page.html)).toBe(`${suite.runtime.url}/stories/${storyId}`);
    expect(robots(page.html)).toBe('index,follow');
    expect(page.html).toContain('<h2>Comments (2)</h2>');
    const firstHtml = answer.body.items[0]?.html ?? '';
    expect(firstHtml).toContain('<strong>this</strong>');
    expect(firstHtml).toContain('<a href="https://example.com/docs" rel="nofollow ugc noopener">docs</a>');
    expect(page.html).toContain(`<li><article id="comment-${first.body.comment.id}"><p><a href="/@${ana.username}">`);
    const replyStart = page.html.indexOf(`<article id="comment-${reply.body.comment.id}">`);
    expect(page.html.slice(page.html.indexOf(firstHtml) + firstHtml.length, replyStart)).toBe('</article><ol><li>');
    expect(page.html).toContain('<blockquote><p>quoted</p></blockquote>');
    expect(page.html).not.toMatch(/<script>alert|href="javascript:/i);
    // The data the app starts from: the story as the API answers a visitor (the comments it reads fresh)
    const story = await suite.api.call(routes.getStory, { params: { id: storyId } });
    expectOk(story);
    expect(pageData(page.html)?.queries).toEqual([
      { key: ['story', 'one', storyId, 'visitor'], infinite: false, data: story.body },
    ]);
    // No such story is not found; the feeds' private names are the app shell
    expect(unknown.status).toBe(404);
    for (const shell of [following, review]) {
      expect(robots(shell.html)).toBe('noindex');
      expect(shell.html).toContain('<div id="root"></div>');
    }
  });

  it('serves robots.txt and a sitemap of every board, topic and profile with stories', async () => {
    // Prepare
    const sharer = await suite.api.signIn('mapped');
    await storyInTable(sharer, 'A story that puts its sharer on the map');
    const topics = await suite.api.call(routes.listTopics);
    expectOk(topics);

    // Act
    const [robotsTxt, sitemap, noPart] = await Promise.all([
      crawl('/robots.txt'),
      crawl('/sitemap.xml'),
      crawl('/sitemaps/2.xml'),
    ]);

    // Assess
    expect(robotsTxt.type).toMatch(/^text\/plain/);
    expect(robotsTxt.html).toMatch(/^User-agent: \*$/m);
    for (const closed of ['/api/', '/me', '/transfer/', '/login']) expect(robotsTxt.html).toContain(`Disallow: ${closed}\n`);
    expect(robotsTxt.html).toContain(`Sitemap: ${suite.runtime.url}/sitemap.xml`);
    expect(robotsTxt.html).toContain(`Sitemap: ${suite.runtime.url}/api/i/ourTransfers/sitemap/xml`);
    expect(sitemap.type).toMatch(/^application\/xml/);
    const locations = [...sitemap.html.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) =>
      match[1]?.slice(suite.runtime.url.length),
    );
    expect(locations).toEqual(
      expect.arrayContaining(['/', '/active', '/growing', '/growing/active', '/topics', '/about', `/@${sharer.username}`]),
    );
    const tag = topics.body.items[0]?.tag;
    expect(locations).toEqual(expect.arrayContaining([`/topic/${tag}`, `/topic/${tag}/growing`, `/topic/${tag}/recent`]));
    // One sitemap this size, so no parts
    expect(noPart.status).toBe(404);
  });
});
