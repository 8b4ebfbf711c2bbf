import { describe, expect, it } from 'vitest';
import { boardSeo, publicationSeo } from '../../functions/ranking/lib/seo';

const ux = { tag: 'ux', name: 'UX', publicationCount: 1_200, activeCount: 400, totalFollowers: 9_000_000 };

describe('boardSeo', () => {
  it('names each board as its page does, and counts what the board ranks', () => {
    // Act & Assess
    expect(boardSeo('followers', true, null, 6_500).title).toBe('Most followed active publications · TopPubs');
    expect(boardSeo('growth', false, ux, 0).description).toMatch(
      /^Fastest growing UX publications: 1,200 UX publications ranked/,
    );
    expect(boardSeo('activity', false, null, 17_170).description).toBe(
      'Recently active publications: 17,170 publications newest post first, feeds without a follower count included. Updated hourly.',
    );
  });

  it('says "active" once on the recently-active board filtered to active publications', () => {
    // Act
    const seo = boardSeo('activity', true, ux, 400);

    // Assess
    expect(seo.title).toBe('Recently active UX publications, active only · TopPubs');
    expect(seo.keywords).toEqual(['publications', 'blogs', 'recently active', 'active', 'ux', 'ranking']);
  });
});

describe('publicationSeo', () => {
  it('does not claim a follower count for a feed that has none', () => {
    // Act & Assess
    expect(publicationSeo('Pulse', '', null).description).toBe(
      'Pulse publishes a feed without a follower count. See how recently it posted and where it ranks.',
    );
    expect(publicationSeo('Pulse', '', 1_234).description).toBe('Pulse has 1,234 followers. See its rank and follower history.');
  });
});
