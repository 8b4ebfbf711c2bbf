import type { Db } from '../../lib/db/service';
import { getUsers } from '../../lib/db/users';
import type { Manifest } from '../../ranking/lib/board-reader';
import { listArchivedMonths } from '../../ranking/lib/archive-reader';
import { archivePath } from '../../../shared/archive-months';

/** Topics per page of /topics, as the web app pages them. */
const TOPICS_PAGE_SIZE = 24;

/** The boards over every publication, and the pages that are always there. */
const FIXED_PATHS = [
  '/',
  '/active',
  '/growing',
  '/growing/active',
  '/recent',
  '/recent/active',
  '/topics',
  '/about',
  '/stories',
  '/stories/new',
];

/** Every board, every topic's boards and every page of /topics, from the ranking run's manifest. */
export function rankingPaths(manifest: Pick<Manifest, 'topics'>): string[] {
  const topicPages = Math.ceil(manifest.topics.length / TOPICS_PAGE_SIZE);
  return [
    ...FIXED_PATHS,
    ...Array.from({ length: Math.max(0, topicPages - 1) }, (_, index) => `/topics/${index + 2}`),
    ...manifest.topics.flatMap((topic) => {
      const base = `/topic/${encodeURIComponent(topic.tag)}`;
      return [base, `${base}/growing`, `${base}/recent`];
    }),
  ];
}

/** The monthly archive and each archived month's page of every publication. */
export async function archivePaths(db: Db): Promise<string[]> {
  const months = await listArchivedMonths(db);
  return ['/archive', ...months.map(({ month }) => archivePath(month))];
}

/**
 * The profiles of everyone who has shared a story: one Query of the all-stories index (only
 * the sharer of each), then their usernames in batches. It grows with the stories; at a scale
 * where that is too slow for a sitemap answer, a count of shared stories on the user would
 * give a sparse index of these profiles instead.
 */
export async function profilePaths(db: Db): Promise<string[]> {
  const stories = await db.entities.story.query.newest({ feed: 'all' }).go({ pages: 'all', attributes: ['sharerId'] });
  const sharers = [...new Set(stories.data.flatMap((story) => (story.sharerId ? [story.sharerId] : [])))];
  const users = await getUsers(db, { userIds: sharers });
  return users.map((user) => `/@${encodeURIComponent(user.username)}`).sort();
}
