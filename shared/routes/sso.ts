import * as z from 'zod';
import {
  actionParamsSchema,
  actionResponseSchema,
  pusherAuthQuerySchema,
  pusherAuthResponseSchema,
  sendVerificationEmailBodySchema,
  sendVerificationEmailResponseSchema,
  ssoAuthedCheckResponseSchema,
  ssoExchangeBodySchema,
  ssoExchangeResponseSchema,
  ssoLogoutResponseSchema,
  ssoStartQuerySchema,
} from '../schemas/sso';
import { defineRoute, type RouteDefinition } from './define-route';

const PREFIX = '/api/i/user';

/** Single sign-on across the sibling apps, realtime-channel auth, email verification and emailed actions. */
export const ssoRoutes = {
  ssoStart: defineRoute({
    method: 'GET',
    path: `${PREFIX}/auth/login/sso/start`,
    access: 'public',
    handler: 'account/sso-start',
    summary:
      'Redirects (302) back to an allow-listed sibling app with a one-time ?ssoCode= (signed in) or ?ssoError=login_required.',
    query: ssoStartQuerySchema,
    /** A 302 with a Location header and no body. */
    response: z.undefined(),
    writes: true,
  }),
  ssoExchange: defineRoute({
    method: 'POST',
    path: `${PREFIX}/auth/login/sso/exchange`,
    access: 'app',
    handler: 'account/sso-exchange',
    summary: "A sibling app's server spends a sign-on code (once, for its own origin) for a session of that user.",
    body: ssoExchangeBodySchema,
    response: ssoExchangeResponseSchema,
  }),
  ssoAuthedCheck: defineRoute({
    method: 'GET',
    path: `${PREFIX}/auth/login/sso/authed/check`,
    access: 'public',
    handler: 'account/sso-authed-check',
    summary: 'Whether the caller is signed in, and as whom.',
    response: ssoAuthedCheckResponseSchema,
  }),
  ssoLogout: defineRoute({
    method: 'GET',
    path: `${PREFIX}/auth/logout/sso`,
    access: 'public',
    handler: 'account/sso-logout',
    summary: 'Ends every session of the signed-in user (so every sibling app is logged out) and clears the cookie.',
    response: ssoLogoutResponseSchema,
    writes: true,
  }),
  pusherAuth: defineRoute({
    method: 'GET',
    path: `${PREFIX}/auth/login/pusher/client`,
    access: 'user',
    handler: 'account/pusher-auth',
    summary: "Signs a realtime (Pusher) subscription to the caller's own private channel, private-user-{userId}.",
    query: pusherAuthQuerySchema,
    response: pusherAuthResponseSchema,
  }),
  sendVerificationEmail: defineRoute({
    method: 'PUT',
    path: `${PREFIX}/auth/verify/email`,
    access: 'user',
    handler: 'account/send-verification-email',
    summary: "Emails a new verification link to the caller's address (one per address per minute; 409 when verified).",
    body: sendVerificationEmailBodySchema,
    response: sendVerificationEmailResponseSchema,
    sendsEmail: true,
  }),
  completeAction: defineRoute({
    method: 'GET',
    path: `${PREFIX}/authed/{authToken}/action/{type}`,
    access: 'public',
    handler: 'account/complete-action',
    summary: 'Spends an emailed action token of that type once and performs the action (verify-email).',
    params: actionParamsSchema,
    response: actionResponseSchema,
    writes: true,
  }),
} satisfies Record<string, RouteDefinition>;
