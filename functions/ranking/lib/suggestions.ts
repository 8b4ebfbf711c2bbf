import { createHash } from 'node:crypto';
import type { ImportResult, SuggestedPublication, Suggestion } from '../../../shared/schemas/suggestions';
import type { PublicationSourceItem } from '../../lib/db/entities/publication-source';
import type { PublicationSuggestionItem } from '../../lib/db/entities/publication-suggestion';
import { isConditionalCheckFailed } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';
import { BadRequest, Conflict, HttpError, NotFound, ServiceUnavailable, Unprocessable } from '../../lib/errors';
import { type AddedSource, addSource, previewSource, type SourcePreview, UnrecognisedAddress } from './sources/add-source';
import { DisallowedByRobots, HostBudgetSpent, RobotsUnreachable } from './sources/polite-fetch';
import { storedJson } from './sources/collect-source';
import {
  type SourceFetch,
  SourceError,
  SourceGone,
  SourceRateLimited,
  type SourceSnapshot,
  type Validators,
} from './sources/source-adapter';

/** Previews one person may ask for in an hour: plenty to find the right address, too few to crawl with. */
export const PREVIEWS_PER_HOUR = 30;
/** Suggestions one person may make in a day. */
export const SUGGESTIONS_PER_DAY = 10;
export const SUGGESTION_PAGE_SIZE = 20;

/**
 * A preview is one person's single read of one publication, not a crawl: a short turn between
 * a host's robots.txt and the page, one retry, and no long waits (the person is waiting).
 */
export const PREVIEW_FETCH_OPTIONS = { minIntervalMs: 250, maxRetries: 1, maxWaitMs: 5_000 };

/** An import reads a handful of addresses a call, several perhaps on one host: spaced a little more. */
export const IMPORT_FETCH_OPTIONS = { minIntervalMs: 500, maxRetries: 1, maxWaitMs: 5_000 };

/** One id per publication, whatever address it was suggested under: its platform's canonical id, hashed. */
export const suggestionIdOf = (canonicalId: string) => createHash('sha256').update(canonicalId).digest('base64url').slice(0, 22);

export function suggestedPublication(sourceUrl: string, snapshot: SourceSnapshot): SuggestedPublication {
  return {
    platform: snapshot.platform,
    sourceUrl,
    name: snapshot.name,
    url: snapshot.url,
    description: snapshot.description ?? '',
    imageUrl: snapshot.imageUrl,
    topics: snapshot.topics,
    followers: snapshot.followers,
    latestPostAt: snapshot.latestPostAt,
  };
}

export function suggestionView(item: PublicationSuggestionItem): Suggestion {
  return {
    id: item.suggestionId,
    publication: suggestedPublication(item.sourceUrl, JSON.parse(item.snapshot) as SourceSnapshot),
    status: item.status,
    slug: item.slug ?? null,
    suggestedAt: item.createdAt,
    decidedAt: item.decidedAt ?? null,
    decidedBy: item.decidedBy ?? null,
  };
}

/** A publication the collector already reads, shown as the accepted suggestion it amounts to. */
function knownView(preview: SourcePreview, source: PublicationSourceItem): Suggestion {
  return {
    id: suggestionIdOf(source.canonicalId),
    publication: suggestedPublication(source.sourceUrl, preview.snapshot),
    status: 'accepted',
    slug: source.slug,
    suggestedAt: source.createdAt,
    decidedAt: source.createdAt,
    decidedBy: null,
  };
}

/**
 * Reads a pasted address once, through the adapter that recognises it. What can go wrong on the
 * other side becomes an answer a person can act on; nothing is stored. A source that counts no
 * followers (a plain feed) is read like any other: it goes to the activity boards only.
 */
export async function readSuggestedAddress(url: string, fetch: SourceFetch, now: Date): Promise<SourcePreview> {
  let preview: SourcePreview;
  try {
    preview = await previewSource(url, fetch, now);
  } catch (error) {
    if (error instanceof UnrecognisedAddress) {
      throw new BadRequest(
        'That is not an address we can read: paste a Medium publication, a WordPress.com blog or a site’s RSS or Atom feed.',
      );
    }
    if (error instanceof SourceGone) {
      throw new Unprocessable('No publication was found at that address. Check it and try again.', {
        cause: error,
      });
    }
    if (error instanceof DisallowedByRobots) {
      throw new Unprocessable('That site asks robots like ours not to read it, so we cannot rank it.', { cause: error });
    }
    if (error instanceof RobotsUnreachable) {
      throw new Unprocessable('We could not reach that site. Check the address, or try again later.', { cause: error });
    }
    if (error instanceof SourceRateLimited || error instanceof HostBudgetSpent) {
      throw new ServiceUnavailable('That platform asks us to slow down. Try again in a few minutes.', { cause: error });
    }
    if (error instanceof SourceError) {
      throw new Unprocessable(
        'We could not read a publication at that address: paste the address of a Medium publication, a WordPress.com blog or a site’s RSS or Atom feed.',
        { cause: error },
      );
    }
    throw error;
  }
  return preview;
}

/** The source the collector already reads under this canonical id, if any. */
export async function knownSourceOf(db: Db, canonicalId: string): Promise<PublicationSourceItem | null> {
  const { data } = await db.entities.publicationSource.get({ canonicalId }).go();
  return data;
}

export const acceptedAtOnce = (followers: number | null, floor: number) => followers !== null && followers >= floor;

/**
 * Records a suggestion of a previewed publication. One known before (suggested by anyone, or
 * already collected) is answered as it stands. A new one is accepted at once when its followers
 * reach the floor (collected from now on, on the boards at the next ranking run), and otherwise
 * waits for a superuser.
 */
export async function suggestPublication(
  db: Db,
  input: { preview: SourcePreview; userId: string; autoAcceptFollowers: number; now: Date },
): Promise<{ suggestion: Suggestion; created: boolean }> {
  const { preview, userId, autoAcceptFollowers, now } = input;
  const suggestionId = suggestionIdOf(preview.snapshot.canonicalId);
  const [earlier, known] = await Promise.all([
    db.entities.publicationSuggestion.get({ suggestionId }).go(),
    knownSourceOf(db, preview.snapshot.canonicalId),
  ]);
  if (earlier.data) return { suggestion: suggestionView(earlier.data), created: false };
  if (known) return { suggestion: knownView(preview, known), created: false };

  const at = now.toISOString();
  const accepted = acceptedAtOnce(preview.snapshot.followers, autoAcceptFollowers)
    ? await addSource(db, preview, userId, now)
    : null;
  const item: PublicationSuggestionItem = {
    suggestionId,
    canonicalId: preview.snapshot.canonicalId,
    platform: preview.snapshot.platform,
    sourceUrl: preview.ref.url,
    snapshot: JSON.stringify(preview.snapshot),
    ...(preview.validators ? { validators: JSON.stringify(preview.validators) } : {}),
    status: accepted ? 'accepted' : 'pending',
    suggestedBy: userId,
    ...(accepted ? { slug: accepted.source.slug, decidedBy: 'auto', decidedAt: at } : {}),
    createdAt: at,
    updatedAt: at,
  };
  try {
    await db.entities.publicationSuggestion.create(item).go();
  } catch (error) {
    // Suggested meanwhile by someone else (or a double click): theirs stands.
    if (!isConditionalCheckFailed(error)) throw error;
    const raced = await db.entities.publicationSuggestion.get({ suggestionId }).go();
    if (raced.data) return { suggestion: suggestionView(raced.data), created: false };
    throw error;
  }
  return { suggestion: suggestionView(item), created: true };
}

const ALREADY_DECIDED = 'This suggestion has already been decided.';

/**
 * A superuser accepts a waiting suggestion (its publication is stored with the snapshot read
 * when it was suggested, and collected from then on) or rejects it. Only a pending one can be
 * decided, once: two superusers deciding at the same moment get one decision and one 409.
 */
export async function decideSuggestion(
  db: Db,
  input: { suggestionId: string; decision: 'accept' | 'reject'; superuserId: string; now: Date },
): Promise<Suggestion> {
  const { suggestionId, decision, superuserId, now } = input;
  const { data: item } = await db.entities.publicationSuggestion.get({ suggestionId }).go();
  if (!item) throw new NotFound('There is no such suggestion.');
  if (item.status !== 'pending') throw new Conflict(ALREADY_DECIDED);
  const added =
    decision === 'accept'
      ? await addSource(
          db,
          {
            ref: { platform: item.platform, url: item.sourceUrl },
            snapshot: JSON.parse(item.snapshot) as SourceSnapshot,
            validators: storedJson<Record<string, Validators>>(item.validators),
          },
          item.suggestedBy,
          now,
        )
      : null;
  const at = now.toISOString();
  const decided: PublicationSuggestionItem = {
    ...item,
    status: added ? 'accepted' : 'rejected',
    ...(added ? { slug: added.source.slug } : {}),
    decidedBy: superuserId,
    decidedAt: at,
    updatedAt: at,
  };
  try {
    await db.entities.publicationSuggestion
      .patch({ suggestionId })
      .set({
        status: decided.status,
        decidedBy: superuserId,
        decidedAt: at,
        updatedAt: at,
        // The status is in the queue index's key: its other parts come along to rebuild it.
        createdAt: item.createdAt,
        suggestedBy: item.suggestedBy,
        ...(added ? { slug: added.source.slug } : {}),
      })
      .where((attributes, { eq }) => eq(attributes.status, 'pending'))
      .go();
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw new Conflict(ALREADY_DECIDED);
    throw error;
  }
  return suggestionView(decided);
}

/**
 * The longest one address can take to read: its robots.txt, its page and its feed, each up to
 * the fetch's 5 s, and a retry's wait. An import starts an address only with this much time left.
 */
export const WORST_ADDRESS_MS = 16_000;
export const OUT_OF_TIME = 'Not read: this call ran out of time. Import it again.';

/**
 * Adds each address in turn, as a superuser's import does: one failing is its own line of the
 * report (the reason a person reads), never the whole call's, and an address is only started
 * while the function has time to finish it, so the call answers instead of being stopped.
 */
export async function importAddresses(
  urls: readonly string[],
  steps: {
    read: (url: string) => Promise<SourcePreview>;
    add: (preview: SourcePreview) => Promise<AddedSource>;
    remainingTimeMs: () => number;
  },
): Promise<ImportResult[]> {
  const results: ImportResult[] = [];
  for (const url of urls) {
    if (steps.remainingTimeMs() < WORST_ADDRESS_MS) {
      results.push({ url, outcome: 'failed', slug: null, name: null, reason: OUT_OF_TIME });
      continue;
    }
    try {
      const preview = await steps.read(url);
      const { kind, source } = await steps.add(preview);
      results.push({ url, outcome: kind, slug: source.slug, name: preview.snapshot.name, reason: null });
    } catch (error) {
      // What reading answers (the platform asking us to slow down included) is this address's
      // failure; anything else (the table out of reach) is the call's.
      if (!(error instanceof HttpError) || (error.statusCode >= 500 && error.statusCode !== 503)) throw error;
      results.push({ url, outcome: 'failed', slug: null, name: null, reason: error.message });
    }
  }
  return results;
}
