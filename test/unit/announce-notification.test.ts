import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { announceNotification } from '../../functions/lib/announce-notification';
import type { UserItem } from '../../functions/lib/db/entities/user';
import { createDb } from '../../functions/lib/db/service';
import type { NotificationWrites } from '../../functions/lib/notifications';
import { mayBeListening } from '../../functions/lib/realtime';

const dynamo = mockClient(DynamoDBDocumentClient);
// Unit files share their modules (one thread, no isolation): leave the real client behind.
afterAll(() => dynamo.restore());
const db = createDb(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), 'announce-unit');

const NOW = new Date('2026-12-07T12:00:00Z');
const nowSeconds = NOW.getTime() / 1000;

const recipient = (realtimeUntil?: number): UserItem => ({
  userId: 'reader-1',
  username: 'reader',
  name: 'Reader',
  emailVerified: false,
  hasOwnImageUrl: false,
  isSuperUser: false,
  numUnseenNotifications: 1,
  ssoAppNumUnseenNotifications: 0,
  followerCount: 0,
  followingCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  lastLoginAt: '2026-01-01T00:00:00.000Z',
  ...(realtimeUntil === undefined ? {} : { realtimeUntil }),
});

const writesFor = (user: UserItem): NotificationWrites => ({
  startsGroup: true,
  recipient: user,
  unseenIncrement: { numUnseenNotifications: 1 },
  commits: () => [],
});

describe('who a push may reach', () => {
  it('is someone whose last realtime connection has not expired yet', () => {
    // Act / Assess
    expect(mayBeListening(recipient(nowSeconds + 60), NOW)).toBe(true);
    expect(mayBeListening(recipient(nowSeconds), NOW)).toBe(false);
    expect(mayBeListening(recipient(nowSeconds - 3600), NOW)).toBe(false);
    expect(mayBeListening(recipient(), NOW)).toBe(false);
  });
});

describe('announcing a notification', () => {
  afterEach(() => {
    dynamo.reset();
  });

  it('reads no connections of someone who has none open, as most of a fan-out page', async () => {
    // Prepare: no email either, so nothing is to be mailed
    const event = {
      kind: 'publication-rose',
      actorId: 'platform',
      object: { type: 'publication', id: 'ux-collective' },
    } as const;

    // Act
    await announceNotification(db, writesFor(recipient(Math.floor(Date.now() / 1000) - 60)), event);
    await announceNotification(db, writesFor(recipient()), event);

    // Assess
    expect(dynamo.calls()).toHaveLength(0);
    expect(dynamo.commandCalls(QueryCommand)).toHaveLength(0);
  });
});
