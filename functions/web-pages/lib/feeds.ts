import { BOARD_NAMES } from '../../../shared/board-texts';
import { APP_NAME } from '../../../shared/constants';
import {
  BOARD_FEED_TOP_PLACES,
  type BoardFeed,
  boardFeedPath,
  boardFeedTitle,
  type FeedFormat,
  siteFeedPath,
  siteFeedTitle,
  type StoryFeed,
  storiesFeedPath,
  storiesFeedTitle,
  userFeedPath,
  userFeedTitle,
} from '../../../shared/feeds';
import type { Story } from '../../../shared/schemas/stories';
import { toPublicUser } from '../../lib/accounts';
import { getDb } from '../../lib/db/service';
import { getUserByUsername } from '../../lib/db/users';
import { NotFound } from '../../lib/errors';
import type { Syndication, SyndicationItem } from '../../lib/feeds/syndication';
import { PreparedJson } from '../../lib/http/responses';
import { readBoardNews } from '../../ranking/lib/board-news';
import { getBoardReader } from '../../ranking/lib/ranking-context';
import { type FeedAnswer, readHotFeed, readNewFeed, readUserFeed } from '../../stories/lib/feeds';
import { readSiteFeed } from '../../stories/lib/site-stories';
import { formatCount } from '../../../shared/format-count';
import { plural } from './html';

/*
 * What each feed says, read with the same functions as the pages and the API (a visitor's view),
 * as a Syndication for functions/lib/feeds/syndication.ts to write as RSS or Atom. A new feed is
 * one more function here returning a Syndication, one route and one handler file.
 */

/** Where a feed's dates stop when it has no item yet: stable, so its ETag is too. */
const NO_ITEMS_YET = new Date(0);

const newest = (dates: readonly Date[]) =>
  dates.length === 0 ? NO_ITEMS_YET : new Date(Math.max(...dates.map((date) => date.getTime())));

const storiesOf = (answer: FeedAnswer): Story[] =>
  (answer instanceof PreparedJson ? (JSON.parse(answer.json) as { items: Story[] }) : answer).items;

function storyItem(story: Story, origin: string): SyndicationItem {
  const by = story.sharer ? `Shared by ${story.sharer.name || `@${story.sharer.username}`}` : null;
  const figures = `${plural(story.likeCount, 'like')}, ${plural(story.commentCount, 'comment')}`;
  return {
    // The site's own address of the story (it leads to the page shared): stable, unlike the page's url.
    id: `${origin}/api/i/stories/story/${encodeURIComponent(story.id)}/go`,
    title: story.title || story.url,
    link: story.url,
    date: new Date(story.createdAt),
    summary: [story.description, [by, figures].filter(Boolean).join(' · ')].filter(Boolean).join('\n\n'),
  };
}

function storiesSyndication(
  stories: readonly Story[],
  head: { title: string; description: string; selfPath: string; sitePath: string },
  origin: string,
): Syndication {
  return {
    title: head.title,
    description: head.description,
    selfUrl: `${origin}${head.selfPath}`,
    siteUrl: `${origin}${head.sitePath}`,
    updated: newest(stories.map((story) => new Date(story.createdAt))),
    items: stories.map((story) => storyItem(story, origin)),
  };
}

/** The stories' hot or new feed: its first page, as a visitor sees it. */
export async function storiesFeed(feed: StoryFeed, format: FeedFormat, origin: string): Promise<Syndication> {
  const db = getDb();
  const answer =
    feed === 'hot' ? await readHotFeed(db, { viewer: undefined, now: new Date() }) : await readNewFeed(db, { viewer: undefined });
  return storiesSyndication(
    storiesOf(answer),
    {
      title: storiesFeedTitle(feed, APP_NAME),
      description:
        feed === 'hot'
          ? `The stories ${APP_NAME} readers like most lately.`
          : `The stories ${APP_NAME} readers share, newest first.`,
      selfPath: storiesFeedPath(feed, format),
      sitePath: feed === 'hot' ? '/stories' : '/stories/new',
    },
    origin,
  );
}

/** The stories one person shared, newest first; 404 for a username nobody has. */
export async function userStoriesFeed(username: string, format: FeedFormat, origin: string): Promise<Syndication> {
  const db = getDb();
  const user = await getUserByUsername(db, { username });
  if (!user) throw new NotFound(`There is nobody called @${username} here.`);
  const profile = toPublicUser(user);
  const displayName = profile.name || `@${profile.username}`;
  const answer = await readUserFeed(db, { userId: profile.userId, viewer: undefined });
  return storiesSyndication(
    storiesOf(answer),
    {
      title: userFeedTitle(displayName, APP_NAME),
      description: `The stories ${displayName} shares on ${APP_NAME}, newest first.`,
      selfPath: userFeedPath(profile.username, format),
      sitePath: `/@${encodeURIComponent(profile.username)}`,
    },
    origin,
  );
}

/** The stories shared from one site, newest first: the first page of its site page. 404 for a site nobody shared from. */
export async function siteStoriesFeed(host: string, format: FeedFormat, origin: string): Promise<Syndication> {
  const answer = await readSiteFeed(getDb(), { host, sort: 'new', viewer: undefined, now: new Date() });
  return storiesSyndication(
    storiesOf(answer),
    {
      title: siteFeedTitle(host, APP_NAME),
      description: `The stories shared from ${host} on ${APP_NAME}, newest first.`,
      selfPath: siteFeedPath(host, format),
      sitePath: `/stories/site/${encodeURIComponent(host)}`,
    },
    origin,
  );
}

const BOARD_KINDS = { 'most-followed': 'followers', 'fastest-growing': 'growth' } as const;
const BOARD_SEGMENTS = { 'most-followed': '', 'fastest-growing': '/growing' } as const;

/**
 * A ranking board's news, overall or a topic's: one GetItem of what the ranking job recorded
 * (functions/ranking/lib/board-news.ts), the topic checked against the current run's manifest.
 */
export async function boardFeed(
  board: BoardFeed,
  topic: string | null,
  format: FeedFormat,
  origin: string,
): Promise<Syndication> {
  const reader = getBoardReader();
  const manifest = await reader.getManifest();
  const topicName = topic === null ? null : reader.findTopic(manifest, topic).name;
  const kind = BOARD_KINDS[board];
  const news = await readBoardNews(getDb(), { kind, topic });
  const boardPage = topic ? `/topic/${encodeURIComponent(topic)}${BOARD_SEGMENTS[board]}` : BOARD_SEGMENTS[board] || '/';
  const where = topicName ? ` of ${topicName}` : '';
  return {
    title: boardFeedTitle(board, topicName, APP_NAME),
    description:
      kind === 'followers'
        ? `Each publication that enters the top ${BOARD_FEED_TOP_PLACES} of ${BOARD_NAMES.followers}${where}, as the hourly ranking finds it.`
        : `Every week, the publications${where} that gained the most followers in it.`,
    selfUrl: `${origin}${boardFeedPath(board, topic, format)}`,
    siteUrl: `${origin}${boardPage}`,
    updated: news.updatedAt ? new Date(news.updatedAt) : NO_ITEMS_YET,
    items: news.entries.map((entry) => ({
      // The same in both formats, and one per piece of news: a publication may enter the top again later.
      id: `${origin}/pub/${encodeURIComponent(entry.slug)}#${board}${topic ? `.${topic}` : ''}.${entry.week ?? entry.at}`,
      title:
        kind === 'followers'
          ? `${entry.name} entered the top ${BOARD_FEED_TOP_PLACES}${where} at #${entry.rank}`
          : `${entry.name}: +${formatCount(entry.gained ?? 0)} followers in the week of ${entry.week ?? entry.at.slice(0, 10)}`,
      link: `${origin}/pub/${encodeURIComponent(entry.slug)}`,
      date: new Date(entry.at),
      summary:
        kind === 'followers'
          ? `${entry.name} is #${entry.rank} on ${BOARD_NAMES.followers}${where}, with ${plural(entry.followers, 'follower')}.`
          : `#${entry.rank} of the week's fastest growing${where}: ${plural(entry.followers, 'follower')}, ${formatCount(entry.gained ?? 0)} gained in the week.`,
    })),
  };
}
