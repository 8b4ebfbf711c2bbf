import { archivePath, monthName } from '../../../shared/archive-months';
import { BOARD_NAMES, describeBoard } from '../../../shared/board-texts';
import {
  type BoardFeed,
  boardFeedPath,
  boardFeedTitle,
  type FeedLink,
  feedLinks,
  siteFeedPath,
  siteFeedTitle,
  storiesFeedPath,
  storiesFeedTitle,
  userFeedPath,
  userFeedTitle,
} from '../../../shared/feeds';
import { ACTIVE_WINDOW_DAYS, APP_NAME, GROWTH_WINDOW_DAYS, SHARE_IMAGE_URL } from '../../../shared/constants';
import type { PublicUser } from '../../../shared/schemas/account';
import type { Seo } from '../../../shared/schemas/common';
import {
  boardQuerySchema,
  type BoardKind,
  type BoardScreen,
  topicsPageQuerySchema,
  type topicsScreenSchema,
} from '../../../shared/schemas/ranking';
import type { MonthArchive } from '../../../shared/schemas/month-archive';
import { renderMarkdown } from '../../../shared/markdown';
import type { Comment } from '../../../shared/schemas/comments';
import { type SiteFeed, type SiteSort, siteParamsSchema, storyIdParamsSchema, type Story } from '../../../shared/schemas/stories';
import { siteHostOf } from '../../../shared/stories/site-host';
import { DELETED_COMMENT_TEXT, REMOVED_COMMENT_TEXT } from '../../../shared/stories/comment-rules';
import type * as z from '../../../shared/zod';
import { toPublicUser } from '../../lib/accounts';
import { NotFound } from '../../lib/errors';
import { getDb } from '../../lib/db/service';
import { getUserByUsername } from '../../lib/db/users';
import { PreparedJson } from '../../lib/http/responses';
import { readBoardScreen } from '../../ranking/lib/board-screen';
import { toDay } from '../../ranking/lib/domain/days';
import { computeStanding } from '../../ranking/lib/domain/standing';
import { listArchivedMonths, readMonthArchive } from '../../ranking/lib/archive-reader';
import { readPublicationPartition } from '../../ranking/lib/publication-partition';
import { cachedAnswer, getBoardReader, queryKey } from '../../ranking/lib/ranking-context';
import { publicationSeo } from '../../ranking/lib/seo';
import { readTopicsScreen } from '../../ranking/lib/topics-screen';
import { listComments } from '../../stories/lib/comments';
import { readHotFeed, readNewFeed, readUserFeed } from '../../stories/lib/feeds';
import { readSiteFeed } from '../../stories/lib/site-stories';
import { storyFor } from '../../stories/lib/story-relations';
import { formatCount } from '../../../shared/format-count';
import { escapeHtml, plural } from './html';
import type { RenderedPage } from './page-document';

/*
 * Each public page: its SEO, its content as plain HTML, and the data of the queries its screen
 * makes, read with the same functions and cached under the same keys as the API handlers that
 * answer those queries, so the page and the API say the same thing. The query keys are the web
 * app's (web/src/features/<app>/api): the app finds the data there and does not fetch it again.
 */

/** Rows per board request, as the web app asks for them (board-query.ts BOARD_PAGE_SIZE). */
const BOARD_PAGE_SIZE = 50;
/** Topics per page of /topics, as the web app asks for them (show-topics.ts TOPICS_PAGE_SIZE). */
const TOPICS_PAGE_SIZE = 24;
/** The shape of a topic tag (shared/schemas/ranking.ts): anything else is no topic page. */
const TOPIC_TAG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const BOARD_SCREENS: Record<BoardKind, string> = { followers: 'showHome', growth: 'showGrowth', activity: 'showActivity' };
const KIND_SEGMENTS: Record<BoardKind, string> = { followers: '', growth: '/growing', activity: '/recent' };

interface BoardFilter {
  kind: BoardKind;
  activeOnly: boolean;
  topic: string | null;
}

/** A board's address, as the web app writes it (paths.ts boardPath). */
function boardPath({ kind, activeOnly, topic }: BoardFilter): string {
  const segment = KIND_SEGMENTS[kind];
  if (topic) {
    const base = `/topic/${encodeURIComponent(topic)}${segment}`;
    return activeOnly ? `${base}?active=true` : base;
  }
  return activeOnly ? `${segment}/active` : segment || '/';
}

const link = (href: string, text: string) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;

function publicationFigure(kind: BoardKind, item: BoardScreen['page']['items'][number]): string {
  if (kind === 'growth')
    return `${item.gained30d >= 0 ? '+' : ''}${formatCount(item.gained30d)} followers in ${GROWTH_WINDOW_DAYS} days`;
  if (!item.followersKnown) return item.latestPostAt ? `posted ${item.latestPostAt.slice(0, 10)}` : 'feed';
  return plural(item.followers, 'follower');
}

/**
 * A board or topics page is a pure function of its API answer, which the ranking handlers' cache
 * keeps as one object until the next run: rendered once per answer, not once per request.
 */
const renderedAnswers = new WeakMap<PreparedJson, RenderedPage>();

function renderedOnce(prepared: PreparedJson, render: () => RenderedPage): RenderedPage {
  let page = renderedAnswers.get(prepared);
  if (!page) {
    page = render();
    renderedAnswers.set(prepared, page);
  }
  return page;
}

async function boardPage(filter: BoardFilter): Promise<RenderedPage> {
  // The query exactly as the web app sends it, parsed by the route's own schema: the same cache key.
  const raw = {
    ...(filter.activeOnly ? { active: 'true' } : {}),
    ...(filter.topic ? { topic: filter.topic } : {}),
    limit: String(BOARD_PAGE_SIZE),
  };
  const query = boardQuerySchema.parse(raw);
  const screenName = BOARD_SCREENS[filter.kind];
  const prepared = await cachedAnswer(queryKey(screenName, query), () => readBoardScreen(filter.kind, query));
  return renderedOnce(prepared, () => renderBoard(filter, screenName, prepared.json));
}

function renderBoard(filter: BoardFilter, screenName: string, json: string): RenderedPage {
  const screen = JSON.parse(json) as BoardScreen;
  const { heading, lede } = describeBoard(filter, filter.topic ? screen.topic?.name : undefined);
  const others = (Object.keys(BOARD_NAMES) as BoardKind[]).flatMap((kind) =>
    [false, true].map((activeOnly) => ({ kind, activeOnly, topic: filter.topic })),
  );
  const content = [
    '<main>',
    filter.topic ? `<nav aria-label="Breadcrumb">${link('/topics', 'All topics')}</nav>` : '',
    `<h1>${escapeHtml(heading)}</h1>`,
    `<p>${escapeHtml(lede)}</p>`,
    `<p>${plural(screen.page.pageInfo.total, 'publication')} · updated <time datetime="${escapeHtml(screen.page.generatedAt)}">${escapeHtml(screen.page.generatedAt.slice(0, 16).replace('T', ' '))} UTC</time></p>`,
    `<nav aria-label="Boards"><ul>${others
      .map((other) => {
        const name = describeBoard(other, undefined).heading;
        return `<li>${link(boardPath(other), other.topic ? `${name} (${screen.topic?.name ?? other.topic})` : name)}</li>`;
      })
      .join('')}</ul></nav>`,
    `<ol>${screen.page.items
      .map(
        (item) =>
          `<li value="${item.rank}">${link(`/pub/${encodeURIComponent(item.slug)}`, item.name)} <span>${escapeHtml(publicationFigure(filter.kind, item))}</span></li>`,
      )
      .join('')}</ol>`,
    screen.popularTopics.length > 0
      ? `<nav aria-label="Popular topics"><h2>Popular topics</h2><ul>${screen.popularTopics
          .map(
            (topic) =>
              `<li>${link(`/topic/${encodeURIComponent(topic.tag)}`, topic.name)} (${plural(topic.publicationCount, 'publication')})</li>`,
          )
          .join('')}</ul></nav>`
      : '',
    '</main>',
  ].join('');
  const feeds = boardFeeds(filter.kind, filter.topic, screen.topic?.name ?? null);
  const keyQuery = {
    ...(filter.activeOnly ? { active: 'true' } : {}),
    ...(filter.topic ? { topic: filter.topic } : {}),
    limit: BOARD_PAGE_SIZE,
  };
  return {
    seo: screen.seo,
    canonicalPath: boardPath(filter),
    content: feeds.length > 0 ? content.replace('</main>', `${feedParagraph(feeds)}</main>`) : content,
    queries: [{ key: ['ranking', screenName, keyQuery], json }],
    feeds,
  };
}

const FEED_OF_BOARD: Partial<Record<BoardKind, BoardFeed>> = { followers: 'most-followed', growth: 'fastest-growing' };

/** A board's feed, if its kind has one (the active-only boards share their board's). */
function boardFeeds(kind: BoardKind, topic: string | null, topicName: string | null): FeedLink[] {
  const board = FEED_OF_BOARD[kind];
  return board ? feedLinks(boardFeedTitle(board, topicName, APP_NAME), (format) => boardFeedPath(board, topic, format)) : [];
}

/** The visible links to a page's feeds, for people who paste a feed's address into their reader. */
const feedParagraph = (feeds: readonly FeedLink[]) =>
  `<p>Follow in a feed reader: ${feeds.map((feed) => `<a href="${escapeHtml(feed.href)}" type="${escapeHtml(feed.type)}">${escapeHtml(feed.type.includes('atom') ? 'Atom' : 'RSS')}</a>`).join(' · ')}</p>`;

type TopicsScreen = z.infer<typeof topicsScreenSchema>;

/** A public page's address whose topic, person, publication or page of topics does not exist. */
export const MISSING = 'missing' as const;
type Outcome = RenderedPage | typeof MISSING;

async function topicsPage(page: number): Promise<Outcome> {
  const query = topicsPageQuerySchema.parse({ page: String(page), limit: String(TOPICS_PAGE_SIZE) });
  // The API's show/topics answer, from the same function and cache as its handler.
  const prepared = await readTopicsScreen(query);
  const rendered = renderedOnce(prepared, () => renderTopics(page, prepared.json));
  // A page past the last is the web app's "no such page": not a page to index.
  return page > 1 && rendered.queries.length === 0 ? MISSING : rendered;
}

function renderTopics(page: number, json: string): RenderedPage {
  const screen = JSON.parse(json) as TopicsScreen;
  if (screen.topics.items.length === 0 && page > 1) {
    return { seo: screen.seo, canonicalPath: `/topics/${page}`, content: '', queries: [] };
  }
  const content = [
    '<main>',
    '<h1>Topics</h1>',
    `<p>${plural(screen.topics.pageInfo.total, 'topic')}, biggest first, each with the publications that lead it.</p>`,
    `<ul>${screen.topics.items
      .map(
        (topic) =>
          `<li><h2>${link(`/topic/${encodeURIComponent(topic.tag)}`, topic.name)}</h2><p>${plural(topic.publicationCount, 'publication')}, ${plural(topic.totalFollowers, 'follower')}</p>${
            topic.leaders.length > 0
              ? `<ol>${topic.leaders.map((leader) => `<li>${link(`/pub/${encodeURIComponent(leader.slug)}`, leader.name)}</li>`).join('')}</ol>`
              : ''
          }</li>`,
      )
      .join('')}</ul>`,
    screen.topics.pageInfo.hasMore ? `<nav aria-label="Pages">${link(`/topics/${page + 1}`, 'Next page')}</nav>` : '',
    '</main>',
  ].join('');
  return {
    seo: screen.seo,
    canonicalPath: page <= 1 ? '/topics' : `/topics/${page}`,
    content,
    queries: [{ key: ['ranking', 'showTopics', { page, limit: TOPICS_PAGE_SIZE }], json }],
  };
}

const answerJson = <T>(answer: T | PreparedJson<T>) => (answer instanceof PreparedJson ? answer.json : JSON.stringify(answer));

function storyList(stories: readonly Story[]): string {
  if (stories.length === 0) return '<p>No stories shared yet.</p>';
  return `<ol>${stories
    .map((story) => {
      const title = story.title || story.url;
      const host = siteHostOf(story.canonicalUrl);
      const from = host ? ` <span>from ${link(sitePath(host), host)}</span>` : '';
      const by = story.sharer
        ? ` <span>shared by ${link(`/@${encodeURIComponent(story.sharer.username)}`, story.sharer.name || `@${story.sharer.username}`)}</span>`
        : '';
      return `<li><article><h2><a href="${escapeHtml(story.url)}" rel="noopener nofollow ugc">${escapeHtml(title)}</a></h2>${
        story.description ? `<p>${escapeHtml(story.description)}</p>` : ''
      }${from}${by}</article></li>`;
    })
    .join('')}</ol>`;
}

async function profilePage(username: string): Promise<Outcome> {
  const db = getDb();
  const user = await getUserByUsername(db, { username });
  if (!user) return MISSING;
  const profile: PublicUser = toPublicUser(user);
  const stories = answerJson(await readUserFeed(db, { userId: profile.userId, viewer: undefined }));
  const firstPage = JSON.parse(stories) as { items: Story[] };
  const displayName = profile.name || profile.username;
  const feeds = feedLinks(userFeedTitle(profile.name || `@${profile.username}`, APP_NAME), (format) =>
    userFeedPath(profile.username, format),
  );
  const seo: Seo = {
    title: `${displayName} (@${profile.username}) · ${APP_NAME}`,
    description: `${displayName} on ${APP_NAME}: ${plural(profile.followerCount, 'follower')} and the stories they share.`,
    keywords: [profile.username, 'stories', 'profile'],
    imageUrl: SHARE_IMAGE_URL,
  };
  const content = [
    '<main>',
    `<h1>${escapeHtml(displayName)}</h1>`,
    `<p>@${escapeHtml(profile.username)}</p>`,
    `<p>${plural(profile.followerCount, 'follower')} · ${formatCount(profile.followingCount)} following</p>`,
    `<section><h2>Stories shared by ${escapeHtml(displayName)}</h2>${storyList(firstPage.items)}</section>`,
    feedParagraph(feeds),
    '</main>',
  ].join('');
  return {
    seo,
    canonicalPath: `/@${encodeURIComponent(profile.username)}`,
    content,
    queries: [
      // As the web app keys them (account-keys.ts, story-keys.ts): a visitor's view.
      { key: ['account', 'profile', profile.username.toLowerCase()], json: JSON.stringify(profile) },
      { key: ['stories', 'feed', 'user', profile.userId, 'visitor'], json: stories, infinite: true },
    ],
    feeds,
  };
}

const FEED_LABELS = { hot: 'Hot', new: 'New' } as const;

/** A site's page, as the web app writes it (story-display.ts sitePath): newest first, or hottest at /hot. */
const sitePath = (host: string, sort: SiteSort = 'new') =>
  `/stories/site/${encodeURIComponent(host)}${sort === 'hot' ? '/hot' : ''}`;

async function sitePage(rawHost: string, sort: SiteSort): Promise<Outcome> {
  const params = siteParamsSchema.safeParse({ host: rawHost });
  if (!params.success) return MISSING;
  const { host } = params.data;
  let json: string;
  try {
    json = answerJson(await readSiteFeed(getDb(), { host, sort, viewer: undefined, now: new Date() }));
  } catch (error) {
    if (error instanceof NotFound) return MISSING;
    throw error;
  }
  const page = JSON.parse(json) as SiteFeed;
  const count = `${formatCount(page.site.storyCount)} ${page.site.storyCount === 1 ? 'story' : 'stories'}`;
  const feeds = feedLinks(siteFeedTitle(host, APP_NAME), (format) => siteFeedPath(host, format));
  return {
    seo: {
      title: `Stories from ${host} · ${APP_NAME}`,
      description: `${count} from ${host} shared on ${APP_NAME}, ${sort === 'hot' ? 'most liked lately' : 'newest'} first.`,
      keywords: [host, 'stories', 'site'],
      imageUrl: SHARE_IMAGE_URL,
    },
    canonicalPath: sitePath(host, sort),
    content: `<main><h1>Stories from ${escapeHtml(host)}</h1><p>${count}</p>${storyList(page.items)}${feedParagraph(feeds)}</main>`,
    // As the web app keys them (story-keys.ts): a visitor's view.
    queries: [{ key: ['stories', 'feed', 'site', host, sort, 'visitor'], json, infinite: true }],
    feeds,
  };
}

async function storiesPage(feed: 'hot' | 'new'): Promise<RenderedPage> {
  const db = getDb();
  const answer =
    feed === 'hot' ? await readHotFeed(db, { viewer: undefined, now: new Date() }) : await readNewFeed(db, { viewer: undefined });
  const json = answerJson(answer);
  const page = JSON.parse(json) as { items: Story[] };
  const feeds = feedLinks(storiesFeedTitle(feed, APP_NAME), (format) => storiesFeedPath(feed, format));
  return {
    seo: {
      title: `${FEED_LABELS[feed]} stories · ${APP_NAME}`,
      description: `The stories ${APP_NAME} readers share and like, ${feed === 'hot' ? 'most liked lately' : 'newest'} first.`,
      keywords: ['stories', 'blogs', 'reading'],
      imageUrl: SHARE_IMAGE_URL,
    },
    canonicalPath: feed === 'hot' ? '/stories' : '/stories/new',
    content: `<main><h1>Stories</h1>${storyList(page.items)}${feedParagraph(feeds)}</main>`,
    queries: [{ key: ['stories', 'feed', feed, 'visitor'], json, infinite: true }],
    feeds,
  };
}

/** The stories page's names after /stories/: feeds and the review queue, never a story's id. */
const STORIES_SEGMENTS = new Set(['new', 'following', 'review', 'site']);

/**
 * A story's comments as nested lists, each reply in its parent's: a visible comment's text
 * rendered by the one Markdown renderer (shared/markdown.ts, as the API and the browser do),
 * the others as their placeholders, escaped.
 */
function commentThreads(comments: readonly Comment[]): string {
  const replies = new Map<string | null, Comment[]>();
  const listed = new Set(comments.map((comment) => comment.id));
  for (const comment of comments) {
    // A reply whose parent is not on the page starts a thread, as the web app shows it.
    const parent = comment.parentId !== null && listed.has(comment.parentId) ? comment.parentId : null;
    replies.set(parent, [...(replies.get(parent) ?? []), comment]);
  }
  const list = (parent: string | null): string => {
    const items = replies.get(parent);
    if (!items) return '';
    return `<ol>${items
      .map((comment) => {
        const time = `<time datetime="${escapeHtml(comment.createdAt)}">${escapeHtml(comment.createdAt.slice(0, 16).replace('T', ' '))} UTC</time>`;
        const body =
          comment.state === 'visible'
            ? renderMarkdown(comment.body ?? '')
            : `<p>${escapeHtml(comment.state === 'removed' ? REMOVED_COMMENT_TEXT : comment.state === 'deleted' ? DELETED_COMMENT_TEXT : '[hidden]')}</p>`;
        const by =
          comment.state === 'visible' && comment.author
            ? `${link(`/@${encodeURIComponent(comment.author.username)}`, comment.author.name || `@${comment.author.username}`)} `
            : '';
        return `<li><article id="comment-${escapeHtml(comment.id)}"><p>${by}${time}</p>${body}</article>${list(comment.id)}</li>`;
      })
      .join('')}</ol>`;
  };
  return list(null);
}

async function storyPage(storyId: string): Promise<Outcome> {
  const db = getDb();
  const { data: item } = await db.entities.story.get({ storyId }).go();
  if (!item) return MISSING;
  // A visitor's view, as the web app asks for it signed out: the story, then its first page of comments.
  const [story, comments] = await Promise.all([storyFor(db, item, undefined), listComments(db, { storyId, viewer: undefined })]);
  const title = story.title || story.url;
  const by = story.sharer
    ? `<p>Shared by ${link(`/@${encodeURIComponent(story.sharer.username)}`, story.sharer.name || `@${story.sharer.username}`)}</p>`
    : '';
  const content = [
    '<main>',
    `<nav aria-label="Breadcrumb">${link('/stories', 'All stories')}</nav>`,
    `<article><h1><a href="${escapeHtml(story.url)}" rel="noopener nofollow ugc">${escapeHtml(title)}</a></h1>`,
    story.description ? `<p>${escapeHtml(story.description)}</p>` : '',
    by,
    `<p>${plural(story.likeCount, 'like')} · ${plural(story.commentCount, 'comment')}</p></article>`,
    `<section id="comments"><h2>Comments (${formatCount(story.commentCount)})</h2>`,
    comments.items.length > 0 ? commentThreads(comments.items) : '<p>No comments yet.</p>',
    '</section></main>',
  ].join('');
  return {
    seo: {
      title: `${title} · ${APP_NAME}`,
      description: story.description ?? `A story shared on ${APP_NAME}, and what readers say about it.`,
      keywords: ['story', 'comments', ...(story.siteName ? [story.siteName] : [])],
      imageUrl: SHARE_IMAGE_URL,
    },
    canonicalPath: `/stories/${encodeURIComponent(storyId)}`,
    content,
    // The story as the web app keys it (story-keys.ts), a visitor's view. Not its comments: the
    // page is cached at the edge for a minute, and a discussion that fast would hide the comment a
    // reader has just been told of; the app reads them fresh.
    queries: [{ key: ['story', 'one', storyId, 'visitor'], json: JSON.stringify({ story }) }],
  };
}

function aboutPage(): RenderedPage {
  return {
    seo: {
      title: `About ${APP_NAME}`,
      description: `How ${APP_NAME} ranks blog publications: followers, activity in the last ${ACTIVE_WINDOW_DAYS} days and growth over ${GROWTH_WINDOW_DAYS} days, updated hourly.`,
      keywords: ['about', 'publications', 'ranking', 'methodology'],
      imageUrl: SHARE_IMAGE_URL,
    },
    canonicalPath: '/about',
    content: [
      '<main><article>',
      `<h1>What ${APP_NAME} measures</h1>`,
      `<p>${APP_NAME} ranks blog publications, the multi-writer blogs that readers follow, by how many followers they have and how fast they are growing. It helps writers find where to submit and readers find what to follow.</p>`,
      '<dl>',
      `<dt>Most followed</dt><dd>Publications ordered by their number of followers. ${link('/', 'See the ranking')}.</dd>`,
      `<dt>Active</dt><dd>Publications that posted in the last ${ACTIVE_WINDOW_DAYS} days. ${link('/active', 'See the active ranking')}.</dd>`,
      `<dt>Fastest growing</dt><dd>Followers gained over the last ${GROWTH_WINDOW_DAYS} days. ${link('/growing', 'See the fastest growing')}.</dd>`,
      `<dt>Recently active</dt><dd>Newest post first. ${link('/recent', 'See the recently active')}.</dd>`,
      '</dl>',
      '<p>Rankings are updated hourly.</p>',
      '</article></main>',
    ].join(''),
    queries: [],
  };
}

async function publicationPage(slug: string): Promise<Outcome> {
  const manifest = await getBoardReader().getManifest();
  const { publication } = await readPublicationPartition(getDb(), slug);
  if (!publication) return MISSING;
  const { sparkline: _sparkline, ...standing } = computeStanding(publication, toDay(manifest.generatedAt));
  const description = publication.description ?? '';
  return {
    seo: publicationSeo(publication.name, description, standing.followersKnown ? standing.followers : null),
    canonicalPath: `/pub/${encodeURIComponent(slug)}`,
    content: [
      '<main>',
      `<h1>${escapeHtml(publication.name)}</h1>`,
      description ? `<p>${escapeHtml(description)}</p>` : '',
      standing.followersKnown ? `<p>${plural(standing.followers, 'follower')}</p>` : '',
      `<p><a href="${escapeHtml(standing.url)}" rel="noopener">${escapeHtml(standing.url)}</a></p>`,
      '</main>',
    ].join(''),
    // Its screen (history, ranks on every board) is the publication route's own: the app reads it.
    queries: [],
  };
}

const ARCHIVE_BOARDS = [
  ['followers', 'Most followed'],
  ['growth', 'Fastest growing'],
  ['activity', 'Most active'],
] as const;

/** /archive/{year}/{month}: a closed month's three boards of every publication (its topics' pages are the app's). */
async function archiveMonthPage(month: string): Promise<Outcome> {
  const archive = await readMonthArchive(getDb(), { month, topic: null, now: new Date() }).catch((error: unknown) => {
    if (error instanceof NotFound) return null;
    throw error;
  });
  if (!archive) return MISSING;
  const figure = (kind: (typeof ARCHIVE_BOARDS)[number][0], row: MonthArchive['boards']['followers'][number]) =>
    kind === 'growth'
      ? `+${formatCount(row.gained ?? 0)} followers`
      : kind === 'activity'
        ? `active ${row.activeDays} days`
        : row.followers === null
          ? 'feed'
          : plural(row.followers, 'follower');
  return {
    seo: archive.seo,
    canonicalPath: archivePath(month),
    content: [
      '<main>',
      `<nav aria-label="Breadcrumb">${link('/archive', 'Monthly archive')}</nav>`,
      `<h1>${escapeHtml(`Publications of ${monthName(month)}`)}</h1>`,
      ...ARCHIVE_BOARDS.map(
        ([kind, title]) =>
          `<section><h2>${title}</h2><ol>${archive.boards[kind]
            .map(
              (row) =>
                `<li value="${row.rank}">${link(`/pub/${encodeURIComponent(row.slug)}`, row.name)} <span>${escapeHtml(figure(kind, row))}</span></li>`,
            )
            .join('')}</ol></section>`,
      ),
      '</main>',
    ].join(''),
    // The app's query key (web/src/features/ranking/api/show-archive-month.ts): it finds the month here.
    queries: [{ key: ['ranking', 'showArchiveMonth', month, null], json: JSON.stringify(archive) }],
  };
}

async function archiveIndexPage(): Promise<RenderedPage> {
  const months = await listArchivedMonths(getDb());
  return {
    seo: {
      title: `Monthly archive · ${APP_NAME}`,
      description: `The most followed, fastest growing and most active publications of each past month on ${APP_NAME}.`,
      keywords: ['publications', 'blogs', 'monthly ranking', 'archive'],
      imageUrl: SHARE_IMAGE_URL,
    },
    canonicalPath: '/archive',
    content: `<main><h1>Monthly archive</h1><ul>${months.map(({ month }) => `<li>${link(archivePath(month), monthName(month))}</li>`).join('')}</ul></main>`,
    queries: [],
  };
}

function decodeSegments(path: string): string[] | null {
  const parts = path.split('/').slice(1);
  // '/topic/x/' is '/topic/x'.
  if (parts.length > 1 && parts.at(-1) === '') parts.pop();
  try {
    return parts.map((part) => decodeURIComponent(part));
  } catch {
    return null;
  }
}

/**
 * The public page at this raw path; MISSING when the path names a topic, person, publication
 * or page of topics that does not exist; null for any other path (a private page, one the app
 * redirects or refuses itself), which the app shell answers, kept out of the index.
 */
export async function renderPublicPage(path: string, activeOnly: boolean): Promise<Outcome | null> {
  const segments = decodeSegments(path);
  if (!segments) return null;
  const [first = '', second, third, ...rest] = segments;
  if (first === 'stories' && second === 'site' && third !== undefined) {
    const [sort, ...beyond] = rest;
    if (beyond.length > 0 || (sort !== undefined && sort !== 'hot')) return null;
    return sitePage(third, sort ?? 'new');
  }
  if (rest.length > 0) return null;
  const board = (kind: BoardKind, active: boolean) => boardPage({ kind, activeOnly: active, topic: null });
  switch (first) {
    case '':
      return segments.length === 1 ? board('followers', false) : null;
    case 'active':
      return second === undefined ? board('followers', true) : null;
    case 'growing':
    case 'recent': {
      const kind = first === 'growing' ? 'growth' : 'activity';
      if (third !== undefined) return null;
      if (second === undefined) return board(kind, false);
      return second === 'active' ? board(kind, true) : null;
    }
    case 'topic': {
      if (second === undefined || !TOPIC_TAG.test(second) || second.length > 60) return null;
      const kind = third === undefined ? 'followers' : third === 'growing' ? 'growth' : third === 'recent' ? 'activity' : null;
      if (!kind) return null;
      const manifest = await getBoardReader().getManifest();
      if (!manifest.topics.some((topic) => topic.tag === second)) return MISSING;
      return boardPage({ kind, activeOnly, topic: second });
    }
    case 'topics': {
      if (third !== undefined) return null;
      if (second === undefined) return topicsPage(1);
      return /^[1-9][0-9]{0,4}$/.test(second) ? topicsPage(Number(second)) : null;
    }
    case 'about':
      return second === undefined ? aboutPage() : null;
    case 'stories':
      if (third !== undefined) return null;
      if (second === undefined) return storiesPage('hot');
      if (second === 'new') return storiesPage('new');
      if (STORIES_SEGMENTS.has(second) || !storyIdParamsSchema.safeParse({ id: second }).success) return null;
      return storyPage(second);
    case 'archive':
      if (second === undefined) return archiveIndexPage();
      return third !== undefined && /^\d{4}$/.test(second) && /^(0[1-9]|1[0-2])$/.test(third)
        ? archiveMonthPage(`${second}-${third}`)
        : null;
    case 'pub':
      return second !== undefined && third === undefined && second.length <= 200 ? publicationPage(second) : null;
    default:
      if (first.startsWith('@') && second === undefined && first.length > 1 && first.length <= 64)
        return profilePage(first.slice(1));
      return null;
  }
}
