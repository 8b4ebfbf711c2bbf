import * as z from '../zod';
import { currentUserSchema } from './account';

/** An absolute http(s) URL of a sibling app: where single sign-on returns to. */
export const ssoStartQuerySchema = z.strictObject({
  returnUrl: z.url({ protocol: /^https?$/, message: 'Must be an absolute http(s) URL' }).check(z.maxLength(2048)),
});

/** A sign-on code: 256 bits in base64url (43 characters). */
const ssoCodeSchema = z
  .string()
  .check(z.minLength(20, 'This sign-on code is incomplete'), z.maxLength(200, 'This sign-on code is not valid'));

export const ssoExchangeBodySchema = z.strictObject({
  code: ssoCodeSchema,
  /** The origin the sibling app received the code at, e.g. https://app.example.com. */
  origin: z.string().check(z.minLength(1), z.maxLength(300)),
});

export const ssoExchangeResponseSchema = z.strictObject({
  /** The sibling app's own new session: send it in the ssoat header. */
  sessionToken: z.string(),
  user: currentUserSchema,
});

export const ssoAuthedCheckResponseSchema = z.strictObject({
  isAuthed: z.boolean(),
  user: z.nullable(currentUserSchema),
});

export const ssoLogoutResponseSchema = z.strictObject({
  loggedOut: z.literal(true),
  /** How many sessions of the user were ended (0 when nobody was signed in). */
  sessionsEnded: z.number(),
});

/**
 * The realtime client's request: the channel it wants, which may only be the caller's own
 * (`user-{userId}`, the default).
 */
export const realtimeClientQuerySchema = z.strictObject({
  channel: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
});

export const realtimeClientResponseSchema = z.strictObject({
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

export const sendVerificationEmailBodySchema = z.optional(z.strictObject({}));

export const sendVerificationEmailResponseSchema = z.strictObject({ sent: z.literal(true) });

export const actionParamsSchema = z.strictObject({
  authToken: z.string().check(z.minLength(20, 'This link is incomplete'), z.maxLength(200, 'This link is not valid')),
  type: z.string().check(z.minLength(1), z.maxLength(50)),
});

export const actionResponseSchema = z.strictObject({ type: z.string(), done: z.literal(true) });
