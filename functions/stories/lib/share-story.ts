import { createHash, randomBytes } from 'node:crypto';
import {
  checkShareUrl,
  normaliseStoryUrl,
  type ShareAlert,
  type SharingRuleOptions,
} from '../../../shared/stories/sharing-rules';
import type { StoryItem } from '../../lib/db/entities/story';
import { lostRace, retryContendedWrite } from '../../lib/contended-writes';
import { failedConditions } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';
import { logger } from '../../lib/logger';
import {
  RedirectRefused,
  safeFetch,
  SafeFetchError,
  type SafeFetchOptions,
  type SafeFetchResult,
} from '../../lib/http/safe-fetch';
import type { PageMetadata } from './page-metadata';
import { type PageProblem, pageProblemFor } from './page-problem';
import { InvalidShareUrl } from './share-url';
import { siteWrites } from './site-stories';

/** The same page shared again within this window returns the story already shared. */
export const DUPLICATE_WINDOW_DAYS = 30;

const PAGE_FETCH: SafeFetchOptions = {
  timeoutMs: 5_000,
  maxBytes: 2 * 1024 * 1024,
  maxRedirects: 5,
  accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
  acceptContentType: (contentType) => /^\s*(text\/html|application\/xhtml\+xml)\b/i.test(contentType),
};

export interface ShareStoryOptions extends SharingRuleOptions {
  /** Local runtime and tests only: they serve pages on loopback. Production refuses it. */
  allowPrivateAddresses: boolean;
  now?: Date;
  fetchPage?: (url: string, options: SafeFetchOptions) => Promise<SafeFetchResult>;
}

export interface SharedStory {
  story: StoryItem;
  /** The page was shared within the duplicate window: this is the story from then. */
  duplicate: boolean;
}

/** 8 characters of the url-safe 64-letter alphabet (48 random bits). */
export function newStoryId(): string {
  return randomBytes(6).toString('base64url');
}

/** AMP copies of a page are the same story as the page. */
function withoutAmp(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.delete('amp');
  if (parsed.searchParams.get('outputType') === 'amp') parsed.searchParams.delete('outputType');
  parsed.pathname = parsed.pathname.replace(/\/amp\/?$/i, '') || '/';
  if (parsed.hostname.startsWith('amp.')) parsed.hostname = parsed.hostname.slice(4);
  return normaliseStoryUrl(parsed);
}

/** The page's canonical link when the sharing rules accept it, else the url itself. */
function canonicalFor(url: string, declared: string | undefined, options: SharingRuleOptions): string {
  const checked = declared ? checkShareUrl(declared, options) : undefined;
  return withoutAmp(checked?.ok ? checked.url : url);
}

const hashOf = (url: string) => createHash('sha256').update(url).digest('base64url');

async function readPage(
  url: string,
  options: ShareStoryOptions,
): Promise<{ finalUrl: string; metadata: PageMetadata } | { problem: PageProblem }> {
  const fetchPage = options.fetchPage ?? safeFetch;
  try {
    const page = await fetchPage(url, {
      ...PAGE_FETCH,
      allowPrivateAddresses: options.allowPrivateAddresses,
      // A redirect to a page the rules refuse (a shortener's target on a social network) is not followed.
      refuseRedirect: (target) => {
        const checked = checkShareUrl(target.href, options);
        return checked.ok ? undefined : checked.alert;
      },
    });
    // Loaded on the first share, not at import: the HTML parser and its entity tables are most
    // of this function's cold start, and a refused url or a rate-limited caller never needs them.
    const { readPageMetadata } = await import('./page-metadata');
    return { finalUrl: page.url, metadata: readPageMetadata(page.body, page.url) };
  } catch (error) {
    if (error instanceof RedirectRefused) throw new InvalidShareUrl(error.reason as ShareAlert);
    if (error instanceof SafeFetchError) {
      // The detail (which may say what our resolver answered) is for the log; the story keeps a public reason.
      const problem = pageProblemFor(error);
      logger.info('Shared page could not be read', { url, problem, error: error.name, detail: error.message });
      return { problem };
    }
    throw error;
  }
}

/**
 * Shares `url` (already accepted by the sharing rules) as a story by `sharerId`: the page is
 * fetched and read; a page that cannot be read still makes a story from the url alone. Where
 * redirects led is checked against the rules too. The same canonical url shared within the
 * duplicate window answers the story shared first.
 */
export async function shareStory(db: Db, sharerId: string, url: string, options: ShareStoryOptions): Promise<SharedStory> {
  const now = options.now ?? new Date();
  const page = await readPage(url, options);
  let canonicalUrl = withoutAmp(url);
  if ('finalUrl' in page) {
    const landed = checkShareUrl(page.finalUrl, options);
    if (!landed.ok) throw new InvalidShareUrl(landed.alert);
    canonicalUrl = canonicalFor(landed.url, page.metadata.canonicalUrl, options);
  }
  const metadata = 'metadata' in page ? page.metadata : undefined;
  const createdAt = now.toISOString();
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const urlHash = hashOf(canonicalUrl);

  return retryContendedWrite({ what: 'sharing stories' }, async () => {
    const story: StoryItem = {
      storyId: newStoryId(),
      url,
      canonicalUrl,
      ...definedOnly({
        title: metadata?.title,
        description: metadata?.description,
        imageUrl: metadata?.imageUrl,
        siteName: metadata?.siteName ?? new URL(canonicalUrl).hostname.replace(/^www\./, ''),
        author: metadata?.author,
        publishedAt: metadata?.publishedAt,
        fetchProblem: 'problem' in page ? page.problem : undefined,
      }),
      source: metadata ? 'page' : 'url-only',
      sharerId,
      likeCount: 0,
      createdAt,
      feed: 'all',
    };
    const result = await db.transaction
      .write((entities) => [
        entities.story.create(story).commit(),
        entities.storyUrl
          .put({ urlHash, storyId: story.storyId, createdAt, expiresAt: nowSeconds + DUPLICATE_WINDOW_DAYS * 86_400 })
          .where(({ expiresAt }, { notExists, lte }) => `${notExists(expiresAt)} OR ${lte(expiresAt, nowSeconds)}`)
          .commit(),
        // The site's page and count change with the story, so the count is exact however many share at once.
        ...siteWrites(entities, story),
      ])
      .go();
    const failed = failedConditions(result);
    if (!result.canceled) return { story, duplicate: false };
    if (failed.includes(1)) {
      const existing = await storyClaimedBy(db, urlHash);
      if (existing) return { story: existing, duplicate: true };
      // The claim names a story that is gone: take the url over.
      await db.entities.storyUrl.delete({ urlHash }).go();
    }
    // Otherwise the new id was taken, or the transaction met a concurrent one: try again.
    return lostRace(result);
  });
}

async function storyClaimedBy(db: Db, urlHash: string): Promise<StoryItem | undefined> {
  const { data: claim } = await db.entities.storyUrl.get({ urlHash }).go({ consistent: true });
  if (!claim) return undefined;
  const { data: story } = await db.entities.story.get({ storyId: claim.storyId }).go({ consistent: true });
  return story ?? undefined;
}

function definedOnly<T extends Record<string, string | undefined>>(values: T): Partial<Record<keyof T, string>> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<
    Record<keyof T, string>
  >;
}
