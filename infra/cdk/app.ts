import { App } from 'aws-cdk-lib';
import { bundleFunctions, DEFAULT_BUNDLE_DIR } from '../build/bundle-functions';
import { bundledCode, placeholderCode } from './code-source';
import { createPlatform } from './platform';
import { SETTING_GROUPS } from '../../shared/capabilities';

/**
 * Entry point of `cdk synth|deploy`. Context (cdk.json or -c):
 *   stage           default 'dev'
 *   allowedOrigins  comma list, default 'http://localhost:3000'
 *   mailDomain      SES domain, default 'example.com'
 *   cookieDomain    parent domain of the sibling apps for the session cookie, default none
 *   every optional setting of shared/capabilities.ts by its camel-case name, e.g.
 *   googleIssuer, googleClientId, googleRedirectUri (Google sign-in), twitterAuthorizeUrl,
 *   twitterTokenUrl, twitterUserUrl, twitterClientId, twitterRedirectUri (Twitter sign-in),
 *   ssoAppOrigins, pusherAppKey, recaptchaProjectId, recaptchaSiteKey
 *   secretName      Secrets Manager secret with GOOGLE_CLIENT_SECRET, TWITTER_CLIENT_SECRET,
 *                   PUSHER_SECRET, RECAPTCHA_API_KEY (JSON fields), resolved at deploy time
 *   inlineCode      'true' deploys 503 placeholders instead of bundling every handler
 *                   (a quick synth check; never for a real deployment)
 */
const app = new App();

function context(key: string, fallback: string): string {
  const value: unknown = app.node.tryGetContext(key);
  if (value === undefined || value === null || value === '') return fallback;
  return Array.isArray(value) ? value.join(',') : String(value);
}

/** GOOGLE_CLIENT_ID -> googleClientId: the context key of a setting. */
function camelCaseOf(variable: string): string {
  return variable.toLowerCase().replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

const inlineCode = context('inlineCode', 'false') === 'true';
if (inlineCode) {
  console.warn('inlineCode=true: functions are placeholders that answer 503.');
} else {
  await bundleFunctions({ outDir: DEFAULT_BUNDLE_DIR });
}

createPlatform(app, {
  stage: context('stage', 'dev'),
  allowedOrigins: context('allowedOrigins', 'http://localhost:3000')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean),
  mailDomain: context('mailDomain', 'example.com'),
  sessionCookieDomain: context('cookieDomain', '') || undefined,
  providers: {
    ...Object.fromEntries(
      Object.values(SETTING_GROUPS)
        .flatMap((group) => group.variables)
        .map((name) => [name, context(camelCaseOf(name), '') || undefined]),
    ),
    secretName: context('secretName', '') || undefined,
  },
  codeFor: inlineCode ? placeholderCode : bundledCode(DEFAULT_BUNDLE_DIR),
});
