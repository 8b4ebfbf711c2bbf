import { App } from 'aws-cdk-lib';
import { bundleFunctions, DEFAULT_BUNDLE_DIR } from '../build/bundle-functions';
import { bundledCode, placeholderCode } from './code-source';
import { createPlatform } from './platform';

/**
 * Entry point of `cdk synth|deploy`. Context (cdk.json or -c):
 *   stage           default 'dev'
 *   allowedOrigins  comma list, default 'http://localhost:3000'
 *   mailDomain      SES domain, default 'example.com'
 *   cookieDomain    parent domain of the sibling apps for the session cookie, default none
 *   googleIssuer, googleClientId, googleRedirectUri     Google sign-in (optional)
 *   ssoAppOrigins   comma list of sibling-app origins for single sign-on (optional)
 *   pusherAppKey    realtime channel key (optional)
 *   recaptchaProjectId, recaptchaSiteKey                reCAPTCHA Enterprise (optional)
 *   secretName      Secrets Manager secret with GOOGLE_CLIENT_SECRET, PUSHER_SECRET,
 *                   RECAPTCHA_API_KEY (JSON fields), resolved at deploy time
 *   inlineCode      'true' deploys 503 placeholders instead of bundling every handler
 *                   (a quick synth check; never for a real deployment)
 */
const app = new App();

function context(key: string, fallback: string): string {
  const value: unknown = app.node.tryGetContext(key);
  if (value === undefined || value === null || value === '') return fallback;
  return Array.isArray(value) ? value.join(',') : String(value);
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
    googleIssuer: context('googleIssuer', '') || undefined,
    googleClientId: context('googleClientId', '') || undefined,
    googleRedirectUri: context('googleRedirectUri', '') || undefined,
    ssoAppOrigins: context('ssoAppOrigins', '') || undefined,
    pusherAppKey: context('pusherAppKey', '') || undefined,
    recaptchaProjectId: context('recaptchaProjectId', '') || undefined,
    recaptchaSiteKey: context('recaptchaSiteKey', '') || undefined,
    secretName: context('secretName', '') || undefined,
  },
  codeFor: inlineCode ? placeholderCode : bundledCode(DEFAULT_BUNDLE_DIR),
});
