import { describe, expect, it } from 'vitest';
import { ServiceUnavailable, Unprocessable } from '../../functions/lib/errors';
import type { AddedSource, SourcePreview } from '../../functions/ranking/lib/sources/add-source';
import type { PublicationSourceItem } from '../../functions/lib/db/entities/publication-source';
import { importAddresses, OUT_OF_TIME, WORST_ADDRESS_MS } from '../../functions/ranking/lib/suggestions';

const previewOf = (url: string): SourcePreview => ({
  ref: { platform: 'wordpress.com', url },
  snapshot: {
    platform: 'wordpress.com',
    canonicalId: `wordpress.com:${url.length}`,
    name: `Blog at ${url}`,
    url,
    description: null,
    imageUrl: null,
    topics: [],
    followers: 100,
    latestPostAt: null,
    feedUrl: null,
  },
});
const added = (preview: SourcePreview): AddedSource => ({
  kind: 'added',
  source: { slug: `slug-${preview.ref.url.length}` } as PublicationSourceItem,
});

describe('importAddresses', () => {
  it('reports each address, a failed read as its own line, and stops starting addresses once time runs short', async () => {
    // Prepare: enough time for two addresses, then not
    const left = [WORST_ADDRESS_MS * 3, WORST_ADDRESS_MS + 1, WORST_ADDRESS_MS - 1, WORST_ADDRESS_MS * 3];
    const read = async (url: string) => {
      if (url.includes('gone')) throw new Unprocessable('No publication was found at that address. Check it and try again.');
      return previewOf(url);
    };

    // Act
    const results = await importAddresses(['https://a.wordpress.com/', 'https://gone.wordpress.com/', 'https://b.wordpress.com/', 'https://c.wordpress.com/'], {
      read,
      add: async (preview) => added(preview),
      remainingTimeMs: () => left.shift() ?? 0,
    });

    // Assess
    expect(results).toEqual([
      { url: 'https://a.wordpress.com/', outcome: 'added', slug: 'slug-24', name: 'Blog at https://a.wordpress.com/', reason: null },
      {
        url: 'https://gone.wordpress.com/',
        outcome: 'failed',
        slug: null,
        name: null,
        reason: 'No publication was found at that address. Check it and try again.',
      },
      { url: 'https://b.wordpress.com/', outcome: 'failed', slug: null, name: null, reason: OUT_OF_TIME },
      { url: 'https://c.wordpress.com/', outcome: 'added', slug: 'slug-24', name: 'Blog at https://c.wordpress.com/', reason: null },
    ]);
  });

  it("reports a platform asking to slow down as the address's failure, and lets the table's failure fail the call", async () => {
    // Prepare
    const steps = (error: Error) => ({
      read: async () => {
        throw error;
      },
      add: async (preview: SourcePreview) => added(preview),
      remainingTimeMs: () => WORST_ADDRESS_MS * 2,
    });

    // Act
    const slowDown = await importAddresses(
      ['https://a.wordpress.com/'],
      steps(new ServiceUnavailable('That platform asks us to slow down. Try again in a few minutes.')),
    );
    const tableDown = importAddresses(['https://a.wordpress.com/'], steps(new Error('ECONNREFUSED')));

    // Assess
    expect(slowDown[0]).toMatchObject({ outcome: 'failed', reason: 'That platform asks us to slow down. Try again in a few minutes.' });
    await expect(tableDown).rejects.toThrow('ECONNREFUSED');
  });
});
