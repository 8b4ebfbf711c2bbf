import type { ApiGatewayManagementApiClient } from '@aws-sdk/client-apigatewaymanagementapi';
import { MAX_CONNECTIONS_PER_USER, REALTIME_LIMITS, REALTIME_TICKET_SECONDS, userChannel } from '../../shared/realtime';
import type { RealtimeServerMessage } from '../../shared/schemas/realtime';
import type { RealtimeClientResponse } from '../../shared/schemas/sso';
import { getConfig } from './config';
import type { UserItem } from './db/entities/user';
import type { Db } from './db/service';
import { RateLimited } from './errors';
import { logger } from './logger';
import { readUnseenCounts } from './notifications';
import { defineTokenPurpose, issueToken, spendToken } from './one-time-tokens';

/** The ticket a browser connects with: single use, a minute, bound to one person's channel. */
export const REALTIME_TICKET = defineTokenPurpose<{ userId: string; channel: string }>('realtime-ticket', {
  lifetimeSeconds: REALTIME_TICKET_SECONDS,
});

const toSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

export async function issueRealtimeTicket(db: Db, options: { userId: string; now?: Date }): Promise<RealtimeClientResponse> {
  const channel = userChannel(options.userId);
  const { token, expiresAt } = await issueToken(db, REALTIME_TICKET, {
    payload: { userId: options.userId, channel },
    ...(options.now ? { now: options.now } : {}),
  });
  return { endpoint: getConfig().realtimeUrl, channel, ticket: token, expiresAt: new Date(expiresAt * 1000).toISOString() };
}

export type ConnectOutcome = { opened: true; userId: string } | { opened: false; status: 401 | 429; message: string };

class TooManyConnections extends RateLimited {
  constructor() {
    super(`You have ${MAX_CONNECTIONS_PER_USER} live connections open already: close a tab and try again.`, 60);
  }
}

/**
 * `$connect`: spends the ticket and records the connection in one transaction, so a ticket
 * opens exactly one connection. A ticket that is unknown, spent or expired is refused, as is a
 * person with too many connections already (the ticket then stays unspent).
 */
export async function openConnection(
  db: Db,
  options: { connectionId: string; ticket: string; now?: Date },
): Promise<ConnectOutcome> {
  const now = options.now ?? new Date();
  try {
    const outcome = await spendToken(db, REALTIME_TICKET, options.ticket, {
      now,
      check: async ({ userId }) => {
        const { data } = await db.entities.realtimeConnection.query.byUser({ userId }).go({ consistent: true, pages: 'all' });
        const open = data.filter((connection) => connection.expiresAt > toSeconds(now));
        if (open.length >= MAX_CONNECTIONS_PER_USER) throw new TooManyConnections();
      },
      together: ({ realtimeConnection, user }, { userId, channel }) => {
        // API Gateway closes every connection after two hours; a lost $disconnect leaves nothing longer.
        const expiresAt = toSeconds(now) + REALTIME_LIMITS.maxConnectionSeconds;
        return [
          realtimeConnection
            .create({ userId, connectionId: options.connectionId, channel, connectedAt: now.toISOString(), expiresAt })
            .commit(),
          // The latest connection outlives the earlier ones, so its expiry is the user's.
          user.patch({ userId }).set({ realtimeUntil: expiresAt }).commit(),
        ];
      },
    });
    if (!outcome.spent) return { opened: false, status: 401, message: 'This realtime ticket is not valid: ask for a new one.' };
    return { opened: true, userId: outcome.payload.userId };
  } catch (error) {
    if (error instanceof TooManyConnections) return { opened: false, status: 429, message: error.message };
    throw error;
  }
}

/** `$disconnect` (or a connection found gone): forgets it. Unknown ids are no error. */
export async function closeConnection(db: Db, connectionId: string): Promise<void> {
  const { data } = await db.entities.realtimeConnection.query.byConnection({ connectionId }).go();
  await Promise.all(
    data.map((connection) =>
      db.entities.realtimeConnection.delete({ userId: connection.userId, connectionId: connection.connectionId }).go(),
    ),
  );
}

const managementClients = new Map<string, ApiGatewayManagementApiClient>();

/**
 * One client per Lambda instance (per endpoint, as the local runtime hosts every function in one
 * process), with the SDK loaded by the first push (realtime-sdk.ts), not at import.
 */
async function managementClient() {
  const endpoint = getConfig().realtimeManagementEndpoint;
  const sdk = await import('./realtime-sdk');
  let client = managementClients.get(endpoint);
  if (!client) {
    // A push is a courtesy to an open tab: never hold a request up for long on it.
    client = new sdk.ApiGatewayManagementApiClient({ endpoint, maxAttempts: 2 });
    managementClients.set(endpoint, client);
  }
  return { client, ...sdk };
}

/**
 * A connection is posted to while its `$connect` still runs (the item is written first), and
 * API Gateway answers Gone until the handshake completes: such a young one is not forgotten.
 */
const CONNECT_GRACE_SECONDS = 10;

/**
 * Sends `message` to every open connection of a person, and forgets connections API Gateway
 * says are gone. Answers how many received it. A message given as a function is made only when
 * the person has an open connection (most have none: a fan-out to thousands reads no more). A failed push never fails the caller: the
 * event that caused it has happened either way, and the client catches up when it next reads.
 * A function without the realtime capability throws here, as it has no endpoint to post to.
 */
export async function pushToUser(
  db: Db,
  userId: string,
  message: RealtimeServerMessage | (() => Promise<RealtimeServerMessage | undefined>),
): Promise<number> {
  const { client, GoneException, PostToConnectionCommand } = await managementClient();
  try {
    const nowSeconds = toSeconds(new Date());
    const { data } = await db.entities.realtimeConnection.query.byUser({ userId }).go({ consistent: true, pages: 'all' });
    const open = data.filter((connection) => connection.expiresAt > nowSeconds);
    if (open.length === 0) return 0;
    const made = typeof message === 'function' ? await message() : message;
    if (!made) return 0;
    const payload = new TextEncoder().encode(JSON.stringify(made));
    const delivered = await Promise.all(
      open.map(async ({ connectionId, connectedAt }) => {
        try {
          await client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: payload }));
          return true;
        } catch (error) {
          const settled = toSeconds(new Date(connectedAt)) < nowSeconds - CONNECT_GRACE_SECONDS;
          if (error instanceof GoneException && settled) {
            await db.entities.realtimeConnection.delete({ userId, connectionId }).go();
          } else if (!(error instanceof GoneException)) {
            logger.warn('Could not push to a realtime connection', { errorName: (error as Error).name });
          }
          return false;
        }
      }),
    );
    return delivered.filter(Boolean).length;
  } catch (error) {
    logger.warn('Could not push to a person', { errorName: (error as Error).name });
    return 0;
  }
}

/** Tells a person's open tabs their unseen counts as they are now (read only when they have one open). */
/**
 * Whether a push to this user could reach anyone: false when no connection of theirs can still be
 * open (see the user's realtimeUntil), and the push need not read their connections.
 */
export function mayBeListening(user: Pick<UserItem, 'realtimeUntil'>, now = new Date()): boolean {
  return user.realtimeUntil !== undefined && user.realtimeUntil > toSeconds(now);
}

export async function pushUnseenCounts(db: Db, userId: string): Promise<number> {
  return pushToUser(db, userId, async () => {
    const counts = await readUnseenCounts(db, userId).catch(() => undefined);
    return counts ? { type: 'unseen-counts', counts } : undefined;
  });
}
