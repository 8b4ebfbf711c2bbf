import { App } from 'aws-cdk-lib';
import { bundleFunctions, DEFAULT_BUNDLE_DIR } from '../build/bundle-functions';
import { bundledCode, placeholderCode } from './code-source';
import { createPlatform } from './platform';
import { SETTING_GROUPS } from '../../shared/capabilities';

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

function context(key: string, fallback: string): string {
  const value: unknown = app.node.tryGetContext(key);
  if (value === undefined || value === null || value === '') return fallback;
  return Array.isArray(value) ? value.join(',') : String(value);
}

/** GOOGLE_CLIENT_ID -> googleClientId: the context key of a setting. */
function camelCaseOf(variable: string): string {
  return variable.toLowerCase().replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

/**
 * The settings a deployment cannot do without. There are no defaults for them: a default fit
 * for a laptop (http://localhost:3000, example.com) would ship an API that trusts localhost and
 * mails links to it, so synth stops instead and names every setting that is missing or wrong.
 */
function deploymentSettings(): { allowedOrigins: string[]; mailDomain: string; siteCertificateArn: string } {
  const problems: string[] = [];
  const allowedOrigins = context('allowedOrigins', '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  if (allowedOrigins.length === 0) {
    problems.push('allowedOrigins is missing: pass -c allowedOrigins=https://toppubs.example (a comma list, the web app first)');
  }
  for (const origin of allowedOrigins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.origin !== origin.replace(/\/$/, '')) {
      problems.push(`allowedOrigins: '${origin}' is not an origin like https://toppubs.example`);
    }
  }
  if (allowedOrigins[0] && !allowedOrigins[0].startsWith('https://')) {
    problems.push("allowedOrigins: the first origin (the web app's, used in login links) must be https");
  }
  const mailDomain = context('mailDomain', '');
  if (!mailDomain) problems.push('mailDomain is missing: pass -c mailDomain=toppubs.example (the SES domain mail is sent from)');
  const siteCertificateArn = context('siteCertificateArn', '');
  if (!/^arn:aws:acm:us-east-1:\d{12}:certificate\/[\w-]+$/.test(siteCertificateArn)) {
    problems.push(
      `siteCertificateArn ${siteCertificateArn ? `'${siteCertificateArn}' is not` : 'is missing: pass'} an ACM certificate ARN in us-east-1 ` +
        "(CloudFront's region) for the web app's domain, e.g. -c siteCertificateArn=arn:aws:acm:us-east-1:123456789012:certificate/abc",
    );
  }
  if (problems.length > 0) {
    throw new Error(`Refusing to synthesize a deployment without its production settings:\n- ${problems.join('\n- ')}`);
  }
  return { allowedOrigins: allowedOrigins.map((origin) => origin.replace(/\/$/, '')), mailDomain, siteCertificateArn };
}

// Checked before anything is bundled: a missing setting fails in a second, not after a build.
const { allowedOrigins, mailDomain, siteCertificateArn } = deploymentSettings();
const inlineCode = context('inlineCode', 'false') === 'true';
if (inlineCode) {
  console.warn('inlineCode=true: functions are placeholders that answer 503.');
} else {
  await bundleFunctions({ outDir: DEFAULT_BUNDLE_DIR });
}

const webAclArn = context('webAclArn', '');
if (webAclArn && !/^arn:aws:wafv2:us-east-1:\d{12}:global\/webacl\/[\w-]+\/[\w-]+$/.test(webAclArn)) {
  throw new Error(`webAclArn '${webAclArn}' is not a CloudFront web ACL ARN (arn:aws:wafv2:us-east-1:…:global/webacl/…)`);
}
const budget = context('monthlyBudgetUsd', '');
if (budget && !(Number(budget) > 0)) throw new Error(`monthlyBudgetUsd '${budget}' is not a positive number of US dollars`);

createPlatform(app, {
  alarmEmail: context('alarmEmail', '') || undefined,
  webAclArn: webAclArn || undefined,
  monthlyBudgetUsd: budget ? Number(budget) : undefined,
  stage: context('stage', 'dev'),
  allowedOrigins,
  mailDomain,
  siteCertificateArn,
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
