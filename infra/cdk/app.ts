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
  codeFor: inlineCode ? placeholderCode : bundledCode(DEFAULT_BUNDLE_DIR),
});
