import { APP_NAME } from '../../../shared/constants';
import type { Seo } from '../../../shared/schemas/common';
import type { BoardKind, Topic } from '../../../shared/schemas/ranking';

/** Social-sharing image: 1500x1500 PNG served with the web app. */
export const SHARE_IMAGE_URL = '/og/toppubs-1500.png';

const formatCount = (count: number) => new Intl.NumberFormat('en-US').format(count);

export function boardSeo(kind: BoardKind, activeOnly: boolean, topic: Topic | null, publicationCount: number): Seo {
  const subject = `${activeOnly ? 'active ' : ''}${topic ? `${topic.name} ` : ''}publications`;
  const heading = kind === 'followers' ? `Most followed ${subject}` : `Fastest growing ${subject}`;
  const scope = topic
    ? `${formatCount(activeOnly ? topic.activeCount : topic.publicationCount)} ${subject}`
    : `${formatCount(publicationCount)} publications`;
  const measure = kind === 'followers' ? 'ranked by followers' : 'ranked by followers gained over the last 30 days';
  return {
    title: `${heading} · ${APP_NAME}`,
    description: `${heading}: ${scope} ${measure}${activeOnly ? ', counting only those that posted in the last 30 days' : ''}. Updated hourly.`,
    keywords: [
      'publications',
      'blogs',
      kind === 'followers' ? 'most followed' : 'fastest growing',
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

export function publicationSeo(name: string, description: string, followers: number): Seo {
  return {
    title: `${name} · ${APP_NAME}`,
    description: description || `${name} has ${formatCount(followers)} followers. See its rank and follower history.`,
    keywords: [name.toLowerCase(), 'publication', 'followers', 'growth'],
    imageUrl: SHARE_IMAGE_URL,
  };
}
