import { FEED_ACCEPT, FeedError, newestFeedDate, readFeedChannel } from '../feed-document';
import {
  fetchSourceIfChanged,
  httpsUrl,
  type SourceAdapter,
  type SourceRef,
  type SourceSnapshot,
  SourceUnreadable,
} from './source-adapter';

/**
 * Any site with an RSS or Atom feed, given the feed's address: its name, site, description and
 * image from the feed's channel, and its latest post. Feeds do not count followers, so such a
 * publication has none (`followers: null`) and belongs on the activity boards only. Its identity
 * is the feed's address after redirects, so a feed that moved with a permanent redirect keeps it.
 */
export const feedAdapter: SourceAdapter = {
  platform: 'feed',

  recognise(url: URL): SourceRef | null {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    const normalised = new URL(url.href);
    normalised.hash = '';
    return { platform: 'feed', url: normalised.href };
  },

  requests: (ref) => ({ host: new URL(ref.url).host, perSnapshot: 1 }),

  async collect(ref: SourceRef, fetch, now, previous): Promise<SourceSnapshot> {
    const answer = await fetchSourceIfChanged(fetch, ref.url, FEED_ACCEPT, previous);
    if ('unchanged' in answer) return answer.unchanged;
    try {
      const channel = await readFeedChannel(answer.body);
      const name = channel.title;
      if (!name) throw new SourceUnreadable(`The feed at ${ref.url} has no title`);
      const feedUrl = answer.url;
      return {
        platform: 'feed',
        canonicalId: `feed:${feedUrl}`,
        name,
        url: httpsUrl(channel.link) ?? new URL('/', feedUrl).href,
        description: channel.description,
        imageUrl: httpsUrl(channel.imageUrl),
        topics: [],
        followers: null,
        latestPostAt: (await newestFeedDate(answer.body, now))?.toISOString() ?? null,
        feedUrl,
      };
    } catch (error) {
      if (error instanceof FeedError) throw new SourceUnreadable(`${ref.url} is not a feed: ${error.message}`, { cause: error });
      throw error;
    }
  },
};
