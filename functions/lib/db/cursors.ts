import { BadRequest } from '../errors';

/** The key attributes a page can end on: the table's and its indexes'. */
const KEY_FIELDS = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk']);

export class InvalidCursor extends BadRequest {
  constructor() {
    super('That page link is not valid. Start again from the first page.');
  }
}

interface KeyedQuery {
  params(): { ExpressionAttributeValues?: Record<string, unknown> };
}

/**
 * A cursor from a client, checked before it reaches the table. ElectroDB's cursors are the
 * DynamoDB key a page ended on, encoded; a client can send any text, and a forged key could
 * name another partition (another user's list). So the cursor must decode to key attributes
 * only, and its partition must be the one `query` reads. Answers the cursor to pass on.
 */
export function checkedCursor(cursor: string | undefined, query: KeyedQuery, partitionField: string): string | undefined {
  if (cursor === undefined) return undefined;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursor();
  }
  if (!key || typeof key !== 'object' || Array.isArray(key)) throw new InvalidCursor();
  const entries = Object.entries(key);
  if (!entries.every(([field, value]) => KEY_FIELDS.has(field) && typeof value === 'string')) throw new InvalidCursor();
  const partition = query.params().ExpressionAttributeValues?.[':pk'];
  if ((key as Record<string, unknown>)[partitionField] !== partition) throw new InvalidCursor();
  return cursor;
}
