import { ACTIVE_WINDOW_DAYS, GROWTH_WINDOW_DAYS, RECENT_HISTORY_DAYS } from '../../../shared/constants';
import type { FollowerHistoryItem } from '../../../functions/lib/db/entities/follower-history';
import type { PublicationItem } from '../../../functions/lib/db/entities/publication';
import { addDays, type Day, monthDay, yearOf } from '../../../functions/ranking/lib/domain/days';
import {
  countOnOrBefore,
  firstObserved,
  NOT_OBSERVED,
  type RecentCounts,
} from '../../../functions/ranking/lib/domain/recent-counts';
import { shardOf } from '../../../functions/ranking/lib/domain/shard';
import { kebabCase, SLUG_MAX_LENGTH } from '../../../shared/slug';

/** Tags ordered by how popular they are meant to be: the n-th gets weight 1/n (Zipf). */
const TOPIC_TAGS = [
  'technology',
  'programming',
  'startups',
  'self-improvement',
  'productivity',
  'data-science',
  'machine-learning',
  'artificial-intelligence',
  'software-engineering',
  'business',
  'javascript',
  'python',
  'design',
  'ux',
  'writing',
  'life-lessons',
  'personal-finance',
  'investing',
  'health',
  'mental-health',
  'politics',
  'culture',
  'entrepreneurship',
  'marketing',
  'leadership',
  'web-development',
  'cryptocurrency',
  'relationships',
  'psychology',
  'science',
  'education',
  'books',
  'fiction',
  'poetry',
  'humor',
  'travel',
  'food',
  'fitness',
  'parenting',
  'history',
  'philosophy',
  'music',
  'film',
  'photography',
  'art',
  'climate-change',
  'sustainability',
  'economics',
  'careers',
  'remote-work',
  'product-management',
  'react',
  'devops',
  'cloud-computing',
  'aws',
  'cybersecurity',
  'android-development',
  'ios-development',
  'gaming',
  'sports',
  'spirituality',
  'lgbtq',
  'society',
  'media',
  'journalism',
  'social-media',
  'seo',
  'sales',
  'freelancing',
  'creativity',
  'short-story',
  'nonfiction',
  'science-fiction',
  'space',
  'physics',
  'mathematics',
  'biology',
  'medicine',
  'nutrition',
  'running',
  'yoga',
  'meditation',
  'cooking',
  'gardening',
  'architecture',
  'urbanism',
  'transportation',
  'electric-vehicles',
  'energy',
  'future',
  'ethics',
  'law',
  'linguistics',
  'typography',
  'open-source',
  'rust',
  'golang',
  'kubernetes',
  'blockchain',
  'feminism',
] as const;

const TOPIC_NAME_OVERRIDES: Record<string, string> = {
  ux: 'UX',
  aws: 'AWS',
  seo: 'SEO',
  lgbtq: 'LGBTQ+',
  devops: 'DevOps',
  javascript: 'JavaScript',
  'ios-development': 'iOS Development',
  golang: 'Go',
};

export interface SeedTopic {
  tag: string;
  name: string;
}

export const SEED_TOPICS: readonly SeedTopic[] = TOPIC_TAGS.map((tag) => ({
  tag,
  name: TOPIC_NAME_OVERRIDES[tag] ?? tag.split('-').map(capitalize).join(' '),
}));

const ADJECTIVES = [
  'Quiet',
  'Bold',
  'Curious',
  'Modern',
  'Open',
  'Hidden',
  'Brave',
  'Clever',
  'Honest',
  'Practical',
  'Restless',
  'Wild',
  'Gentle',
  'Lucid',
  'Steady',
  'Bright',
  'Slow',
  'Little',
  'Grand',
  'Northern',
  'Southern',
  'Urban',
  'Digital',
  'Analog',
  'Patient',
  'Radical',
  'Simple',
  'Hungry',
  'Candid',
  'Gilded',
  'Silver',
  'Golden',
  'Crimson',
  'Iron',
  'Paper',
  'Glass',
  'Copper',
  'Midnight',
  'Morning',
  'Evening',
  'Careful',
  'Deep',
  'Wandering',
  'Thoughtful',
  'Uncommon',
  'Odd',
  'Pragmatic',
  'Fearless',
  'Sharp',
  'Independent',
  'Unfiltered',
  'Second',
  'Better',
  'Small',
  'Public',
  'Tiny',
  'Weird',
  'Stubborn',
  'Lazy',
  'Useful',
  'Distant',
  'Vivid',
  'Sunday',
  'Friday',
  'Rainy',
  'Salty',
];

const NOUNS = [
  'Ledger',
  'Startup',
  'Review',
  'Journal',
  'Gazette',
  'Dispatch',
  'Almanac',
  'Notebook',
  'Compass',
  'Lantern',
  'Harbor',
  'Signal',
  'Circuit',
  'Atlas',
  'Chronicle',
  'Letter',
  'Post',
  'Press',
  'Studio',
  'Workshop',
  'Garden',
  'Library',
  'Observer',
  'Outpost',
  'Frontier',
  'Field',
  'Mind',
  'Engineer',
  'Reader',
  'Writer',
  'Coder',
  'Maker',
  'Builder',
  'Thinker',
  'Index',
  'Digest',
  'Bulletin',
  'Courier',
  'Report',
  'Forum',
  'Salon',
  'Table',
  'Kitchen',
  'Lab',
  'Canvas',
  'Ink',
  'Quill',
  'Margin',
  'Footnote',
  'Thread',
  'Loop',
  'Stack',
  'Byte',
  'Pixel',
  'Kernel',
  'Orbit',
  'Horizon',
  'Current',
  'Tide',
  'River',
  'Mountain',
  'Forest',
  'Ember',
  'Spark',
  'Beacon',
  'Bridge',
  'Road',
  'Map',
  'Window',
  'Attic',
  'Cabinet',
  'Wire',
  'Mirror',
  'Pulse',
  'Anchor',
  'Hive',
  'Nest',
  'Well',
  'Porch',
];

const OUTLET_NOUNS = ['Review', 'Journal', 'Digest', 'Weekly', 'Quarterly', 'Dispatch', 'Collective', 'Notes', 'Daily', 'Club'];

const FIRST_NAMES = [
  'Maya',
  'Leo',
  'Ada',
  'Omar',
  'Iris',
  'Jonah',
  'Priya',
  'Theo',
  'Nina',
  'Felix',
  'Zara',
  'Hugo',
  'Lena',
  'Kai',
  'Rosa',
  'Ezra',
  'Mila',
  'Arjun',
  'Clara',
  'Tomas',
  'Yuki',
  'Sven',
  'Amara',
  'Noor',
];

const AUDIENCES = [
  'readers',
  'builders',
  'engineers',
  'founders',
  'writers',
  'students',
  'parents',
  'investors',
  'designers',
  'makers',
];
const FREQUENCIES = ['weekly', 'daily', 'monthly', 'twice-weekly'];

/** Tail the follower counts off here: the biggest real publications sit around two million. */
const MAX_FOLLOWERS = 2_400_000;
/** Publications this big count as giants, of which a good share has gone quiet. */
const GIANT_FOLLOWERS = 10_000;
const MS_PER_DAY = 86_400_000;
/** Share of days the collector "missed", so readers of recentCounts meet NOT_OBSERVED gaps. */
const MISSED_DAY_RATE = 0.004;
const YOUNG_SHARE = 0.012;

export const DEFAULT_SEED = 20_240_601;

export interface SeedOptions {
  /** Last day of the follower history; latestPostAt values are before its start. */
  today: Day;
  publications?: number;
  /**
   * Publications read from a plain feed, added to the others: no follower count, no topics
   * (a feed names none), ranked on the activity boards only. Drawn from a stream of their own,
   * so adding them leaves every other publication as it was.
   */
  feedOnly?: number;
  /** How many of SEED_TOPICS to use, most popular first. */
  topics?: number;
  historyDays?: number;
  seed?: number;
}

export interface SeedData {
  topics: SeedTopic[];
  publications: PublicationItem[];
  histories: FollowerHistoryItem[];
}

type Activity = 'active' | 'lapsed' | 'dormant' | 'never';

/** What a publication is meant to look like, before its numbers are drawn. */
interface Profile {
  followers: number;
  activity: Activity;
  /** Days since first seen when younger than the history, else undefined. */
  ageDays: number | undefined;
  /** Relative growth over the last GROWTH_WINDOW_DAYS (or since first seen, if younger). */
  recentGrowth: number;
  /** Relative growth per GROWTH_WINDOW_DAYS before that. */
  earlierGrowth: number;
  /** Spread of the day-to-day measurement noise. */
  noise: number;
}

/** One in a hundred more than SEED_PUBLICATIONS asks for: the activity boards show how those are labelled. */
export function feedOnlyShare(publications: number): number {
  return Math.round(publications / 100);
}

/**
 * The line `npm start` prints before seeding. It names the feed-only publications apart, since
 * they come on top of the count asked for: SEED_PUBLICATIONS=1000 writes 1,010 publications.
 */
export function describeSeed(data: SeedData, feedOnly: number): string {
  const followed = data.publications.length - feedOnly;
  const extra = feedOnly > 0 ? `, and ${feedOnly} more read from a plain feed (1 in 100, no follower count)` : '';
  return `Seeding ${followed} publications with ${data.histories.length} follower histories${extra}...`;
}

export function generateSeedData(options: SeedOptions): SeedData {
  const { today, publications: count = 17_000, historyDays = 90, seed = DEFAULT_SEED } = options;
  if (historyDays < RECENT_HISTORY_DAYS) throw new RangeError(`historyDays must be at least ${RECENT_HISTORY_DAYS}`);
  const topics = SEED_TOPICS.slice(0, options.topics ?? SEED_TOPICS.length);
  if (topics.length === 0) throw new RangeError('At least one topic is needed to name publications');
  const random = createRandom(seed);
  const calendar = buildCalendar(today, historyDays);
  const topicWeights = topics.map((_, rank) => 1 / (rank + 1));
  const riserIndexes = pickRisers(random, count);
  const usedSlugs = new Set<string>();
  const nowIso = `${today}T00:00:00.000Z`;

  const publications: PublicationItem[] = [];
  const histories: FollowerHistoryItem[] = [];
  for (let index = 0; index < count; index += 1) {
    const profile = drawProfile(random, riserIndexes.has(index));
    const pubTopics = drawTopics(random, topics, topicWeights);
    const name = uniqueName(random, pubTopics, usedSlugs);
    const slug = slugify(name);
    const counts = drawTrajectory(random, profile, historyDays);
    const window = recentWindow(counts, today);
    const firstSeenDay = calendar[counts.findIndex((value) => value !== NOT_OBSERVED)]?.day ?? today;
    const latestPostAt = drawLatestPost(random, profile, today);

    publications.push({
      slug,
      name,
      url: `https://${slug}.example.com/`,
      description: describe(random, pubTopics),
      ...(random.chance(0.3) ? { feedUrl: `https://${slug}.example.com/feed` } : {}),
      ...(latestPostAt ? { latestPostAt } : {}),
      topics: pubTopics.map((topic) => topic.tag),
      followers: profile.followers,
      followers7dAgo: countAgo(window, today, 7),
      followers30dAgo: countAgo(window, today, GROWTH_WINDOW_DAYS),
      firstSeenDay,
      recentEndDay: window.endDay,
      recentCounts: window.counts,
      shard: shardOf(slug),
      revision: 1,
      createdAt: `${firstSeenDay}T00:00:00.000Z`,
      updatedAt: nowIso,
    });
    histories.push(...historyItems(slug, counts, calendar, nowIso));
  }
  publications.push(...feedOnlyPublications(options.feedOnly ?? 0, { seed, topics, topicWeights, usedSlugs, today, nowIso }));
  return { topics: [...topics], publications, histories };
}

function feedOnlyPublications(
  count: number,
  context: { seed: number; topics: SeedTopic[]; topicWeights: number[]; usedSlugs: Set<string>; today: Day; nowIso: string },
): PublicationItem[] {
  const random = createRandom(context.seed + 1);
  return Array.from({ length: count }, () => {
    const name = uniqueName(random, drawTopics(random, context.topics, context.topicWeights), context.usedSlugs);
    const slug = slugify(name);
    const activity: Activity = random.chance(0.7) ? 'active' : 'lapsed';
    const latestPostAt = drawLatestPost(random, { ...FEED_PROFILE, activity }, context.today);
    return {
      slug,
      name,
      url: `https://${slug}.example.com/`,
      description: '',
      feedUrl: `https://${slug}.example.com/feed.xml`,
      ...(latestPostAt ? { latestPostAt } : {}),
      topics: [],
      followersKnown: false,
      followers: 0,
      followers7dAgo: 0,
      followers30dAgo: 0,
      firstSeenDay: context.today,
      recentEndDay: context.today,
      recentCounts: [],
      shard: shardOf(slug),
      revision: 1,
      createdAt: context.nowIso,
      updatedAt: context.nowIso,
    };
  });
}

const FEED_PROFILE: Profile = {
  followers: 0,
  activity: 'active',
  ageDays: undefined,
  recentGrowth: 0,
  earlierGrowth: 0,
  noise: 0,
};

interface CalendarDay {
  day: Day;
  year: string;
  monthDay: string;
}

/** Day labels of the history, oldest first, computed once instead of per publication. */
function buildCalendar(today: Day, historyDays: number): CalendarDay[] {
  return Array.from({ length: historyDays }, (_, index) => {
    const day = addDays(today, index - (historyDays - 1));
    return { day, year: yearOf(day), monthDay: monthDay(day) };
  });
}

/** 40-60 publications growing 25-300% a month: enough to fill a "fastest growing" board. */
function pickRisers(random: Random, count: number): Set<number> {
  const wanted = Math.min(count, random.int(40, 60));
  const risers = new Set<number>();
  while (risers.size < wanted) risers.add(random.int(0, count - 1));
  return risers;
}

function drawProfile(random: Random, isRiser: boolean): Profile {
  if (isRiser) {
    return {
      followers: Math.round(Math.max(500, random.logNormal(3_000, 1.0))),
      activity: 'active',
      // A third of the risers are new: their whole history is inside the growth window.
      ageDays: random.chance(1 / 3) ? random.int(8, GROWTH_WINDOW_DAYS - 1) : undefined,
      recentGrowth: Math.exp(random.uniform(Math.log(1.25), Math.log(4))) - 1,
      earlierGrowth: Math.max(0, random.normal(0.04, 0.03)),
      noise: 0.004,
    };
  }
  if (random.chance(YOUNG_SHARE)) {
    return {
      followers: Math.round(random.logNormal(80, 1.3)),
      activity: random.chance(0.9) ? 'active' : 'lapsed',
      ageDays: random.int(1, GROWTH_WINDOW_DAYS - 1),
      recentGrowth: random.uniform(0.02, 0.15),
      earlierGrowth: 0,
      noise: 0.003,
    };
  }
  const followers = Math.min(MAX_FOLLOWERS, Math.round(random.logNormal(320, 2.25)));
  const activity = drawActivity(random, followers >= GIANT_FOLLOWERS);
  const growth = drawEstablishedGrowth(random, activity);
  return {
    followers,
    activity,
    ageDays: undefined,
    recentGrowth: growth,
    earlierGrowth: growth,
    noise: activity === 'active' ? 0.003 : 0.001,
  };
}

/** Giants go quiet more often than the rest: they keep their audience long after the last post. */
function drawActivity(random: Random, isGiant: boolean): Activity {
  const roll = random.next();
  if (isGiant) return roll < 0.35 ? 'active' : roll < 0.5 ? 'lapsed' : 'dormant';
  return roll < 0.4 ? 'active' : roll < 0.6 ? 'lapsed' : roll < 0.93 ? 'dormant' : 'never';
}

function drawEstablishedGrowth(random: Random, activity: Activity): number {
  switch (activity) {
    case 'active':
      return Math.max(-0.01, random.normal(0.035, 0.03));
    case 'lapsed':
      return random.normal(0.008, 0.01);
    case 'dormant':
    case 'never':
      return Math.min(0.002, random.normal(-0.004, 0.006));
  }
}

/**
 * Daily counts over the history, oldest first, ending exactly at `followers` today;
 * NOT_OBSERVED before the first-seen day and on the few days the collector missed.
 */
function drawTrajectory(random: Random, profile: Profile, historyDays: number): number[] {
  const recentRate = Math.log(1 + profile.recentGrowth) / (profile.ageDays ?? GROWTH_WINDOW_DAYS);
  const earlierRate = Math.log(1 + profile.earlierGrowth) / GROWTH_WINDOW_DAYS;
  const counts = new Array<number>(historyDays);
  for (let index = 0; index < historyDays; index += 1) {
    const daysAgo = historyDays - 1 - index;
    if (profile.ageDays !== undefined && daysAgo > profile.ageDays) {
      counts[index] = NOT_OBSERVED;
      continue;
    }
    const isEdge = daysAgo === 0 || daysAgo === profile.ageDays || index === 0;
    if (!isEdge && random.chance(MISSED_DAY_RATE)) {
      counts[index] = NOT_OBSERVED;
      continue;
    }
    const recentDays = Math.min(daysAgo, GROWTH_WINDOW_DAYS);
    const earlierDays = Math.max(0, daysAgo - GROWTH_WINDOW_DAYS);
    const logShrink = recentDays * recentRate + earlierDays * earlierRate;
    const jitter = daysAgo === 0 ? 1 : Math.exp(random.normal(0, profile.noise));
    counts[index] = Math.max(0, Math.round(profile.followers * Math.exp(-logShrink) * jitter));
  }
  return counts;
}

/** The same window recordCount would have built from daily ingestion: it starts at first sight. */
function recentWindow(counts: number[], today: Day): RecentCounts {
  const firstSeen = counts.findIndex((value) => value !== NOT_OBSERVED);
  const start = Math.max(firstSeen, counts.length - RECENT_HISTORY_DAYS);
  return { endDay: today, counts: counts.slice(start) };
}

/** The count `days` ago, or the first one we have when the publication is younger than that. */
function countAgo(window: RecentCounts, today: Day, days: number): number {
  const count = countOnOrBefore(window, addDays(today, -days)) ?? firstObserved(window)?.count;
  if (count === undefined) throw new Error('A generated window always holds today');
  return count;
}

function historyItems(slug: string, counts: number[], calendar: CalendarDay[], nowIso: string): FollowerHistoryItem[] {
  const byYear = new Map<string, Record<string, number>>();
  counts.forEach((count, index) => {
    if (count === NOT_OBSERVED) return;
    const { year, monthDay: key } = calendar[index] as CalendarDay;
    const days = byYear.get(year) ?? {};
    days[key] = count;
    byYear.set(year, days);
  });
  return [...byYear].map(([year, days]) => ({ slug, year, days, revision: 1, updatedAt: nowIso }));
}

/** Posting dates stay before today's start, so "active" holds for the whole of today. */
function drawLatestPost(random: Random, profile: Profile, today: Day): string | undefined {
  const todayStart = Date.parse(`${today}T00:00:00Z`);
  const daysAgo = (() => {
    switch (profile.activity) {
      case 'active':
        return random.uniform(0, Math.min(profile.ageDays ?? ACTIVE_WINDOW_DAYS, ACTIVE_WINDOW_DAYS - 1));
      case 'lapsed':
        return random.uniform(ACTIVE_WINDOW_DAYS + 1, 120);
      case 'dormant':
        return random.uniform(120, 1_500);
      case 'never':
        return undefined;
    }
  })();
  if (daysAgo === undefined) return undefined;
  // Whole seconds, like the dates feeds carry.
  return new Date(Math.floor((todayStart - daysAgo * MS_PER_DAY) / 1000) * 1000).toISOString();
}

function drawTopics(random: Random, topics: readonly SeedTopic[], weights: readonly number[]): SeedTopic[] {
  const wanted = Math.min(topics.length, random.weightedIndex([0.35, 0.35, 0.2, 0.1]) + 1);
  const chosen = new Set<SeedTopic>();
  while (chosen.size < wanted) chosen.add(topics[random.weightedIndex(weights)] as SeedTopic);
  return [...chosen];
}

const NAME_PATTERNS: ReadonlyArray<{ weight: number; build: (random: Random, topic: SeedTopic) => string }> = [
  { weight: 30, build: (random) => `The ${random.pick(ADJECTIVES)} ${random.pick(NOUNS)}` },
  { weight: 12, build: (random, topic) => `${random.pick(ADJECTIVES)} ${topic.name}` },
  { weight: 6, build: (_random, topic) => `Towards ${topic.name}` },
  { weight: 12, build: (random, topic) => `The ${topic.name} ${random.pick(OUTLET_NOUNS)}` },
  { weight: 10, build: (random, topic) => `${topic.name} ${random.pick(NOUNS)}` },
  { weight: 10, build: (random) => `${random.pick(NOUNS)} & ${random.pick(NOUNS)}` },
  { weight: 8, build: (random) => `${random.pick(FIRST_NAMES)}'s ${random.pick(NOUNS)}` },
  { weight: 12, build: (random) => `${random.pick(ADJECTIVES)} ${random.pick(NOUNS)} ${random.pick(OUTLET_NOUNS)}` },
];
const NAME_WEIGHTS = NAME_PATTERNS.map((pattern) => pattern.weight);
const NAME_ATTEMPTS = 12;

/** A name whose slug is not taken yet; recorded in `usedSlugs`. */
function uniqueName(random: Random, topics: SeedTopic[], usedSlugs: Set<string>): string {
  const primary = topics[0] as SeedTopic;
  let name = '';
  for (let attempt = 0; attempt < NAME_ATTEMPTS; attempt += 1) {
    name = (NAME_PATTERNS[random.weightedIndex(NAME_WEIGHTS)] as (typeof NAME_PATTERNS)[number]).build(random, primary);
    if (!usedSlugs.has(slugify(name))) break;
  }
  // Real outlets that collide on a name tell themselves apart with a number.
  const base = name;
  for (let number = 2; usedSlugs.has(slugify(name)); number += 1) name = `${base} ${number}`;
  usedSlugs.add(slugify(name));
  return name;
}

/** A demo publication's slug, by the rule every publication's follows (shared/slug.ts). */
export function slugify(name: string): string {
  return kebabCase(name, SLUG_MAX_LENGTH) ?? '';
}

const DESCRIPTION_PATTERNS: ReadonlyArray<(random: Random, topics: string[]) => string> = [
  (random, topics) =>
    `${capitalize(random.pick(FREQUENCIES))} essays on ${listOf(topics)} for curious ${random.pick(AUDIENCES)}.`,
  (random, topics) => `Practical notes on ${listOf(topics)} from ${random.pick(AUDIENCES)} who do the work.`,
  (random, topics) => `Where ${random.pick(AUDIENCES)} share what they learned about ${listOf(topics)}.`,
  (random, topics) => `A ${random.pick(FREQUENCIES)} letter about ${listOf(topics)}, written in plain words.`,
  (_random, topics) => `Stories, guides and opinions on ${listOf(topics)}.`,
];

function describe(random: Random, topics: SeedTopic[]): string {
  // Proper names and acronyms keep their capitals mid-sentence.
  const names = topics.slice(0, 2).map((topic) => (TOPIC_NAME_OVERRIDES[topic.tag] ? topic.name : topic.name.toLowerCase()));
  return random.pick(DESCRIPTION_PATTERNS)(random, names);
}

function listOf(words: string[]): string {
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : (words[0] ?? '');
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  uniform(min: number, max: number): number;
  /** Integer in [min, max], both included. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  weightedIndex(weights: readonly number[]): number;
  normal(mean: number, deviation: number): number;
  /** Log-normal with the given median and log-space spread. */
  logNormal(median: number, sigma: number): number;
}

/** mulberry32: tiny, fast, and the same sequence for the same seed on every platform. */
function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const normal = (mean: number, deviation: number) => {
    // Box-Muller; 1 - next() keeps the logarithm away from zero.
    const radius = Math.sqrt(-2 * Math.log(1 - next()));
    return mean + deviation * radius * Math.cos(2 * Math.PI * next());
  };
  return {
    next,
    uniform: (min, max) => min + (max - min) * next(),
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability) => next() < probability,
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T,
    weightedIndex: (weights) => {
      const total = weights.reduce((sum, weight) => sum + weight, 0);
      let roll = next() * total;
      for (let index = 0; index < weights.length; index += 1) {
        roll -= weights[index] as number;
        if (roll < 0) return index;
      }
      return weights.length - 1;
    },
    normal,
    logNormal: (median, sigma) => median * Math.exp(normal(0, sigma)),
  };
}
