import { createHmac } from 'node:crypto';

/** The one private realtime channel a user may subscribe to: their own. */
export const pusherChannelFor = (userId: string) => `private-user-${userId}`;

/**
 * Pusher's private-channel auth: `<key>:<hex HMAC-SHA256 of '<socket_id>:<channel_name>'>`,
 * keyed with the app secret. Pusher recomputes it to accept the subscription.
 */
export function signPusherAuth(credentials: { key: string; secret: string }, socketId: string, channelName: string): string {
  const signature = createHmac('sha256', credentials.secret).update(`${socketId}:${channelName}`).digest('hex');
  return `${credentials.key}:${signature}`;
}
