import type { SortKeys, Standing } from './standing';

/**
 * The leaders of each topic live in the manifest, one DynamoDB item (400 KB at most) read on
 * every page view: an image URL longer than this (a signed or data-laden one) is left out, and
 * the card shows initials instead, so each leader stays a few hundred bytes however its image is
 * addressed.
 */
export const MAX_LEADER_IMAGE_URL = 300;

/**
 * A run's publications column by column: what the boards sort, filter and name them by, a few
 * numbers and short strings each, where an object per publication (its Standing, with a
 * 30-day sparkline) took ten times the memory. The ranking job holds every publication at once,
 * and at 200,000 of them must fit in a third of its function's memory (docs/operations.md,
 * "Ranking job at scale"). A publication is its position: the order it was added in.
 */
export class StandingColumns {
  readonly slugs: string[] = [];
  readonly names: string[] = [];
  readonly followers: number[] = [];
  readonly followers7dAgo: number[] = [];
  readonly gained30d: number[] = [];
  readonly growthPct30d: (number | null)[] = [];
  readonly latestPostAt: (string | null)[] = [];
  readonly followersKnown: boolean[] = [];
  readonly isActive: boolean[] = [];
  /** Only an image a topic card may show (MAX_LEADER_IMAGE_URL); null otherwise. */
  readonly leaderImageUrls: (string | null)[] = [];
  /** Each topic tag once; a publication's topics are positions in it. */
  readonly topicTags: string[] = [];
  private readonly topicPositions = new Map<string, number>();
  /** Publication i's topics are topicIds[topicStart[i]] up to topicIds[topicStart[i + 1]], in its own order. */
  private readonly topicStart: number[] = [0];
  private readonly topicIds: number[] = [];

  static of(standings: readonly Standing[]): StandingColumns {
    const columns = new StandingColumns();
    for (const standing of standings) columns.add(standing);
    return columns;
  }

  get size(): number {
    return this.slugs.length;
  }

  /** Adds a publication; answers its position. */
  add(standing: Standing): number {
    this.slugs.push(standing.slug);
    this.names.push(standing.name);
    this.followers.push(standing.followers);
    this.followers7dAgo.push(standing.followers7dAgo);
    this.gained30d.push(standing.gained30d);
    this.growthPct30d.push(standing.growthPct30d);
    this.latestPostAt.push(standing.latestPostAt);
    this.followersKnown.push(standing.followersKnown);
    this.isActive.push(standing.isActive);
    const imageUrl = standing.imageUrl;
    this.leaderImageUrls.push(imageUrl && imageUrl.length <= MAX_LEADER_IMAGE_URL ? imageUrl : null);
    for (const tag of standing.topics) this.topicIds.push(this.topicPosition(tag));
    this.topicStart.push(this.topicIds.length);
    return this.slugs.length - 1;
  }

  /** Positions in topicTags of publication `index`'s topics. */
  topicsOf(index: number): number[] {
    return this.topicIds.slice(this.topicStart[index], this.topicStart[index + 1]);
  }

  /** A reusable reader of one publication's sort keys at a time: a sort compares two of them some 3.5 million times at 200,000 publications. */
  cursor(): ColumnCursor {
    return new ColumnCursor(this);
  }

  private topicPosition(tag: string): number {
    let position = this.topicPositions.get(tag);
    if (position === undefined) {
      position = this.topicTags.length;
      this.topicTags.push(tag);
      this.topicPositions.set(tag, position);
    }
    return position;
  }
}

/** The sort keys of the publication at `index`, read from the columns without making an object of it. */
export class ColumnCursor implements SortKeys {
  index = 0;

  constructor(private readonly columns: StandingColumns) {}

  get slug(): string {
    return this.columns.slugs[this.index] as string;
  }

  get followers(): number {
    return this.columns.followers[this.index] as number;
  }

  get gained30d(): number {
    return this.columns.gained30d[this.index] as number;
  }

  get growthPct30d(): number | null {
    return this.columns.growthPct30d[this.index] ?? null;
  }

  get latestPostAt(): string | null {
    return this.columns.latestPostAt[this.index] ?? null;
  }
}
