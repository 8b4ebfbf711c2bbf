import { describe, expect, it } from 'vitest';
import { publicationSnapshotSchema } from '../../shared/schemas/ranking';
import { slugFrom, toIngestionRow, topicOf } from '../../functions/ranking/lib/sources/collect-source';
import type { SourceSnapshot } from '../../functions/ranking/lib/sources/source-adapter';

const OBSERVED = new Date('2026-11-26T05:00:00.000Z');

const snapshot = (overrides: Partial<SourceSnapshot> = {}): SourceSnapshot => ({
  platform: 'medium',
  canonicalId: 'medium:abc',
  name: 'The Startup',
  url: 'https://medium.com/swlh',
  description: '  Get smarter at building your thing.  ',
  imageUrl: 'https://miro.medium.com/v2/resize:fill:176:176/1*x.png',
  topics: [
    'Startup',
    'Data Science',
    'Café Culture',
    'startup',
    '!!!',
    ...Array.from({ length: 12 }, (_, index) => `tag ${index}`),
  ],
  followers: 812_000,
  latestPostAt: '2026-11-25T10:00:00.000Z',
  feedUrl: 'https://medium.com/feed/swlh',
  ...overrides,
});

describe('a collected snapshot as an ingestion row', () => {
  it("becomes a row the ingestion path accepts: our slug, the platform's tags as topics, trimmed", () => {
    // Act
    const row = toIngestionRow(snapshot(), 'the-startup', OBSERVED);

    // Assess
    expect(row).toMatchObject({
      slug: 'the-startup',
      name: 'The Startup',
      followers: 812_000,
      description: 'Get smarter at building your thing.',
      observedAt: OBSERVED.toISOString(),
    });
    expect(row?.topics).toEqual([
      'startup',
      'data-science',
      'cafe-culture',
      'tag-0',
      'tag-1',
      'tag-2',
      'tag-3',
      'tag-4',
      'tag-5',
      'tag-6',
    ]);
    expect(publicationSnapshotSchema.safeParse(row).success).toBe(true);
  });

  it('sends no follower count for a source that counts none, and the ingestion path takes it', () => {
    // Act
    const row = toIngestionRow(snapshot({ platform: 'feed', followers: null }), 'a-feed', OBSERVED);

    // Assess
    expect(row.followers).toBeNull();
    expect(publicationSnapshotSchema.safeParse(row).success).toBe(true);
  });
});

describe('names on our side', () => {
  it('makes topics of tags and slugs of names, from the address when the name has no letters', () => {
    // Act & Assess
    expect(topicOf('  Machine Learning & AI ')).toBe('machine-learning-and-ai');
    expect(topicOf('Café Culture')).toBe('cafe-culture');
    expect(topicOf('日本語')).toBeNull();
    expect(slugFrom('UX Collective', 'https://medium.com/ux-collective')).toBe('ux-collective');
    // The seed's rule too: '&' is read as 'and', an apostrophe joins its word.
    expect(slugFrom("Ann's Bread & Butter", 'https://medium.com/anns')).toBe('anns-bread-and-butter');
    expect(slugFrom('日本語', 'https://blog.example.jp/posts/')).toBe('blog-example-jp-posts');
    expect(slugFrom('x'.repeat(120), 'https://a.example/')).toHaveLength(80);
  });
});
