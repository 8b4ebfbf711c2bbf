import * as z from '../zod';
import { googleCallbackQuerySchema, googleLoginUrlQuerySchema, googleLoginUrlResponseSchema } from '../schemas/oauth';
import { defineRoute, redirectResponse } from './define-route';

// Google (OpenID Connect) and Twitter-style OAuth 2.0 logins.

export const googleLoginUrl = defineRoute({
  method: 'GET',
  path: '/api/i/user/auth/login/google/url',
  access: 'public',
  handler: 'account/google-login-url',
  summary:
    'Starts a Google login: the authorization URL to navigate the top window to, and a short-lived cookie binding the login to this browser. 503 when Google login is not configured.',
  query: googleLoginUrlQuerySchema,
  response: googleLoginUrlResponseSchema,
  // Stores the login's state; the web app asks for the URL with fetch, so it can send the header.
  // Reads the reCAPTCHA settings to know whether a bot-check pass is required.
  capabilities: { table: 'read-write', settings: ['google', 'recaptcha'] },
  stateChanging: true,
});

export const googleCallback = defineRoute({
  method: 'GET',
  path: '/api/i/user/auth/login/google/callback',
  access: 'public',
  handler: 'account/google-callback',
  summary:
    'Where Google sends the browser back: checks state, browser binding and ID token, signs in (or links or creates the account) and redirects to returnTo; any failure redirects to /login/failed?reason=….',
  query: googleCallbackQuerySchema,
  response: redirectResponse,
  // The provider sends the browser here with a plain navigation, which cannot carry the
  // application-id header: the state and the browser-binding cookie are what protect it.
  capabilities: { table: 'read-write', settings: ['google'] },
});

export const twitterLoginUrl = defineRoute({
  method: 'GET',
  path: '/api/i/user/auth/login/twitter/url',
  access: 'public',
  handler: 'account/twitter-login-url',
  summary:
    'Starts a Twitter login (OAuth 2.0 with PKCE): the authorization URL to navigate the top window to, and a short-lived cookie binding the login to this browser. 503 when Twitter login is not configured.',
  query: googleLoginUrlQuerySchema,
  response: googleLoginUrlResponseSchema,
  capabilities: { table: 'read-write', settings: ['twitter'] },
  stateChanging: true,
});

export const twitterCallback = defineRoute({
  method: 'GET',
  path: '/api/i/user/auth/login/twitter/callback',
  access: 'public',
  handler: 'account/twitter-callback',
  summary:
    'Where Twitter sends the browser back: checks state and browser binding, exchanges the code (PKCE), reads the Twitter user; connects it to the signed-in user, or signs in (or creates the account), then redirects to returnTo; any failure redirects to /login/failed?reason=….',
  query: googleCallbackQuerySchema,
  response: redirectResponse,
  // A plain navigation from the provider, protected by state and the binding cookie (as Google's).
  capabilities: { table: 'read-write', settings: ['twitter'] },
});

export const disconnectTwitter = defineRoute({
  method: 'DELETE',
  path: '/api/i/user/auth/connection/twitter/disconnect',
  access: 'user',
  handler: 'account/twitter-disconnect',
  summary:
    "Removes the signed-in user's Twitter connection; 409 ONLY_LOGIN_METHOD when it is their only way to log in (no verified email, no other outside login).",
  response: z.strictObject({ disconnected: z.boolean() }),
});

/**
 * The group in listing order (the API reference, and CDK's stacks, which chunk an app's routes
 * in this order): a new route goes at the end, so no existing route moves to another stack.
 */
export const allOauthRoutes = {
  googleLoginUrl,
  googleCallback,
  twitterLoginUrl,
  twitterCallback,
  disconnectTwitter,
};
