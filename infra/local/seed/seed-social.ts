import { findOrCreateUserByEmail } from '../../../functions/lib/accounts';
import { writeBatch } from '../../../functions/lib/db/batches';
import type { Db } from '../../../functions/lib/db/service';
import { TIMELINE_DAYS } from '../../../functions/stories/lib/feeds';
import { siteHostOf } from '../../../shared/stories/site-host';

/**
 * The demo's people and stories, so every feed has something in it on a fresh `npm start`:
 * people who follow each other, a few hundred stories of the last two weeks, and likes. Made
 * from a fixed seed: every fresh start shows the same data set. The people sign in like anyone
 * else: the login link for `<username>@demo.toppubs.example` lands in the local mail outbox.
 */

const FIRST_NAMES = ['Ana', 'Bo', 'Chen', 'Dara', 'Eli', 'Femi', 'Gia', 'Hana', 'Ivo', 'Jo', 'Kai', 'Lea'];
const LAST_NAMES = ['Lima', 'Berg', 'Okafor'];
const SITES = [
  { name: 'Ship Notes', host: 'shipnotes.example' },
  { name: 'The Long Build', host: 'longbuild.example' },
  { name: 'Field Guide to Data', host: 'fieldguide.example' },
  { name: 'Quiet Tech', host: 'quiettech.example' },
  { name: 'Design Margins', host: 'designmargins.example' },
  { name: 'Small Teams', host: 'smallteams.example' },
];
const SUBJECTS = [
  'remote teams',
  'database migrations',
  'writing every day',
  'onboarding engineers',
  'pricing a side project',
  'accessible forms',
  'on-call rotations',
  'product analytics',
  'technical interviews',
  'serverless costs',
  'code review',
  'design systems',
];
const TITLES = [
  (subject: string) => `What I learned from a year of ${subject}`,
  (subject: string) => `The quiet cost of ${subject}`,
  (subject: string) => `A field guide to ${subject}`,
  (subject: string) => `Why we stopped worrying about ${subject}`,
  (subject: string) => `Ten notes on ${subject}`,
];

export const DEMO_STORIES = 300;
const DAY_MS = 86_400_000;

/** mulberry32: a small seeded generator, so the demo is the same on every machine. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export async function hasStories(db: Db): Promise<boolean> {
  const { data } = await db.entities.story.query.newest({ feed: 'all' }).go({ limit: 1 });
  return data.length > 0;
}

export interface SocialSeedResult {
  people: number;
  stories: number;
  follows: number;
  likes: number;
}

export interface SocialSeedOptions {
  /** How many demo stories (DEMO_STORIES by default); the people and their follows stay the same. */
  stories?: number;
}

/** Writes the demo data set; `now` anchors the stories' times. */
export async function seedSocial(db: Db, now: Date, options: SocialSeedOptions = {}): Promise<SocialSeedResult> {
  const random = seededRandom(20_261_124);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

  const names = LAST_NAMES.flatMap((last) => FIRST_NAMES.map((first) => ({ first, last })));
  const people: { userId: string; name: string }[] = [];
  for (const { first, last } of names) {
    const email = `${first}.${last}@demo.toppubs.example`.toLowerCase();
    const { user } = await findOrCreateUserByEmail(db, email, new Date(now.getTime() - 60 * DAY_MS));
    people.push({ userId: user.userId, name: `${first} ${last}` });
  }

  // Each person follows 4 to 10 others; some people are followed far more than others.
  const follows = new Map<string, Set<string>>(people.map((person) => [person.userId, new Set()]));
  for (const person of people) {
    const wanted = 4 + Math.floor(random() * 7);
    while ((follows.get(person.userId)?.size ?? 0) < wanted) {
      const other = people[Math.floor(random() ** 2 * people.length)];
      if (other && other.userId !== person.userId) follows.get(person.userId)?.add(other.userId);
    }
  }
  const followersOf = new Map<string, string[]>(people.map((person) => [person.userId, []]));
  for (const [followerId, followed] of follows) for (const followedId of followed) followersOf.get(followedId)?.push(followerId);

  // Stories over the last 14 days, more of them recent; a few sharers share most.
  const stories = Array.from({ length: options.stories ?? DEMO_STORIES }, (_, index) => {
    const site = pick(SITES);
    const subject = pick(SUBJECTS);
    const sharer = people[Math.floor(random() ** 1.5 * people.length)] ?? people[0];
    const createdAt = new Date(now.getTime() - random() ** 1.7 * 14 * DAY_MS).toISOString();
    const storyId = `demo${index.toString(36).padStart(4, '0')}`;
    const slug = `${subject.replace(/[^a-z]+/g, '-')}-${index}`;
    return {
      storyId,
      url: `https://${site.host}/posts/${slug}`,
      canonicalUrl: `https://${site.host}/posts/${slug}`,
      title: pick(TITLES)(subject),
      description: `Notes on ${subject}, from ${site.name}.`,
      siteName: site.name,
      source: 'page' as const,
      sharerId: sharer?.userId ?? '',
      createdAt,
      likeCount: 0,
    };
  });

  // Likes: each reader opened and liked a handful of stories; a few stories catch on.
  const relations: { storyId: string; userId: string; redirectedAt: string; likedAt: string }[] = [];
  for (const story of stories) {
    const appeal = random() ** 3;
    for (const person of people) {
      if (person.userId === story.sharerId || random() > appeal * 0.6) continue;
      const at = new Date(Math.min(now.getTime(), Date.parse(story.createdAt) + random() * 2 * DAY_MS)).toISOString();
      relations.push({ storyId: story.storyId, userId: person.userId, redirectedAt: at, likedAt: at });
      story.likeCount += 1;
    }
  }

  const expiresOf = (createdAt: string) => Math.floor(Date.parse(createdAt) / 1000) + TIMELINE_DAYS * 86_400;
  const timeline = stories.flatMap((story) =>
    (followersOf.get(story.sharerId) ?? []).map((userId) => ({
      userId,
      createdAt: story.createdAt,
      storyId: story.storyId,
      sharerId: story.sharerId,
      expiresAt: expiresOf(story.createdAt),
    })),
  );
  const followItems = [...follows].flatMap(([followerId, followed]) =>
    [...followed].map((followedId) => ({
      followerId,
      followedId,
      createdAt: new Date(now.getTime() - 30 * DAY_MS).toISOString(),
    })),
  );

  // Each story's place on its site's page, and the counts the share transactions would have kept.
  const siteStories = stories.flatMap((story) => {
    const host = siteHostOf(story.canonicalUrl);
    return host ? [{ host, createdAt: story.createdAt, storyId: story.storyId }] : [];
  });
  const sites = new Map<string, { host: string; storyCount: number; lastSharedAt: string }>();
  for (const entry of siteStories) {
    const site = sites.get(entry.host) ?? { host: entry.host, storyCount: 0, lastSharedAt: entry.createdAt };
    site.storyCount += 1;
    if (entry.createdAt > site.lastSharedAt) site.lastSharedAt = entry.createdAt;
    sites.set(entry.host, site);
  }

  await Promise.all([
    writeBatch({
      items: siteStories,
      send: (items) => db.entities.siteStory.put(items).go({ concurrent: 4 }),
      keyOf: (item) => item.storyId,
      what: 'demo site stories',
    }),
    writeBatch({
      items: [...sites.values()],
      send: (items) => db.entities.storySite.put(items).go({ concurrent: 4 }),
      keyOf: (item) => item.host,
      what: 'demo sites',
    }),
    writeBatch({
      items: stories,
      send: (items) => db.entities.story.put(items).go({ concurrent: 4 }),
      keyOf: (item) => item.storyId,
      what: 'demo stories',
    }),
    writeBatch({
      items: relations,
      send: (items) => db.entities.storyRelation.put(items).go({ concurrent: 4 }),
      keyOf: (item) => `${item.storyId}#${item.userId}`,
      what: 'demo likes',
    }),
    writeBatch({
      items: followItems,
      send: (items) => db.entities.follow.put(items).go({ concurrent: 4 }),
      keyOf: (item) => `${item.followerId}#${item.followedId}`,
      what: 'demo follows',
    }),
    writeBatch({
      items: timeline,
      send: (items) => db.entities.timelineEntry.put(items).go({ concurrent: 4 }),
      keyOf: (item) => `${item.userId}#${item.createdAt}#${item.storyId}`,
      what: 'demo timelines',
    }),
  ]);
  // The counts the follow transactions would have kept.
  await Promise.all(
    people.map((person) =>
      db.entities.user
        .patch({ userId: person.userId })
        .set({
          name: person.name,
          followerCount: followersOf.get(person.userId)?.length ?? 0,
          followingCount: follows.get(person.userId)?.size ?? 0,
        })
        .go({ response: 'none' }),
    ),
  );
  return { people: people.length, stories: stories.length, follows: followItems.length, likes: relations.length };
}
