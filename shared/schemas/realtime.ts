import * as z from '../zod';
import { unseenCountsSchema } from './notifications';

/** What a client may send (the WebSocket API selects routes on `$request.body.action`). */
export const realtimeClientMessageSchema = z.object({ action: z.literal('ping') });
export type RealtimeClientMessage = z.infer<typeof realtimeClientMessageSchema>;

/** What the server sends down a connection. */
export const realtimeServerMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('unseen-counts'), counts: unseenCountsSchema }),
  z.strictObject({ type: z.literal('pong') }),
  z.strictObject({ type: z.literal('error'), message: z.string() }),
]);
export type RealtimeServerMessage = z.infer<typeof realtimeServerMessageSchema>;
