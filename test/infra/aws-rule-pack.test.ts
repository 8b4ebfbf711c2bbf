import { App, Validations } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/build/bundle-functions';
import { createPlatform } from '../../infra/cdk/platform';
import { costlyRoutes, WafStack } from '../../infra/cdk/stacks/waf-stack';
import { routeEntries } from '../../shared/routes/index';

interface ValidationReport {
  pluginReports: {
    violations: { ruleName: string; description: string; severity: string; violatingConstructs: { constructPath: string }[] }[];
  }[];
}

const outDirs: string[] = [];
afterAll(() => {
  for (const outDir of outDirs) rmSync(outDir, { recursive: true, force: true });
});

/**
 * The whole app as a production deploy synthesizes it (the real route table and jobs, the site's
 * own domain, alarms, the WAF), with AWS's AwsSolutions rule pack attached.
 */
function synthWithRulePack(options: { siteCertificateArn?: string } = {}): string[] {
  const outdir = mkdtempSync(path.join(tmpdir(), 'cdk-nag-'));
  outDirs.push(outdir);
  const cdkJson = JSON.parse(readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  const app = new App({ context: cdkJson.context, outdir });
  createPlatform(app, {
    stage: 'prod',
    allowedOrigins: ['https://toppubs.example', 'https://news.toppubs.example'],
    mailDomain: 'toppubs.example',
    siteCertificateArn: options.siteCertificateArn,
    alarmEmail: 'oncall@toppubs.example',
    webAclArn: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/toppubs/abc',
    codeFor: () => lambda.Code.fromInline('export const handler = async () => ({})'),
  });
  // The optional WAF deploys from its own app (us-east-1); checked here with the rest.
  new WafStack(app, 'TopPubs-prod-Waf', {
    env: { region: 'us-east-1' },
    costlyRoutes: costlyRoutes(routeEntries.map(([, route]) => route)),
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  try {
    app.synth();
  } catch (error) {
    // Any finding, a warning included, stops synth; the report written first says which.
    if (!String(error).startsWith('ValidationFailed')) throw error;
  }
  const report = JSON.parse(readFileSync(path.join(outdir, 'validation-report.json'), 'utf8')) as ValidationReport;
  return report.pluginReports.flatMap((plugin) =>
    plugin.violations
      .filter((violation) => violation.severity === 'error')
      .flatMap((violation) =>
        violation.violatingConstructs.map(
          (construct) => `${violation.ruleName} at ${construct.constructPath}: ${violation.description}`,
        ),
      ),
  );
}

describe("AWS's AwsSolutions rule pack over the production app", () => {
  it('finds no error that is neither fixed nor acknowledged with a reason next to its construct', () => {
    // Act
    const errors = synthWithRulePack({ siteCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/site' });

    // Assess: the list itself is the message, naming each rule and construct.
    expect(errors).toEqual([]);
  }, 120_000);

  it('refuses the default CloudFront certificate, which still accepts TLS 1.0', () => {
    // Act
    const errors = synthWithRulePack();

    // Assess
    expect(errors).toEqual([expect.stringMatching(/^AwsSolutions-CFR4 at TopPubs-prod-Web\/Distribution\//)]);
  }, 120_000);
});
