import * as z from 'zod';
import { currentUserSchema } from './account';

/** An absolute http(s) URL of a sibling app: where single sign-on returns to. */
export const ssoStartQuerySchema = z
  .object({
    returnUrl: z.url({ protocol: /^https?$/, message: 'Must be an absolute http(s) URL' }).max(2048),
  })
  .strict();

/** A sign-on code: 256 bits in base64url (43 characters). */
const ssoCodeSchema = z.string().min(20, 'This sign-on code is incomplete').max(200, 'This sign-on code is not valid');

export const ssoExchangeBodySchema = z
  .object({
    code: ssoCodeSchema,
    /** The origin the sibling app received the code at, e.g. https://app.example.com. */
    origin: z.string().min(1).max(300),
  })
  .strict();

export const ssoExchangeResponseSchema = z.object({
  /** The sibling app's own new session: send it in the ssoat header. */
  sessionToken: z.string(),
  user: currentUserSchema,
});

export const ssoAuthedCheckResponseSchema = z.object({
  isAuthed: z.boolean(),
  user: currentUserSchema.nullable(),
});

export const ssoLogoutResponseSchema = z.object({
  loggedOut: z.literal(true),
  /** How many sessions of the user were ended (0 when nobody was signed in). */
  sessionsEnded: z.number(),
});

/**
 * The realtime client's request: the channel it wants, which may only be the caller's own
 * (`user-{userId}`, the default).
 */
export const realtimeClientQuerySchema = z
  .object({
    channel: z.string().min(1).max(100).optional(),
  })
  .strict();

export const realtimeClientResponseSchema = z.object({
  /**
   * The WebSocket URL to open, with the ticket as its `ticket` query parameter: wss://… in AWS, a
   * path on the same host locally (resolved against the page, as ws: or wss:).
   */
  endpoint: z.string(),
  channel: z.string(),
  /** Single-use, bound to the caller and the channel, and valid for a minute. */
  ticket: z.string(),
  expiresAt: z.string(),
});
export type RealtimeClientResponse = z.infer<typeof realtimeClientResponseSchema>;

export const sendVerificationEmailBodySchema = z.object({}).strict().optional();

export const sendVerificationEmailResponseSchema = z.object({ sent: z.literal(true) });

export const actionParamsSchema = z
  .object({
    authToken: z.string().min(20, 'This link is incomplete').max(200, 'This link is not valid'),
    type: z.string().min(1).max(50),
  })
  .strict();

export const actionResponseSchema = z.object({ type: z.string(), done: z.literal(true) });
