/**
 * The checks `cdk synth` of infra/cdk/app.ts makes on its context before it builds anything.
 * Kept apart from the constructs, and free of imports: app.ts runs them before it loads the
 * stacks (most of aws-cdk-lib and the route table), so a wrong or missing setting fails in a
 * second or two, not after the libraries load and every handler is bundled.
 */

/** A context value as text ('' when unset); CDK passes a list given in cdk.json as an array. */
export type ContextReader = (key: string) => string;

export interface DeploymentContext {
  allowedOrigins: string[];
  mailDomain: string;
  siteCertificateArn: string;
  webAclArn: string | undefined;
  monthlyBudgetUsd: number | undefined;
}

/** Reads a context value as text, whatever JSON type cdk.json or -c gave it. */
export function contextText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return Array.isArray(value) ? value.join(',') : String(value);
}

/**
 * The settings a deployment cannot do without, and the optional ones that must be well formed.
 * There are no defaults for the required ones: a default fit for a laptop (http://localhost:3000,
 * example.com) would ship an API that trusts localhost and mails links to it, so synth stops
 * instead and names every setting that is missing or wrong.
 */
export function readDeploymentContext(context: ContextReader): DeploymentContext {
  const problems: string[] = [];
  const allowedOrigins = context('allowedOrigins')
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
  const mailDomain = context('mailDomain');
  if (!mailDomain) problems.push('mailDomain is missing: pass -c mailDomain=toppubs.example (the SES domain mail is sent from)');
  const siteCertificateArn = context('siteCertificateArn');
  if (!/^arn:aws:acm:us-east-1:\d{12}:certificate\/[\w-]+$/.test(siteCertificateArn)) {
    problems.push(
      `siteCertificateArn ${siteCertificateArn ? `'${siteCertificateArn}' is not` : 'is missing: pass'} an ACM certificate ARN in us-east-1 ` +
        "(CloudFront's region) for the web app's domain, e.g. -c siteCertificateArn=arn:aws:acm:us-east-1:123456789012:certificate/abc",
    );
  }
  if (problems.length > 0) {
    throw new Error(`Refusing to synthesize a deployment without its production settings:\n- ${problems.join('\n- ')}`);
  }

  const webAclArn = context('webAclArn');
  if (webAclArn && !/^arn:aws:wafv2:us-east-1:\d{12}:global\/webacl\/[\w-]+\/[\w-]+$/.test(webAclArn)) {
    throw new Error(`webAclArn '${webAclArn}' is not a CloudFront web ACL ARN (arn:aws:wafv2:us-east-1:…:global/webacl/…)`);
  }
  const budget = context('monthlyBudgetUsd');
  if (budget && !(Number(budget) > 0)) throw new Error(`monthlyBudgetUsd '${budget}' is not a positive number of US dollars`);

  return {
    allowedOrigins: allowedOrigins.map((origin) => origin.replace(/\/$/, '')),
    mailDomain,
    siteCertificateArn,
    webAclArn: webAclArn || undefined,
    monthlyBudgetUsd: budget ? Number(budget) : undefined,
  };
}
