import { App } from 'aws-cdk-lib';
import { SETTING_GROUPS } from '../../shared/capabilities';
import { contextText, readDeploymentContext } from './deployment-context';

/**
 * Entry point of `cdk synth|deploy`. Context (cdk.json or -c):
 *   stage           default 'dev'
 *   allowedOrigins  comma list of origins, required; the first (https) is the web app's own,
 *                   the one login links point to
 *   mailDomain      SES domain mail is sent from, required
 *   siteCertificateArn  ACM certificate (us-east-1) for the web app's domain, the host of the
 *                   first allowed origin, required: CloudFront's default certificate allows TLS 1.0
 *   webAclArn       the optional WAF web ACL made by infra/cdk/waf-app.ts (us-east-1), optional
 *   alarmEmail      address told when an alarm fires (SNS email subscription), optional
 *   monthlyBudgetUsd  monthly cost budget in US dollars, mailed to alarmEmail, optional
 *   cookieDomain    parent domain of the sibling apps for the session cookie, default none
 *   every optional setting of shared/capabilities.ts by its camel-case name, e.g.
 *   googleIssuer, googleClientId, googleRedirectUri (Google sign-in), twitterAuthorizeUrl,
 *   twitterTokenUrl, twitterUserUrl, twitterClientId, twitterRedirectUri (Twitter sign-in),
 *   recaptchaProjectId, recaptchaSiteKey
 *   secretName      Secrets Manager secret with GOOGLE_CLIENT_SECRET, TWITTER_CLIENT_SECRET,
 *                   RECAPTCHA_API_KEY (JSON fields), resolved at deploy time
 *   inlineCode      'true' deploys 503 placeholders instead of bundling every handler
 *                   (a quick synth check; never for a real deployment)
 */
const app = new App();

const context = (key: string): string => contextText(app.node.tryGetContext(key));

// Checked before the stacks are even loaded: a missing or malformed setting fails in a second or
// two, not after most of aws-cdk-lib, the route table and a bundle of every handler.
const { allowedOrigins, mailDomain, siteCertificateArn, webAclArn, monthlyBudgetUsd } = readDeploymentContext(context);

const [{ bundleFunctions, DEFAULT_BUNDLE_DIR }, { bundledCode, placeholderCode }, { createPlatform }] = await Promise.all([
  import('../build/bundle-functions'),
  import('./code-source'),
  import('./platform'),
]);

/** GOOGLE_CLIENT_ID -> googleClientId: the context key of a setting. */
function camelCaseOf(variable: string): string {
  return variable.toLowerCase().replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

const inlineCode = context('inlineCode') === 'true';
if (inlineCode) {
  console.warn('inlineCode=true: functions are placeholders that answer 503.');
} else {
  await bundleFunctions({ outDir: DEFAULT_BUNDLE_DIR });
}

createPlatform(app, {
  alarmEmail: context('alarmEmail') || undefined,
  webAclArn,
  monthlyBudgetUsd,
  stage: context('stage') || 'dev',
  allowedOrigins,
  mailDomain,
  siteCertificateArn,
  sessionCookieDomain: context('cookieDomain') || undefined,
  providers: {
    ...Object.fromEntries(
      Object.values(SETTING_GROUPS)
        .flatMap((group) => group.variables)
        .map((name) => [name, context(camelCaseOf(name)) || undefined]),
    ),
    secretName: context('secretName') || undefined,
  },
  codeFor: inlineCode ? placeholderCode : bundledCode(DEFAULT_BUNDLE_DIR),
});
