import { withLoginArrival } from '../../shared/return-path';
import * as client from 'openid-client';
import * as oauthRoutes from '../../shared/routes/oauth';
import type { OauthFailureReason } from '../../shared/schemas/oauth';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { redirect } from '../lib/http/responses';
import { logger } from '../lib/logger';
import { createSession, sessionCookies } from '../lib/sessions';
import { isVerifiedClaim, signInWithProvider } from './lib/external-accounts';
import { googleClient, googleSettings } from './lib/google-provider';
import { BINDING_COOKIE, checkCallback, clearedBindingCookie } from './lib/login-state';

const config = getConfig();
const settings = googleSettings(config);

/** The browser is sent here, on this site, whenever a login cannot finish. */
export const loginFailedPath = (reason: OauthFailureReason) => `/login/failed?reason=${reason}`;

/** Errors of the token exchange: a bad ID token (nonce, audience, issuer, expiry, signature) or anything else from the provider. */
function exchangeFailureReason(error: unknown): OauthFailureReason {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^OAUTH_(JWT|JWS|JWK)/.test(code) ? 'invalid_id_token' : 'provider_error';
}

/**
 * Where Google sends the browser back. Checks, in order: the provider's answer, the state
 * (known, from this browser, unused, unexpired: spent here once), then exchanges the code with
 * the PKCE verifier and validates the ID token with openid-client (signature, issuer, audience,
 * nonce, expiry). Signs in by issuer + subject, links by verified email, or creates an account;
 * then a new session and a redirect to returnTo. Every refusal redirects to /login/failed.
 * Tokens are never logged.
 */
export const handler = createHandler(oauthRoutes.googleCallback, async ({ query, cookies, headers }) => {
  const cleared = clearedBindingCookie();
  const fail = (reason: OauthFailureReason, detail: string) => {
    logger.warn('Google login refused', { reason, detail });
    return redirect(loginFailedPath(reason), [cleared]);
  };
  const db = getDb();
  const checked = await checkCallback(db, {
    provider: 'google',
    configured: Boolean(settings),
    query,
    binding: cookies[BINDING_COOKIE] || undefined,
  });
  if ('reason' in checked) return fail(checked.reason, checked.detail);
  const { login } = checked;
  // checkCallback refused a missing configuration already; this narrows the type.
  if (!settings) return fail('not_configured', 'Google login is not configured');

  const currentUrl = new URL(settings.redirectUri);
  for (const [name, value] of Object.entries(query)) if (typeof value === 'string') currentUrl.searchParams.set(name, value);
  let claims: client.IDToken | undefined;
  try {
    const tokens = await client.authorizationCodeGrant(await googleClient(settings), currentUrl, {
      pkceCodeVerifier: login.codeVerifier,
      expectedState: query.state,
      expectedNonce: login.nonce,
      idTokenExpected: true,
    });
    claims = tokens.claims();
  } catch (error) {
    const { name, message } = error as Error;
    const code = (error as { code?: unknown }).code;
    return fail(exchangeFailureReason(error), `${name}${typeof code === 'string' ? ` ${code}` : ''}: ${message}`);
  }
  if (!claims) return fail('invalid_id_token', 'The token response has no ID token');

  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : undefined;
  const { user, outcome } = await signInWithProvider(db, {
    issuer: claims.iss,
    subject: claims.sub,
    email: email || undefined,
    emailVerified: isVerifiedClaim(claims.email_verified),
    name: typeof claims.name === 'string' ? claims.name : undefined,
  });
  const session = await createSession(db, user.userId, { userAgent: headers['user-agent'] });
  logger.info('Logged in with Google', { userId: user.userId, outcome });
  // The fragment lets the page greet a Google login as it greets an email one.
  return redirect(withLoginArrival(login.returnTo, outcome === 'created', 'google'), [
    cleared,
    ...sessionCookies(session.token, { domain: config.sessionCookieDomain }),
  ]);
});
