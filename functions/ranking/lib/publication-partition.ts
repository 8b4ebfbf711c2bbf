import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { FollowerHistoryItem } from '../../lib/db/entities/follower-history';
import type { PublicationItem } from '../../lib/db/entities/publication';
import type { PublicationArchiveMonthItem } from '../../lib/db/entities/publication-archive-month';
import type { Db } from '../../lib/db/service';

export interface PublicationPartition {
  publication: PublicationItem | null;
  /** Oldest year first. */
  followerYears: FollowerHistoryItem[];
  /** The archived months it made a board in, oldest first. */
  archiveMonths: PublicationArchiveMonthItem[];
}

/** ElectroDB's marker of which entity an item belongs to. */
const ENTITY_ATTRIBUTE = '__edb_e__';

/**
 * A publication, its follower history and its archived months in one Query: they share one partition (the
 * publication's pk). ElectroDB queries one entity at a time, so the Query is sent as is and
 * each item is handed to its entity to parse.
 */
export async function readPublicationPartition(db: Db, slug: string): Promise<PublicationPartition> {
  const { Key } = db.entities.publication.get({ slug }).params<{ Key: { pk: string } }>();
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(
      new QueryCommand({
        TableName: db.table,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': 'pk' },
        ExpressionAttributeValues: { ':pk': Key.pk },
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);

  const of = (entity: string) => items.filter((item) => item[ENTITY_ATTRIBUTE] === entity);
  const publication = db.entities.publication.parse({ Items: of('publication') }).data[0] ?? null;
  const followerYears = db.entities.followerHistory.parse({ Items: of('followerHistory') }).data;
  const archiveMonths = db.entities.publicationArchiveMonth.parse({ Items: of('publicationArchiveMonth') }).data;
  return { publication, followerYears, archiveMonths };
}
