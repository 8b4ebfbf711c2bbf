import { APP_NAME, SHARE_IMAGE_URL } from '../../../shared/constants';
import { formatCount } from '../../../shared/format-count';
import type { Seo } from '../../../shared/schemas/common';
import type { BoardKind, Topic } from '../../../shared/schemas/ranking';

export { SHARE_IMAGE_URL };

const BOARD_WORDS: Record<BoardKind, { heading: string; measure: string }> = {
  followers: { heading: 'Most followed', measure: 'ranked by followers' },
  growth: { heading: 'Fastest growing', measure: 'ranked by followers gained over the last 30 days' },
  activity: { heading: 'Recently active', measure: 'newest post first, feeds without a follower count included' },
};

export function boardSeo(kind: BoardKind, activeOnly: boolean, topic: Topic | null, publicationCount: number): Seo {
  const subject = `${activeOnly ? 'active ' : ''}${topic ? `${topic.name} ` : ''}publications`;
  // "Recently active active publications" says it twice: that board's filter goes last.
  const heading =
    kind === 'activity'
      ? `${BOARD_WORDS[kind].heading} ${topic ? `${topic.name} ` : ''}publications${activeOnly ? ', active only' : ''}`
      : `${BOARD_WORDS[kind].heading} ${subject}`;
  const scope = topic
    ? `${formatCount(activeOnly ? topic.activeCount : topic.publicationCount)} ${subject}`
    : `${formatCount(publicationCount)} publications`;
  const measure = BOARD_WORDS[kind].measure;
  return {
    title: `${heading} · ${APP_NAME}`,
    description: `${heading}: ${scope} ${measure}${activeOnly ? ', counting only those that posted in the last 30 days' : ''}. Updated hourly.`,
    keywords: [
      'publications',
      'blogs',
      BOARD_WORDS[kind].heading.toLowerCase(),
      ...(activeOnly ? ['active'] : []),
      ...(topic ? [topic.name.toLowerCase()] : []),
      'ranking',
    ],
    imageUrl: SHARE_IMAGE_URL,
  };
}

export function topicsSeo(topicCount: number): Seo {
  return {
    title: `Topics · ${APP_NAME}`,
    description: `Browse ${formatCount(topicCount)} topics and the publications that lead each one.`,
    keywords: ['topics', 'publications', 'blogs', 'ranking'],
    imageUrl: SHARE_IMAGE_URL,
  };
}

/** `followers` is null for a publication whose source counts none (a plain feed). */
export function publicationSeo(name: string, description: string, followers: number | null): Seo {
  const summary =
    followers === null
      ? `${name} publishes a feed without a follower count. See how recently it posted and where it ranks.`
      : `${name} has ${formatCount(followers)} followers. See its rank and follower history.`;
  return {
    title: `${name} · ${APP_NAME}`,
    description: description || summary,
    keywords: [name.toLowerCase(), 'publication', 'followers', 'growth'],
    imageUrl: SHARE_IMAGE_URL,
  };
}

/** A month's archive page, of every publication or of one topic. */
export function archiveSeo(monthTitle: string, topicName: string | null, publicationCount: number): Seo {
  const subject = topicName ? `${topicName} publications` : 'publications';
  const heading = `The best ${subject} of ${monthTitle}`;
  return {
    title: `${heading} · ${APP_NAME}`,
    description: `${heading}: the most followed, fastest growing and most active of ${formatCount(publicationCount)} ${subject} ranked that month.`,
    keywords: [
      'publications',
      'blogs',
      'monthly ranking',
      'archive',
      monthTitle.toLowerCase(),
      ...(topicName ? [topicName.toLowerCase()] : []),
    ],
    imageUrl: SHARE_IMAGE_URL,
  };
}
