import * as z from 'zod';
import { googleCallbackQuerySchema, googleLoginUrlQuerySchema, googleLoginUrlResponseSchema } from '../schemas/oauth';
import { defineRoute, type RouteDefinition } from './define-route';

const PREFIX = '/api/i/user/auth/login';

/** Google (OpenID Connect) and Twitter-style OAuth 2.0 logins. */
export const oauthRoutes = {
  googleLoginUrl: defineRoute({
    method: 'GET',
    path: `${PREFIX}/google/url`,
    access: 'public',
    handler: 'oauth/google-login-url',
    summary:
      'Starts a Google login: the authorization URL to navigate the top window to, and a short-lived cookie binding the login to this browser. 503 when Google login is not configured.',
    query: googleLoginUrlQuerySchema,
    response: googleLoginUrlResponseSchema,
    writes: true,
  }),
  googleCallback: defineRoute({
    method: 'GET',
    path: `${PREFIX}/google/callback`,
    access: 'public',
    handler: 'oauth/google-callback',
    summary:
      'Where Google sends the browser back: checks state, browser binding and ID token, signs in (or links or creates the account) and redirects to returnTo; any failure redirects to /login/failed?reason=….',
    query: googleCallbackQuerySchema,
    response: z.undefined(),
    writes: true,
  }),
} satisfies Record<string, RouteDefinition>;
