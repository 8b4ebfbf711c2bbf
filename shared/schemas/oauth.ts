import * as z from '../zod';
import { isSameSitePath, MAX_RETURN_PATH } from '../return-path';

/**
 * Where to land after an outside login: a path on this site only. '//host' and '/\host' are
 * read by browsers as another host, so they are refused (no open redirect).
 */
export const returnToSchema = z
  .string()
  .check(
    z.maxLength(MAX_RETURN_PATH, `returnTo has at most ${MAX_RETURN_PATH} characters`),
    z.refine(isSameSitePath, 'returnTo must be a path on this site, starting with a single /'),
  );

export const googleLoginUrlQuerySchema = z.strictObject({ returnTo: z._default(returnToSchema, '/') });
export const googleLoginUrlResponseSchema = z.strictObject({
  /** The provider's authorization URL: navigate the top window there. */
  url: z.string(),
});

const param = z.string().check(z.maxLength(2048));

/**
 * What the provider sends back to the redirect URI. Loose: Google adds parameters of its own
 * (scope, authuser, hd, prompt), which are passed on to the OpenID client untouched.
 */
export const googleCallbackQuerySchema = z.looseObject({
  code: z.optional(param),
  state: z.optional(param),
  error: z.optional(param),
  error_description: z.optional(param),
  iss: z.optional(param),
});

/** Why a Google login failed: the `reason` of the /login/failed page it redirects to. */
export const OAUTH_FAILURE_REASONS = [
  /** The Twitter account is already connected to another user. */
  'already_linked',
  'not_configured',
  'invalid_request',
  'cancelled',
  'provider_error',
  'invalid_state',
  'state_expired',
  'state_used',
  'browser_mismatch',
  'invalid_id_token',
] as const;
export type OauthFailureReason = (typeof OAUTH_FAILURE_REASONS)[number];
