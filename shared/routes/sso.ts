import {
  actionParamsSchema,
  actionResponseSchema,
  realtimeClientQuerySchema,
  realtimeClientResponseSchema,
  sendVerificationEmailBodySchema,
  sendVerificationEmailResponseSchema,
  ssoAuthedCheckResponseSchema,
  ssoExchangeBodySchema,
  ssoExchangeResponseSchema,
  ssoLogoutResponseSchema,
  ssoStartQuerySchema,
} from '../schemas/sso';
import { defineRoute, redirectResponse } from './define-route';

// Single sign-on across the sibling apps, realtime-channel auth, email verification and emailed actions.

export const ssoStart = defineRoute({
  method: 'GET',
  path: '/api/i/user/auth/login/sso/start',
  access: 'public',
  handler: 'account/sso-start',
  summary:
    'Redirects (302) back to an allow-listed sibling app with a one-time ?ssoCode= (signed in) or ?ssoError=login_required.',
  query: ssoStartQuerySchema,
  response: redirectResponse,
  // A sibling app sends the browser here with a plain navigation (no custom header possible);
  // the code goes only to an allow-listed origin, where only that app's server can spend it.
  capabilities: { table: 'read-write' },
});

export const ssoExchange = defineRoute({
  method: 'POST',
  path: '/api/i/user/auth/login/sso/exchange',
  access: 'app',
  handler: 'account/sso-exchange',
  summary: "A sibling app's server spends a sign-on code (once, for its own origin) for a session of that user.",
  body: ssoExchangeBodySchema,
  response: ssoExchangeResponseSchema,
});

export const ssoAuthedCheck = defineRoute({
  method: 'GET',
  path: '/api/i/user/auth/login/sso/authed/check',
  access: 'public',
  handler: 'account/sso-authed-check',
  summary: 'Whether the caller is signed in, and as whom.',
  response: ssoAuthedCheckResponseSchema,
});

export const ssoLogout = defineRoute({
  method: 'GET',
  path: '/api/i/user/auth/logout/sso',
  access: 'public',
  handler: 'account/sso-logout',
  summary: 'Ends every session of the signed-in user (so every sibling app is logged out) and clears the cookie.',
  response: ssoLogoutResponseSchema,
  capabilities: { table: 'read-write' },
  stateChanging: true,
});

export const realtimeClient = defineRoute({
  method: 'GET',
  path: '/api/i/user/auth/login/pusher/client',
  access: 'user',
  handler: 'account/realtime-client',
  summary:
    "What the realtime client needs to connect: the WebSocket endpoint and a single-use ticket (one minute) for the caller's own channel, user-{userId}; another channel is refused (403).",
  query: realtimeClientQuerySchema,
  response: realtimeClientResponseSchema,
  // The ticket is stored (hashed) so that $connect can spend it once.
  capabilities: { table: 'read-write' },
});

export const sendVerificationEmail = defineRoute({
  method: 'PUT',
  path: '/api/i/user/auth/verify/email',
  access: 'user',
  handler: 'account/send-verification-email',
  summary: "Emails a new verification link to the caller's address (one per address per minute; 409 when verified).",
  body: sendVerificationEmailBodySchema,
  response: sendVerificationEmailResponseSchema,
  capabilities: { email: true },
});

export const completeAction = defineRoute({
  method: 'GET',
  path: '/api/i/user/authed/{authToken}/action/{type}',
  access: 'public',
  handler: 'account/complete-action',
  summary: 'Spends an emailed action token of that type once and performs the action (verify-email).',
  params: actionParamsSchema,
  response: actionResponseSchema,
  capabilities: { table: 'read-write' },
  stateChanging: true,
});

/**
 * The group in listing order (the API reference, and CDK's stacks, which chunk an app's routes
 * in this order): a new route goes at the end, so no existing route moves to another stack.
 */
export const allSsoRoutes = {
  ssoStart,
  ssoExchange,
  ssoAuthedCheck,
  ssoLogout,
  realtimeClient,
  sendVerificationEmail,
  completeAction,
};
