import { feedAdapter } from './feed';
import { mediumAdapter } from './medium';
import type { SourceAdapter, SourceRef } from './source-adapter';
import { wordpressComAdapter } from './wordpress-com';

/**
 * Every adapter, the platforms that count followers first: an address any of them recognises
 * goes to it, and anything else is tried as a feed, which counts none.
 */
export const SOURCE_ADAPTERS: readonly SourceAdapter[] = [mediumAdapter, wordpressComAdapter, feedAdapter];

/** The adapter that reads `url` and its normalised reference, or null for an address no adapter takes. */
export function recogniseSource(url: string): { adapter: SourceAdapter; ref: SourceRef } | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  for (const adapter of SOURCE_ADAPTERS) {
    const ref = adapter.recognise(parsed);
    if (ref) return { adapter, ref };
  }
  return null;
}
