import type { PublicationSourceItem } from '../../../lib/db/entities/publication-source';
import { isConditionalCheckFailed } from '../../../lib/db/errors';
import type { Db } from '../../../lib/db/service';
import { recogniseSource } from './adapters';
import { collectShardOf, conditionalFetch, slugFrom, toIngestionRow } from './collect-source';
import { type SourceFetch, SourceError, type SourceRef, type SourceSnapshot, type Validators } from './source-adapter';
import { ingestSnapshots } from '../ingest';

/** No adapter reads this address (not a URL, not http(s), or nothing we know how to read). */
export class UnrecognisedAddress extends SourceError {
  override readonly name = 'UnrecognisedAddress';
}

/** A publication as read once from a pasted address, before anything is stored. */
export interface SourcePreview {
  ref: SourceRef;
  snapshot: SourceSnapshot;
  /**
   * The ETag and Last-Modified of each document the snapshot was read from, by address: stored
   * with the source, so its first daily collection is already conditional (an unchanged
   * publication then costs its host a 304, not a full read).
   */
  validators?: Readonly<Record<string, Validators>>;
}

/** Reads a pasted address once through the adapter that recognises it; throws a SourceError saying why not. */
export async function previewSource(url: string, fetch: SourceFetch, now: Date = new Date()): Promise<SourcePreview> {
  const recognised = recogniseSource(url);
  if (!recognised) throw new UnrecognisedAddress(`${url.slice(0, 200)} is not an address we can read`);
  const learning = conditionalFetch(fetch, {});
  const snapshot = await recognised.adapter.collect(recognised.ref, learning.fetch, now);
  return { ref: recognised.ref, snapshot, ...(Object.keys(learning.learnt).length > 0 ? { validators: learning.learnt } : {}) };
}

export type AddedSource = { kind: 'added' | 'known'; source: PublicationSourceItem };

const SLUG_ATTEMPTS = 20;

/** The base slug, or base-2, base-3…: the first no publication and no other source holds. */
async function freeSlug(db: Db, base: string): Promise<string> {
  for (let attempt = 1; attempt <= SLUG_ATTEMPTS; attempt += 1) {
    const slug = attempt === 1 ? base : `${base.slice(0, 76)}-${attempt}`;
    const [publication, sources] = await Promise.all([
      db.entities.publication.get({ slug }).go(),
      db.entities.publicationSource.query.bySlug({ slug }).go({ limit: 1 }),
    ]);
    if (!publication.data && sources.data.length === 0) return slug;
  }
  throw new SourceError(`No free address on our side for ${base}`);
}

/**
 * Adds a previewed publication to those collected: known by its canonical id (a renamed or
 * moved publication is the same one), otherwise given a slug of its own and stored with its
 * first snapshot, so it reaches the boards at the next ranking run.
 */
export async function addSource(db: Db, preview: SourcePreview, addedBy: string, now: Date = new Date()): Promise<AddedSource> {
  const { snapshot, ref } = preview;
  const existing = await db.entities.publicationSource.get({ canonicalId: snapshot.canonicalId }).go();
  if (existing.data) return { kind: 'known', source: existing.data };

  const slug = await freeSlug(db, slugFrom(snapshot.name, snapshot.url));
  const at = now.toISOString();
  const source: PublicationSourceItem = {
    canonicalId: snapshot.canonicalId,
    platform: snapshot.platform,
    sourceUrl: ref.url,
    slug,
    collectShard: collectShardOf(snapshot.canonicalId),
    status: 'active',
    ...(snapshot.followers === null ? {} : { followers: snapshot.followers }),
    lastSnapshot: JSON.stringify(snapshot),
    ...(preview.validators && Object.keys(preview.validators).length > 0 ? { validators: JSON.stringify(preview.validators) } : {}),
    lastCollectedAt: at,
    lastAttemptAt: at,
    addedBy,
    createdAt: at,
    updatedAt: at,
  };
  try {
    await db.entities.publicationSource.create(source).go();
  } catch (error) {
    // Added meanwhile by someone else (a double click, two suggestions of one publication).
    if (!isConditionalCheckFailed(error)) throw error;
    const raced = await db.entities.publicationSource.get({ canonicalId: snapshot.canonicalId }).go();
    if (raced.data) return { kind: 'known', source: raced.data };
    throw error;
  }
  await ingestSnapshots(db, [toIngestionRow(snapshot, slug, now)], now);
  return { kind: 'added', source };
}
